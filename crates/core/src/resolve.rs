//! Guard step 1: map the name a caller used to a tool id, or say which ids come closest.

use crate::result::ToolError;

/// How many close ids a `not_found` error offers.
const MAX_OPTIONS: usize = 5;

/// How a name matched a tool id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameMatch {
    /// The name is the id.
    Exact,
    /// The name matched after ignoring case, surrounding spaces, dashes and inner spaces.
    Loose,
}

/// Folds the differences a model's spelling of a tool name may have: case, surrounding
/// whitespace, and `-`/space/`.` used where the id has `_`.
pub fn canonical_name(name: &str) -> String {
    name.trim()
        .chars()
        .map(|c| match c {
            '-' | ' ' | '.' => '_',
            c => c.to_ascii_lowercase(),
        })
        .collect()
}

/// Resolves `name` against `ids`: exact id, then case/space/dash-insensitive, else a
/// `not_found` error whose options are the closest ids.
pub fn resolve_name<'a, I>(name: &str, ids: I) -> Result<(&'a str, NameMatch), ToolError>
where
    I: IntoIterator<Item = &'a str>,
    I::IntoIter: Clone,
{
    let ids = ids.into_iter();
    if let Some(id) = ids.clone().find(|id| *id == name) {
        return Ok((id, NameMatch::Exact));
    }
    let wanted = canonical_name(name);
    if let Some(id) = ids.clone().find(|id| canonical_name(id) == wanted) {
        return Ok((id, NameMatch::Loose));
    }
    Err(unknown_tool(name, ids))
}

/// The `not_found` error for a name that matches no id, offering the closest ids.
pub fn unknown_tool<'a>(name: &str, ids: impl IntoIterator<Item = &'a str>) -> ToolError {
    let options = closest(&canonical_name(name), ids, MAX_OPTIONS);
    let shown = if name.chars().count() > 80 {
        format!("{}...", name.chars().take(77).collect::<String>())
    } else {
        name.to_string()
    };
    ToolError::not_found(format!("no tool named '{shown}'"))
        .with_hint("call one of the listed tools by its exact id; do not invent tools")
        .with_options(options)
}

/// The `limit` candidates most similar to `wanted`, best first. Containment counts as
/// close, so `volume` suggests `increase_volume` and `decrease_volume`.
pub fn closest<'a, I>(wanted: &str, candidates: I, limit: usize) -> Vec<String>
where
    I: IntoIterator<Item = &'a str>,
{
    let wanted = wanted.to_lowercase();
    let mut scored: Vec<(f64, &str)> = candidates
        .into_iter()
        .map(|candidate| {
            let lower = candidate.to_lowercase();
            let mut score = strsim::normalized_levenshtein(&wanted, &lower);
            if !wanted.is_empty() && (lower.contains(&wanted) || wanted.contains(&lower)) {
                score += 0.5;
            }
            // Shared words (`delete_records` vs `records_export`) are a weaker signal.
            let shared = wanted
                .split(['_', '/', ' '])
                .filter(|w| w.len() > 2 && lower.contains(*w))
                .count();
            score += 0.2 * shared as f64;
            (score, candidate)
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    scored
        .into_iter()
        .take(limit)
        .map(|(_, c)| c.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result::ErrorType;

    const IDS: [&str; 5] = [
        "calculator",
        "current_time",
        "increase_volume",
        "decrease_volume",
        "describe_dataset",
    ];

    #[test]
    fn table() {
        let cases: &[(&str, Option<(&str, NameMatch)>)] = &[
            ("calculator", Some(("calculator", NameMatch::Exact))),
            ("Calculator", Some(("calculator", NameMatch::Loose))),
            (" current-time ", Some(("current_time", NameMatch::Loose))),
            (
                "Increase Volume",
                Some(("increase_volume", NameMatch::Loose)),
            ),
            ("delete_database_records", None),
            ("", None),
        ];
        for (name, want) in cases {
            let got = resolve_name(name, IDS).ok();
            assert_eq!(got, *want, "{name:?}");
        }
    }

    #[test]
    fn unknown_names_get_close_options() {
        let err = resolve_name("volume_up", IDS)
            .err()
            .unwrap_or_else(|| ToolError::internal(""));
        assert_eq!(err.error_type, ErrorType::NotFound);
        assert!(
            err.options[..2].contains(&"increase_volume".to_string()),
            "{:?}",
            err.options
        );
        let err = resolve_name("calculater", IDS)
            .err()
            .unwrap_or_else(|| ToolError::internal(""));
        assert_eq!(err.options.first().map(String::as_str), Some("calculator"));
    }
}
