//! The AST checker: does a set of calls match the expected ones? BFCL's rules — a call
//! matches when the tool is the same, every argument it gives is expected and has one of
//! the acceptable values, and every argument that may not be omitted is given; strings
//! compare lower-cased without spaces and `,./-_*^`; numbers compare numerically; a
//! set of calls matches in any order. An acceptable value may be a matcher instead of a
//! value, for text a case cannot list every wording of: `{"$contains": "lunch is
//! ready"}` (a string holding that text, compared the same way) or `{"$any": true}` (any
//! value given); how one value matches is [`super::matcher`].

use serde_json::{Map, Value};

use super::suite::ExpectedCall;

pub use super::matcher::{Matcher, check_matchers, normalize_string, values_match};

/// Why calls did not match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch(pub String);

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Whether one call matches one expected call.
pub fn call_matches(
    expected: &ExpectedCall,
    tool: &str,
    arguments: &Map<String, Value>,
) -> Result<(), Mismatch> {
    if expected.tool != tool {
        return Err(Mismatch(format!(
            "called {tool}, expected {}",
            expected.tool
        )));
    }
    for (name, value) in arguments {
        let Some(acceptable) = expected.args.get(name) else {
            return Err(Mismatch(format!("{tool}: unexpected argument {name}")));
        };
        if !acceptable
            .iter()
            .any(|a| !a.is_null() && values_match(a, value))
        {
            return Err(Mismatch(format!(
                "{tool}: {name} = {value}, expected one of {}",
                Value::Array(acceptable.clone())
            )));
        }
    }
    for (name, acceptable) in &expected.args {
        if !arguments.contains_key(name) && !acceptable.iter().any(Value::is_null) {
            return Err(Mismatch(format!("{tool}: missing argument {name}")));
        }
    }
    Ok(())
}

/// Whether the calls made match the expected ones, in any order, one to one.
pub fn calls_match(
    expected: &[ExpectedCall],
    made: &[(String, Map<String, Value>)],
) -> Result<(), Mismatch> {
    let mut names: Vec<&str> = made.iter().map(|(t, _)| t.as_str()).collect();
    if expected.len() != made.len() {
        return Err(Mismatch(format!(
            "{} call(s) made {names:?}, {} expected",
            made.len(),
            expected.len()
        )));
    }
    // Other tools than expected: say so, rather than one arbitrary pairing's complaint.
    let mut wanted: Vec<&str> = expected.iter().map(|c| c.tool.as_str()).collect();
    names.sort_unstable();
    wanted.sort_unstable();
    if names != wanted {
        return Err(Mismatch(format!("called {names:?}, expected {wanted:?}")));
    }
    // Few calls per case: try every assignment, keeping the first reason it failed.
    let mut used = vec![false; expected.len()];
    let mut first_reason = None;
    if assign(expected, made, 0, &mut used, &mut first_reason) {
        Ok(())
    } else {
        Err(first_reason.unwrap_or_else(|| Mismatch("no matching assignment".into())))
    }
}

