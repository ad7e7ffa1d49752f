//! The suite format: JSONL, one case per line (blank lines and lines starting with `#`
//! are skipped). See `docs/EVAL.md` for the fields; [`parse_suite`] checks each line and
//! says which line is wrong and why.

use std::collections::{BTreeMap, HashSet};

use deskmate_core::ErrorType;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The bundled suite's `dev` cases (`crates/autotest/suites/dev.jsonl`): the ones the
/// loop, its prompt and its examples may be tuned on.
pub const DEV_SUITE: &str = include_str!("../../suites/dev.jsonl");

/// The bundled suite's `heldout` cases (`crates/autotest/suites/heldout.jsonl`): never
/// used for examples, prompt text, thresholds or any other choice; only they count toward
/// the targets. A test in `tests/near_copies.rs` fails when an example the model reads is
/// a near-copy of one of them.
pub const HELDOUT_SUITE: &str = include_str!("../../suites/heldout.jsonl");

/// The bundled suite: its dev and held-out cases.
pub fn bundled() -> Result<Suite, SuiteError> {
    parse_suite("bundled", &format!("{DEV_SUITE}\n{HELDOUT_SUITE}"))
}

/// What a case tests.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum CaseCategory {
    /// One call to the one fitting tool.
    Simple,
    /// One call, choosing among several tools.
    Multiple,
    /// The same tool called several times at once.
    Parallel,
    /// Several tools called at once.
    ParallelMultiple,
    /// No tool fits: no call.
    Irrelevance,
    /// Phrasing that invites malformed arguments.
    Malformed,
    /// The first call fails (scripted); the model must fix it.
    ErrorRecovery,
    /// A group of writes where one fails (scripted): nothing may be left half done.
    Atomicity,
}

impl CaseCategory {
    /// Every category, in report order.
    pub const ALL: [Self; 8] = [
        Self::Simple,
        Self::Multiple,
        Self::Parallel,
        Self::ParallelMultiple,
        Self::Irrelevance,
        Self::Malformed,
        Self::ErrorRecovery,
        Self::Atomicity,
    ];

    /// The name in the suite and the report.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Simple => "simple",
            Self::Multiple => "multiple",
            Self::Parallel => "parallel",
            Self::ParallelMultiple => "parallel_multiple",
            Self::Irrelevance => "irrelevance",
            Self::Malformed => "malformed",
            Self::ErrorRecovery => "error_recovery",
            Self::Atomicity => "atomicity",
        }
    }
}

/// Which part of the bundled suite a case belongs to.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Split {
    /// Cases the loop may be tuned on and examples drawn from (a case without `split`).
    #[default]
    Dev,
    /// Cases nobody tunes on: the measure that counts.
    Heldout,
}

impl Split {
    /// Both, in report order.
    pub const ALL: [Self; 2] = [Self::Dev, Self::Heldout];

    /// The name in the suite and the report.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Dev => "dev",
            Self::Heldout => "heldout",
        }
    }
}

/// A message of the conversation (only the user's, one per case).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuiteMessage {
    /// `user`.
    pub role: String,
    /// What they said.
    pub content: String,
}

/// A tool offered in a case: one of Deskmate's by id, or a stub defined inline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OfferedTool {
    /// A Deskmate tool.
    Id(String),
    /// A stub that answers `{"ok": true}` (for distractors and tools Deskmate lacks).
    Inline(InlineTool),
}

impl OfferedTool {
    /// The tool's id.
    pub fn id(&self) -> &str {
        match self {
            Self::Id(id) => id,
            Self::Inline(tool) => &tool.name,
        }
    }
}

/// The tools a case offers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Offered {
    /// `"all"`: every enabled tool of the case's service, as a chat turn offers them.
    Every(EveryTool),
    /// These tools only.
    Listed(Vec<OfferedTool>),
}

/// The word `"all"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EveryTool {
    /// Every enabled tool.
    All,
}

