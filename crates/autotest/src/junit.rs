//! A run as JUnit XML, the report format CI systems read: one `<testsuite>` per group of
//! checks (LLM, ASR, tools, devices), one `<testcase>` per check, `<failure>` and
//! `<skipped>` with the check's message, the message of a passed check as `<system-out>`.

use std::fmt::Write;

use crate::{AutotestResult, Status, TestCase};

/// The run as a JUnit XML document.
pub fn junit(result: &AutotestResult) -> String {
    let mut suites: Vec<(&str, Vec<&TestCase>)> = Vec::new();
    for case in &result.tests {
        let suite = suite_of(&case.name);
        match suites.iter_mut().find(|(name, _)| *name == suite) {
            Some((_, cases)) => cases.push(case),
            None => suites.push((suite, vec![case])),
        }
    }
    let timestamp = utc_timestamp(result.started_at);
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        xml,
        "<testsuites name=\"Deskmate autotest {}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\" time=\"{}\">",
        escape(&result.id),
        result.summary.total,
        result.summary.failed,
        result.summary.skipped,
        seconds(result.duration_ms)
    );
    for (suite, cases) in &suites {
        let count = |status| cases.iter().filter(|c| c.status == status).count();
        let _ = writeln!(
            xml,
            "  <testsuite name=\"{suite}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{}\" timestamp=\"{timestamp}\">",
            cases.len(),
            count(Status::Failed),
            count(Status::Skipped),
            seconds(cases.iter().map(|c| c.duration_ms).max().unwrap_or(0)),
        );
        for case in cases {
            let name = case
                .name
                .split_once(": ")
                .map_or(case.name.as_str(), |(_, n)| n);
            let _ = write!(
                xml,
                "    <testcase classname=\"deskmate.{suite}\" name=\"{}\" time=\"{}\">",
                escape(name),
                seconds(case.duration_ms)
            );
            let message = escape(&case.message);
            match case.status {
                Status::Passed => {
                    let _ = write!(xml, "<system-out>{message}</system-out>");
                }
                Status::Failed => {
                    let _ = write!(xml, "<failure message=\"{message}\">{message}</failure>");
                }
                Status::Skipped => {
                    let _ = write!(xml, "<skipped message=\"{message}\"/>");
                }
            }
            xml.push_str("</testcase>\n");
        }
        xml.push_str("  </testsuite>\n");
    }
    xml.push_str("</testsuites>\n");
    xml
}

/// The group a check belongs to, from its name (`Tool: calculator` → `tools`).
fn suite_of(name: &str) -> &'static str {
    if name.starts_with("Tool: ") {
        "tools"
    } else if name.starts_with("Device: ") {
        "devices"
    } else if crate::asr::CHECKS[1..].contains(&name) {
        "asr"
    } else {
        // Model Existence appears in both model groups; a run lists the LLM's first.
        "models"
    }
}

fn seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

/// ISO 8601 in UTC (what JUnit's `timestamp` holds) from Unix seconds.
fn utc_timestamp(unix: f64) -> String {
    let secs = unix.max(0.0) as i64;
    let days = secs.div_euclid(86_400);
    let rest = secs.rem_euclid(86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// Text as XML character data or an attribute value; characters XML 1.0 cannot hold
/// (control characters other than tab and line breaks) are dropped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' | '\r' => out.push(c),
            c if c < ' ' || matches!(c, '\u{FFFE}' | '\u{FFFF}') => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Summary;

    fn case(name: &str, status: Status, message: &str) -> TestCase {
        TestCase {
            name: name.into(),
            passed: status == Status::Passed,
            status,
            message: message.into(),
            duration_ms: 1234,
            zh: None,
        }
    }

    #[test]
    fn a_run_becomes_junit_with_failures_skips_and_escaped_messages() {
        let result = AutotestResult {
            id: "ab12".into(),
            started_at: 1_796_083_200.0, // 2026-12-01T00:00:00Z
            duration_ms: 2500,
            scope: crate::Scope::default(),
            tests: vec![
                case("Model Existence", Status::Passed, "Found model: Local"),
                case(
                    "Hotwords Config",
                    Status::Passed,
                    "Hotwords: none configured",
                ),
                case("Tool: calculator", Status::Passed, "ran calculator → 14"),
                case(
                    "Tool: weather",
                    Status::Failed,
                    "cannot connect to <http://x> & \"y\"\u{1}",
                ),
                case("Tool: describe_dataset", Status::Skipped, "no dataset"),
                case("Device: Camera", Status::Failed, "no camera"),
            ],
            summary: Summary {
                passed: 3,
                failed: 2,
                skipped: 1,
                total: 6,
            },
        };
        let xml = junit(&result);
        assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"Deskmate autotest ab12\" tests=\"6\" failures=\"2\" skipped=\"1\" time=\"2.500\">"), "{xml}");
        assert!(xml.contains("<testsuite name=\"tools\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\" time=\"1.234\" timestamp=\"2026-12-01T00:00:00\">"), "{xml}");
        assert!(xml.contains("<testsuite name=\"asr\" tests=\"1\""), "{xml}");
        assert!(xml.contains("<testcase classname=\"deskmate.tools\" name=\"weather\" time=\"1.234\"><failure message=\"cannot connect to &lt;http://x&gt; &amp; &quot;y&quot;\">"), "{xml}");
        assert!(xml.contains("<skipped message=\"no dataset\"/>"), "{xml}");
        assert!(!xml.contains('\u{1}'));
        assert_eq!(xml.matches("<testcase ").count(), 6);
        assert_eq!(xml.matches("</testsuite>").count(), 4);
    }
}