fn assign(
    expected: &[ExpectedCall],
    made: &[(String, Map<String, Value>)],
    at: usize,
    used: &mut [bool],
    reason: &mut Option<Mismatch>,
) -> bool {
    let Some((tool, arguments)) = made.get(at) else {
        return true;
    };
    for (i, candidate) in expected.iter().enumerate() {
        if used[i] {
            continue;
        }
        match call_matches(candidate, tool, arguments) {
            Ok(()) => {
                used[i] = true;
                if assign(expected, made, at + 1, used, reason) {
                    return true;
                }
                used[i] = false;
            }
            Err(why) => {
                // The most telling reason: a mismatch on the same tool.
                if reason.is_none() || candidate.tool == *tool {
                    *reason = Some(why);
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn expected(tool: &str, args: Value) -> ExpectedCall {
        serde_json::from_value(json!({"tool": tool, "args": args}))
            .unwrap_or_else(|e| panic!("{e}"))
    }

    fn made(tool: &str, args: Value) -> (String, Map<String, Value>) {
        (
            tool.to_string(),
            args.as_object().cloned().unwrap_or_default(),
        )
    }

    #[test]
    fn strings_compare_as_bfcl_does() {
        for (a, b, same) in [
            ("Asia/Shanghai", "asia shanghai", true),
            ("17% of 2,340", "17%of2340", true),
            ("New-York", "new_york", true),
            ("Tokyo", "Kyoto", false),
            ("2*3", "2 * 3", true),
            ("a+b", "ab", false),
        ] {
            assert_eq!(values_match(&json!(a), &json!(b)), same, "{a} vs {b}");
        }
        assert!(values_match(&json!(10), &json!(10.0)));
        assert!(!values_match(&json!(10), &json!("10")), "types differ");
        assert!(!values_match(&json!(true), &json!("true")));
        assert!(values_match(&json!(["AGE", "SEX"]), &json!(["age", "sex"])));
        assert!(!values_match(
            &json!(["AGE", "SEX"]),
            &json!(["SEX", "AGE"])
        ));
        assert!(!values_match(&json!(["AGE"]), &json!(["AGE", "SEX"])));
    }

    #[test]
    fn one_call_needs_its_tool_its_values_and_no_extras() {
        let volume = expected("increase_volume", json!({"step": [20, "20"]}));
        assert_eq!(
            call_matches(&volume, "increase_volume", &made("", json!({"step": 20})).1),
            Ok(())
        );
        let cases = [
            (
                "decrease_volume",
                json!({"step": 20}),
                "called decrease_volume",
            ),
            ("increase_volume", json!({"step": 25}), "step = 25"),
            ("increase_volume", json!({}), "missing argument step"),
            (
                "increase_volume",
                json!({"step": 20, "device": "x"}),
                "unexpected argument device",
            ),
        ];
        for (tool, args, why) in cases {
            let error = call_matches(&volume, tool, &made("", args.clone()).1)
                .err()
                .unwrap_or_else(|| panic!("{tool} {args} matched"));
            assert!(error.0.contains(why), "{error} vs {why}");
        }
        // null: may be omitted, but a given value must still be acceptable.
        let optional = expected("increase_volume", json!({"step": [null, 10]}));
        assert_eq!(
            call_matches(&optional, "increase_volume", &Map::new()),
            Ok(())
        );
        assert!(
            call_matches(
                &optional,
                "increase_volume",
                &made("", json!({"step": 30})).1
            )
            .is_err()
        );
    }

    #[test]
    fn call_sets_match_in_any_order_one_to_one() {
        let tokyo = expected("current_time", json!({"timezone": ["Asia/Tokyo"]}));
        let london = expected("current_time", json!({"timezone": ["Europe/London"]}));
        let both = [tokyo.clone(), london.clone()];
        let made_both = [
            made("current_time", json!({"timezone": "Europe/London"})),
            made("current_time", json!({"timezone": "Asia/Tokyo"})),
        ];
        assert_eq!(calls_match(&both, &made_both), Ok(()));
        // The same call twice does not cover two different ones.
        let twice = [
            made("current_time", json!({"timezone": "Asia/Tokyo"})),
            made("current_time", json!({"timezone": "Asia/Tokyo"})),
        ];
        assert!(calls_match(&both, &twice).is_err());
        // Too few, too many, none.
        assert!(calls_match(&both, &made_both[..1]).is_err());
        let mut three = made_both.to_vec();
        three.push(made("calculator", json!({"expression": "1+1"})));
        let error = calls_match(&both, &three).err().unwrap_or_else(|| panic!());
        assert!(error.0.contains("3 call(s) made"), "{error}");
        assert_eq!(calls_match(&[], &[]), Ok(()));
        assert!(calls_match(&[], &made_both[..1]).is_err());
        // Other tools: the names are the reason.
        let error = calls_match(
            &both,
            &[
                made("current_time", json!({"timezone": "Asia/Tokyo"})),
                made("calculator", json!({"expression": "1"})),
            ],
        )
        .err()
        .unwrap_or_else(|| panic!());
        assert_eq!(
            error.0,
            r#"called ["calculator", "current_time"], expected ["current_time", "current_time"]"#
        );
        // An assignment that needs backtracking: the first candidate fits both calls.
        let loose = expected("calculator", json!({"expression": ["2+2", "3+3"]}));
        let strict = expected("calculator", json!({"expression": ["2+2"]}));
        assert_eq!(
            calls_match(
                &[loose, strict],
                &[
                    made("calculator", json!({"expression": "2+2"})),
                    made("calculator", json!({"expression": "3+3"}))
                ]
            ),
            Ok(())
        );
    }

    #[test]
    fn matchers_stand_for_text_a_case_cannot_list() {
        let contains = json!({"$contains": "Lunch is ready"});
        assert!(values_match(&contains, &json!("lunch is ready!")));
        assert!(values_match(
            &contains,
            &json!("Hey — lunch-is ready, come")
        ));
        assert!(!values_match(&contains, &json!("dinner is ready")));
        assert!(
            !values_match(&contains, &json!(42)),
            "only a string holds text"
        );
        assert!(values_match(&json!({"$any": true}), &json!([1, 2])));
        let options = json!([{"$contains": "tea"}, {"$contains": "coffee"}]);
        assert!(values_match(&options, &json!(["Green tea", "Coffee"])));
        assert!(!values_match(&options, &json!(["Coffee", "Green tea"])));
        for bad in [
            json!({"$contains": 3}),
            json!({"$any": false}),
            json!({"$regex": "a"}),
            json!({"$contains": " , "}),
            json!([{"$contain": "x"}]),
        ] {
            assert!(check_matchers(&bad).is_err(), "{bad}");
        }
        assert!(check_matchers(&json!({"codelist": {"SEX": ["M", "F"]}})).is_ok());
    }
}