/// An inline tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InlineTool {
    /// Its id.
    pub name: String,
    /// What it does.
    pub description: String,
    /// Its JSON Schema.
    pub parameters: Value,
}

/// An expected call: for each argument, the acceptable values (`null`: may be omitted).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectedCall {
    /// The tool.
    pub tool: String,
    /// Acceptable values per argument.
    #[serde(default)]
    pub args: BTreeMap<String, Vec<Value>>,
}

/// The first call to `tool` fails with this error, whatever its arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedFailure {
    /// The tool whose first call fails.
    pub tool: String,
    /// The error's type.
    pub error_type: ErrorType,
    /// The error's message.
    pub message: String,
    /// How to fix the call.
    #[serde(default)]
    pub hint: Option<String>,
}

/// A fact a reply states: one text, or any one of several ways of writing it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Fact {
    /// This text.
    One(String),
    /// Any one of these texts.
    Any(Vec<String>),
}

impl Fact {
    /// Whether `reply` states the fact (case-insensitive, ignoring thousands separators
    /// in numbers: "2,340" states "2340").
    pub fn stated_in(&self, reply: &str) -> bool {
        let plain = |text: &str| text.to_lowercase().replace([',', '，'], "");
        let reply = plain(reply);
        match self {
            Self::One(text) => reply.contains(&plain(text)),
            Self::Any(texts) => texts.iter().any(|t| reply.contains(&plain(t))),
        }
    }
}

/// One case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Unique in the suite.
    pub id: String,
    /// What it tests.
    pub category: CaseCategory,
    /// `en` or `zh`.
    pub lang: String,
    /// `dev` (the default) or `heldout`.
    #[serde(default)]
    pub split: Split,
    /// Another wording of this case (its id): the same request in other words, judged
    /// on its own and, with its siblings, for whether every wording gets the same tools.
    #[serde(default)]
    pub wording_of: Option<String>,
    /// The user's message (exactly one).
    pub messages: Vec<SuiteMessage>,
    /// The tools offered: a list, or `"all"` (every enabled tool).
    pub tools: Offered,
    /// The calls expected (empty: no call).
    pub expect: Vec<ExpectedCall>,
    /// A scripted failure (error recovery, atomicity).
    #[serde(default)]
    pub fail_first: Option<ScriptedFailure>,
    /// Facts the reply must state, each as a text it contains (any case), or a list of
    /// texts any one of which states it ("84", or ["3:00", "15:00"]).
    #[serde(default)]
    pub reply_states: Vec<Fact>,
    /// Texts the reply must not contain: claims it must not make ("turned on" where
    /// nothing was).
    #[serde(default)]
    pub reply_avoids: Vec<String>,
    /// What the case is about.
    #[serde(default)]
    pub note: Option<String>,
}

impl Case {
    /// The user's message.
    pub fn message(&self) -> &str {
        self.messages.first().map_or("", |m| m.content.as_str())
    }

    /// The ids of the listed tools (none when the case offers every tool).
    pub fn offered(&self) -> Vec<String> {
        self.listed().iter().map(|t| t.id().to_string()).collect()
    }

    /// The listed tools (none when the case offers every tool).
    pub fn listed(&self) -> &[OfferedTool] {
        match &self.tools {
            Offered::Listed(tools) => tools,
            Offered::Every(_) => &[],
        }
    }

    /// Whether the case offers every enabled tool.
    pub fn offers_all(&self) -> bool {
        matches!(self.tools, Offered::Every(_))
    }

    /// The case whose wordings this one shares: the one it is a wording of, else itself.
    pub fn wording_group(&self) -> &str {
        self.wording_of.as_deref().unwrap_or(&self.id)
    }
}

/// A suite.
#[derive(Debug, Clone, PartialEq)]
pub struct Suite {
    /// Its name (the file name, or `default`).
    pub name: String,
    /// Its cases, in file order.
    pub cases: Vec<Case>,
}

/// A line of a suite that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("suite line {line}: {message}")]
pub struct SuiteError {
    /// 1-based.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads a suite; every case is checked on its own (a known tool set is checked when it
/// runs).
pub fn parse_suite(name: &str, text: &str) -> Result<Suite, SuiteError> {
    let mut cases = Vec::new();
    let mut ids = HashSet::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let fail = |message: String| SuiteError {
            line: line_no,
            message,
        };
        let case: Case = serde_json::from_str(trimmed).map_err(|e| fail(e.to_string()))?;
        check_case(&case).map_err(fail)?;
        if !ids.insert(case.id.clone()) {
            return Err(fail(format!("duplicate id {}", case.id)));
        }
        if let Some(base) = &case.wording_of {
            let same = cases.iter().find(|c: &&Case| &c.id == base);
            match same {
                None => {
                    return Err(fail(format!(
                        "{}: wording_of {base} is not an earlier case",
                        case.id
                    )));
                }
                Some(b) if b.wording_of.is_some() => {
                    return Err(fail(format!(
                        "{}: wording_of {base}, which is itself a wording",
                        case.id
                    )));
                }
                Some(b)
                    if (b.split, b.category, b.lang.as_str())
                        != (case.split, case.category, case.lang.as_str()) =>
                {
                    return Err(fail(format!(
                        "{}: a wording has its case's split, category and language",
                        case.id
                    )));
                }
                Some(_) => {}
            }
        }
        cases.push(case);
    }
    if cases.is_empty() {
        return Err(SuiteError {
            line: 0,
            message: "the suite has no cases".into(),
        });
    }
    Ok(Suite {
        name: name.to_string(),
        cases,
    })
}

fn check_case(case: &Case) -> Result<(), String> {
    if case.id.trim().is_empty() {
        return Err("id is empty".into());
    }
    let id = &case.id;
    if !matches!(case.lang.as_str(), "en" | "zh") {
        return Err(format!("{id}: lang must be en or zh"));
    }
    match case.messages.as_slice() {
        [m] if m.role == "user" && !m.content.trim().is_empty() => {}
        _ => return Err(format!("{id}: messages must be exactly one user message")),
    }
    if !case.offers_all() && case.listed().is_empty() {
        return Err(format!("{id}: no tools offered"));
    }
    // With every tool offered, which ids exist is known only when the case runs.
    let offered = case.offered();
    let known = |tool: &String| case.offers_all() || offered.contains(tool);
    let mut seen = HashSet::new();
    for tool in &offered {
        if !seen.insert(tool) {
            return Err(format!("{id}: tool {tool} offered twice"));
        }
    }
    for call in &case.expect {
        if !known(&call.tool) {
            return Err(format!("{id}: expected tool {} is not offered", call.tool));
        }
        if let Some((arg, _)) = call.args.iter().find(|(_, values)| values.is_empty()) {
            return Err(format!("{id}: {}.{arg} has no acceptable value", call.tool));
        }
        for (arg, values) in &call.args {
            values
                .iter()
                .try_for_each(super::matcher::check_matchers)
                .map_err(|why| format!("{id}: {}.{arg}: {why}", call.tool))?;
        }
    }
    let irrelevant = case.category == CaseCategory::Irrelevance;
    if irrelevant != case.expect.is_empty() {
        return Err(format!(
            "{id}: irrelevance cases and only they expect no call"
        ));
    }
    let scripted = matches!(
        case.category,
        CaseCategory::ErrorRecovery | CaseCategory::Atomicity
    );
    match &case.fail_first {
        Some(failure) if !scripted => {
            return Err(format!(
                "{id}: fail_first ({}) is only for error_recovery and atomicity",
                failure.tool
            ));
        }
        Some(failure) if !known(&failure.tool) => {
            return Err(format!(
                "{id}: fail_first tool {} is not offered",
                failure.tool
            ));
        }
        None if scripted => return Err(format!("{id}: needs fail_first")),
        _ => {}
    }
    // A reply to a request no tool does has a claim it must not make (a stand-in's
    // "done", an invented reading): without one, the case cannot judge the reply.
    if irrelevant && case.reply_avoids.is_empty() {
        return Err(format!(
            "{id}: an irrelevance case names what its reply must not claim (reply_avoids)"
        ));
    }
    let facts = case
        .reply_states
        .iter()
        .flat_map(|fact| match fact {
            Fact::One(text) => std::slice::from_ref(text),
            Fact::Any(texts) => texts.as_slice(),
        })
        .chain(&case.reply_avoids);
    for text in facts {
        if !can_fail(text) {
            return Err(format!(
                "{id}: the reply fact {text:?} cannot fail: one common word or one Chinese \
                 character is in almost every reply (write a number, a name, two words or \
                 a Chinese word)"
            ));
        }
    }
    Ok(())
}

/// English words so common in replies that a fact of one of them alone says nothing
/// ("even" is in "not even", "yes" in any answer). The suite's own rule for facts, not
/// the product's.
const COMMON_WORDS: &[&str] = &[
    "yes", "no", "not", "even", "odd", "done", "ok", "okay", "sure", "true", "false", "the", "and",
    "or", "is", "it", "on", "off", "to", "a", "an", "of", "in",
];

/// Whether a text a reply must (or must not) contain can tell replies apart: it holds a
/// digit, two or more Chinese characters, two or more words, or one word of four or
/// more letters that is not among the commonest.
fn can_fail(text: &str) -> bool {
    let written = text.trim();
    let text = written.to_lowercase();
    if text.chars().any(|c| c.is_ascii_digit()) {
        return true;
    }
    let han = text
        .chars()
        .filter(|&c| deskmate_service::language::is_han(c))
        .count();
    if han > 0 {
        return han >= 2;
    }
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    // An acronym written in capitals ("JST", "PDF") is a name, however short.
    let acronym = written.len() >= 2 && written.chars().all(|c| c.is_ascii_uppercase());
    match words.as_slice() {
        [] => false,
        [word] => (acronym || word.chars().count() >= 4) && !COMMON_WORDS.contains(word),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_may_offer_every_tool() {
        let line = r#"{"id": "a", "category": "simple", "lang": "en", "messages": [{"role": "user", "content": "6*7?"}], "tools": "all", "expect": [{"tool": "calculator"}]}"#;
        let suite = parse_suite("s", line).unwrap_or_else(|e| panic!("{e}"));
        assert!(suite.cases[0].offers_all());
        assert!(suite.cases[0].offered().is_empty());
        let bad = line.replace("\"all\"", "\"some\"");
        assert!(parse_suite("s", &bad).is_err());
        let none = line.replace("\"all\"", "[]");
        assert!(parse_suite("s", &none).is_err());
    }

    #[test]
    fn the_bundled_suite_is_valid_and_covers_every_category_in_both_languages() {
        let suite = bundled().unwrap_or_else(|e| panic!("{e}"));
        for split in Split::ALL {
            let cases: Vec<&Case> = suite.cases.iter().filter(|c| c.split == split).collect();
            assert!(
                cases.len() >= 120,
                "{} {} cases",
                cases.len(),
                split.as_str()
            );
            for category in CaseCategory::ALL {
                for lang in ["en", "zh"] {
                    assert!(
                        cases
                            .iter()
                            .any(|c| c.category == category && c.lang == lang),
                        "no {lang} {} case for {}",
                        split.as_str(),
                        category.as_str()
                    );
                }
            }
        }
        // Each file holds its own split only, so a case cannot slip from one to the other.
        for (text, split) in [(DEV_SUITE, Split::Dev), (HELDOUT_SUITE, Split::Heldout)] {
            let part = parse_suite("part", text).unwrap_or_else(|e| panic!("{e}"));
            assert!(part.cases.iter().all(|c| c.split == split));
        }
    }

    #[test]
    fn the_heldout_cases_have_their_wordings_and_facts() {
        let suite = parse_suite("heldout", HELDOUT_SUITE).unwrap_or_else(|e| panic!("{e}"));
        let bases = suite
            .cases
            .iter()
            .filter(|c| c.wording_of.is_none())
            .count();
        assert!(
            bases >= 120,
            "{bases} held-out cases besides their wordings"
        );
        let mut wordings: BTreeMap<&str, usize> = BTreeMap::new();
        for case in suite.cases.iter().filter(|c| c.wording_of.is_some()) {
            *wordings.entry(case.wording_group()).or_default() += 1;
        }
        let with_two = wordings.values().filter(|&&n| n >= 2).count();
        assert!(with_two >= 60, "{with_two} cases have two more wordings");
        let with_facts = suite
            .cases
            .iter()
            .filter(|c| !c.reply_states.is_empty() || !c.reply_avoids.is_empty())
            .count();
        assert!(with_facts >= 60, "{with_facts} cases name reply facts");
    }

    #[test]
    fn a_fact_that_cannot_fail_is_refused() {
        for weak in ["是", "yes", "even", " Even ", "on", "ok", "OK", "Rio"] {
            assert!(!can_fail(weak), "{weak}");
        }
        for fine in ["84", "偶数", "is even", "Tokyo", "50%", "静音", "JST"] {
            assert!(can_fail(fine), "{fine}");
        }
    }

    #[test]
    fn bad_lines_say_where_and_why() {
        let good = r#"{"id": "a", "category": "simple", "lang": "en", "messages": [{"role": "user", "content": "hi"}], "tools": ["calculator"], "expect": [{"tool": "calculator", "args": {"expression": ["1+1"]}}]}"#;
        let cases = [
            (
                good.replace(r#""lang": "en""#, r#""lang": "fr""#),
                "lang must be en or zh",
            ),
            (
                good.replace(r#""tool": "calculator", "args""#, r#""tool": "weather", "args""#),
                "expected tool weather is not offered",
            ),
            (
                good.replace(r#""category": "simple""#, r#""category": "irrelevance""#),
                "irrelevance cases and only they",
            ),
            (
                good.replace(r#"["1+1"]"#, "[]"),
                "has no acceptable value",
            ),
            (
                good.replace(r#""expect""#, r#""expected""#),
                "unknown field",
            ),
            (
                good.replace(r#""role": "user""#, r#""role": "system""#),
                "exactly one user message",
            ),
            (
                good.replace(
                    r#""expect""#,
                    r#""fail_first": {"tool": "calculator", "error_type": "transient", "message": "busy"}, "expect""#,
                ),
                "only for error_recovery and atomicity",
            ),
            (
                good.replace(r#""expect""#, r#""reply_states": [["84", "是"]], "expect""#),
                "cannot fail",
            ),
            (
                good.replace(r#""expect""#, r#""reply_avoids": ["yes"], "expect""#),
                "cannot fail",
            ),
            (
                good.replace(r#""category": "simple""#, r#""category": "irrelevance""#)
                    .replace(r#"[{"tool": "calculator", "args": {"expression": ["1+1"]}}]"#, "[]"),
                "reply_avoids",
            ),
            (
                good.replace(r#""expect""#, r#""wording_of": "b", "expect""#),
                "not an earlier case",
            ),
        ];
        for (line, why) in cases {
            let text = format!("# a comment\n\n{line}\n");
            let error = parse_suite("t", &text)
                .err()
                .unwrap_or_else(|| panic!("accepted {line}"));
            assert_eq!(error.line, 3, "{error}");
            assert!(error.message.contains(why), "{error} vs {why}");
        }
        let twice = format!("{good}\n{good}");
        let error = parse_suite("t", &twice).err().unwrap_or_else(|| panic!());
        assert_eq!((error.line, error.message.as_str()), (2, "duplicate id a"));
        assert!(parse_suite("t", "\n# nothing\n").is_err());
    }
}
