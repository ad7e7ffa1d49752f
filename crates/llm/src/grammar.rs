//! A JSON Schema, in the subset tool parameters use, as a GBNF grammar for llama.cpp's
//! `grammar` request field.
//!
//! llama.cpp converts a `response_format` JSON Schema itself, but its grammar lets the
//! model put whitespace and newlines (up to 20 spaces of indentation) between every token
//! of the JSON, and a small model sometimes pretty-prints: the same call then costs two to
//! three times the generated tokens, each one a decoding step. The grammar built here
//! admits only compact JSON (no whitespace outside strings), with an object's required
//! properties first and its optional ones after, each in declared order.
//!
//! Only what decoding needs is expressed: types, `enum`/`const`, properties, `required`,
//! `anyOf`/`oneOf`, array items and small length bounds. Numeric ranges, patterns and
//! formats are left to the guard, which validates every call after decoding. A schema
//! with a keyword this module cannot express (extensions `x-…` are annotations and are
//! ignored) (`$ref`, `allOf`, `not`, …) gives `None`, and
//! the caller falls back to `response_format`.

use std::collections::HashSet;

use serde_json::{Map, Value};

/// Keywords that only narrow values the guard checks anyway, or only describe them.
const IGNORED: [&str; 18] = [
    "description",
    "title",
    "default",
    "examples",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "pattern",
    "format",
    "uniqueItems",
    "additionalProperties",
    "minProperties",
    "maxProperties",
    "$schema",
    "$id",
    "$comment",
];

/// Longest length bound written into the grammar; a larger one adds nothing a model needs
/// and makes the grammar large.
const MAX_BOUND: u64 = 64;

/// The shared rules: JSON scalars and free values, all without whitespace.
const PRIMITIVES: &str = r#"char ::= [^"\\\x7F\x00-\x1F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4})
string ::= "\"" char* "\""
integral ::= "0" | [1-9] [0-9]{0,15}
integer ::= "-"? integral
number ::= "-"? integral ("." [0-9]{1,16})? ([eE] [-+]? integral)?
boolean ::= "true" | "false"
null ::= "null"
value ::= object | array | string | number | boolean | null
object ::= "{" (string ":" value ("," string ":" value)*)? "}"
array ::= "[" (value ("," value)*)? "]""#;

/// Builds a grammar rule by rule.
#[derive(Debug, Default)]
pub struct Grammar {
    rules: Vec<(String, String)>,
    taken: HashSet<String>,
}

impl Grammar {
    /// An empty grammar (the primitives are added by [`Grammar::finish`]).
    pub fn new() -> Self {
        let taken = [
            "root", "char", "string", "integral", "integer", "number", "boolean", "null", "value",
            "object", "array",
        ]
        .into_iter()
        .map(String::from)
        .collect();
        Self {
            rules: Vec::new(),
            taken,
        }
    }

    /// Adds a rule named after `hint` (made unique) and returns its name.
    pub fn rule(&mut self, hint: &str, body: String) -> String {
        let base: String = hint
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let base = if base.is_empty() { "r".into() } else { base };
        let mut name = base.clone();
        let mut n = 1;
        while self.taken.contains(&name) {
            n += 1;
            name = format!("{base}-{n}");
        }
        self.taken.insert(name.clone());
        self.rules.push((name.clone(), body));
        name
    }

    /// The rule expression for values of `schema`, or `None` when the schema uses a
    /// keyword this grammar cannot express.
    pub fn schema(&mut self, hint: &str, schema: &Value) -> Option<String> {
        let map = match schema {
            Value::Bool(true) => return Some("value".into()),
            Value::Object(map) => map,
            _ => return None,
        };
        if map.keys().any(|k| {
            !k.starts_with("x-") && !IGNORED.contains(&k.as_str()) && !KNOWN.contains(&k.as_str())
        }) {
            return None;
        }
        if let Some(value) = map.get("const") {
            return Some(literal(&value.to_string()));
        }
        if let Some(options) = map.get("enum") {
            let options = options.as_array().filter(|o| !o.is_empty())?;
            return Some(alternatives(
                options.iter().map(|o| literal(&o.to_string())).collect(),
            ));
        }
        if let Some(either) = self.either(hint, map) {
            return either;
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(branches) = map.get(key) {
                let branches = branches.as_array().filter(|b| !b.is_empty())?;
                let mut out = Vec::new();
                for (i, branch) in branches.iter().enumerate() {
                    out.push(self.schema(&format!("{hint}-{i}"), branch)?);
                }
                return Some(alternatives(out));
            }
        }
        match map.get("type") {
            None => Some("value".into()),
            Some(Value::String(kind)) => self.typed(hint, kind, map),
            Some(Value::Array(kinds)) => {
                let mut out = Vec::new();
                for kind in kinds {
                    out.push(self.typed(hint, kind.as_str()?, map)?);
                }
                Some(alternatives(out))
            }
            Some(_) => None,
        }
    }

    /// An object whose `oneOf`/`anyOf` branches only say which of its properties are
    /// required ("give `value`, or `numerator` and `denominator`"): one object rule per
    /// branch, that branch's properties required. Under `oneOf` a branch also leaves out
    /// the properties only the other branches require, so the two ways cannot be mixed.
    /// `None` when the schema is not of that shape.
    fn either(&mut self, hint: &str, map: &Map<String, Value>) -> Option<Option<String>> {
        let props = map.get("properties")?.as_object()?;
        let (key, branches) = ["oneOf", "anyOf"]
            .into_iter()
            .find_map(|k| map.get(k).and_then(Value::as_array).map(|b| (k, b)))?;
        let names = |branch: &Value| -> Option<Vec<String>> {
            let branch = branch.as_object()?;
            if branch
                .keys()
                .any(|k| k != "required" && !IGNORED.contains(&k.as_str()))
            {
                return None;
            }
            branch
                .get("required")?
                .as_array()?
                .iter()
                .map(|n| n.as_str().map(String::from))
                .collect()
        };
        let sets: Vec<Vec<String>> = branches.iter().map(names).collect::<Option<_>>()?;
        if sets.is_empty() {
            return None;
        }
        let base: Vec<String> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| {
                r.iter()
                    .filter_map(Value::as_str)
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default();
        let mut out = Vec::new();
        for (i, set) in sets.iter().enumerate() {
            let mut object = map.clone();
            object.remove("oneOf");
            object.remove("anyOf");
            let mut required = base.clone();
            required.extend(set.iter().filter(|n| !base.contains(n)).cloned());
            let keep = |name: &String| {
                key == "anyOf"
                    || required.contains(name)
                    || !sets
                        .iter()
                        .enumerate()
                        .any(|(j, other)| j != i && other.contains(name))
            };
            let kept: Map<String, Value> = props
                .iter()
                .filter(|(name, _)| keep(name))
                .map(|(name, schema)| (name.clone(), schema.clone()))
                .collect();
            object.insert("properties".into(), Value::Object(kept));
            object.insert("required".into(), Value::from(required));
            match self.typed(&format!("{hint}-{i}"), "object", &object) {
                Some(rule) => out.push(rule),
                None => return Some(None),
            }
        }
        Some(Some(alternatives(out)))
    }

    fn typed(&mut self, hint: &str, kind: &str, map: &Map<String, Value>) -> Option<String> {
        Some(match kind {
            "string" => match bounds(map, "minLength", "maxLength") {
                Some(repeat) => format!("\"\\\"\" char{repeat} \"\\\"\""),
                None => "string".into(),
            },
            "integer" => "integer".into(),
            "number" => "number".into(),
            "boolean" => "boolean".into(),
            "null" => "null".into(),
            "array" => {
                let item = match map.get("items") {
                    Some(items) => self.schema(&format!("{hint}-item"), items)?,
                    None => "value".into(),
                };
                let item = if item.contains(' ') {
                    self.rule(&format!("{hint}-item"), item)
                } else {
                    item
                };
                let min = map.get("minItems").and_then(Value::as_u64).unwrap_or(0);
                let max = map
                    .get("maxItems")
                    .and_then(Value::as_u64)
                    .filter(|m| *m <= MAX_BOUND);
                let body = match (min, max) {
                    (_, Some(0)) => "\"[]\"".to_string(),
                    (0, None) => format!("\"[\" ({item} (\",\" {item})*)? \"]\""),
                    (0, Some(max)) => {
                        format!("\"[\" ({item} (\",\" {item}){{0,{}}})? \"]\"", max - 1)
                    }
                    (min, None) => format!("\"[\" {item} (\",\" {item}){{{},}} \"]\"", min - 1),
                    (min, Some(max)) => format!(
                        "\"[\" {item} (\",\" {item}){{{},{}}} \"]\"",
                        min - 1,
                        max.max(min) - 1
                    ),
                };
                self.rule(hint, body)
            }
            "object" => self.object(hint, map)?,
            _ => return None,
        })
    }

    /// An object with declared properties: the required ones first, then the optional
    /// ones, each in declared order and each optional one allowed to be absent. Without
    /// declared properties, any object.
    fn object(&mut self, hint: &str, map: &Map<String, Value>) -> Option<String> {
        let Some(props) = map.get("properties").and_then(Value::as_object) else {
            let closed = map.get("additionalProperties") == Some(&Value::Bool(false));
            return Some(if closed {
                "\"{}\"".into()
            } else {
                "object".into()
            });
        };
        if props.is_empty() {
            return Some("\"{}\"".into());
        }
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut first = Vec::new();
        let mut optional = Vec::new();
        for (name, schema) in props {
            let value = self.schema(&format!("{hint}-{name}"), schema)?;
            let pair = self.rule(
                &format!("{hint}-{name}-kv"),
                format!(
                    "{} {value}",
                    literal(&format!("{}:", Value::from(name.as_str())))
                ),
            );
            if required.contains(&name.as_str()) {
                first.push(pair);
            } else {
                optional.push(pair);
            }
        }
        let tail = |from: usize| -> String {
            optional[from..]
                .iter()
                .map(|p| format!("(\",\" {p})?"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let body = if first.is_empty() {
            let starts: Vec<String> = (0..optional.len())
                .map(|i| {
                    format!("{} {}", optional[i], tail(i + 1))
                        .trim()
                        .to_string()
                })
                .collect();
            format!("\"{{\" ({})? \"}}\"", starts.join(" | "))
        } else {
            let head = first.join(" \",\" ");
            format!("\"{{\" {head} {} \"}}\"", tail(0))
        };
        Some(self.rule(hint, body))
    }

    /// The grammar text with `root` as its start rule.
    pub fn finish(self, root: &str) -> String {
        let mut out = format!("root ::= {root}\n");
        for (name, body) in &self.rules {
            out.push_str(&format!("{name} ::= {body}\n"));
        }
        out.push_str(PRIMITIVES);
        out.push('\n');
        out
    }
}

/// Keywords the grammar expresses.
const KNOWN: [&str; 12] = [
    "type",
    "enum",
    "const",
    "anyOf",
    "oneOf",
    "properties",
    "required",
    "items",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
];

/// `{m,n}` for a string's length bounds, when any is set and small.
fn bounds(map: &Map<String, Value>, min: &str, max: &str) -> Option<String> {
    let lo = map
        .get(min)
        .and_then(Value::as_u64)
        .filter(|n| *n <= MAX_BOUND);
    let hi = map
        .get(max)
        .and_then(Value::as_u64)
        .filter(|n| *n <= MAX_BOUND);
    match (lo, hi) {
        (None, None) => None,
        (lo, None) => Some(format!("{{{},}}", lo.unwrap_or(0))),
        (lo, Some(hi)) => Some(format!("{{{},{}}}", lo.unwrap_or(0).min(hi), hi)),
    }
}

/// `text` as a GBNF string literal.
pub fn literal(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `(a | b | c)`, or `a` alone.
pub fn alternatives(options: Vec<String>) -> String {
    if options.len() == 1 {
        return options.into_iter().next().unwrap_or_default();
    }
    format!("({})", options.join(" | "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn grammar_of(schema: Value) -> Option<String> {
        let mut g = Grammar::new();
        let root = g.schema("args", &schema)?;
        Some(g.finish(&root))
    }

    #[test]
    fn required_properties_come_first_and_optional_ones_may_be_left_out() {
        let g = grammar_of(json!({
            "type": "object",
            "properties": {
                "step": {"type": "integer", "minimum": 1},
                "dataset": {"enum": ["adsl", "a\"b"]},
                "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3},
            },
            "required": ["dataset"],
        }))
        .unwrap_or_default();
        assert!(g.starts_with("root ::= args\n"), "{g}");
        assert!(
            g.contains(
                r#"args ::= "{" args-dataset-kv ("," args-step-kv)? ("," args-tags-kv)? "}""#
            ),
            "{g}"
        );
        assert!(
            g.contains(r#"args-dataset-kv ::= "\"dataset\":" ("\"adsl\"" | "\"a\\\"b\"")"#),
            "{g}"
        );
        assert!(
            g.contains(r#"args-tags ::= "[" string ("," string){0,2} "]""#),
            "{g}"
        );
        assert!(
            g.contains("args-step-kv ::= \"\\\"step\\\":\" integer"),
            "{g}"
        );
    }

    #[test]
    fn objects_with_only_optional_properties_never_start_with_a_comma() {
        let g = grammar_of(json!({
            "type": "object",
            "properties": {"a": {"type": "boolean"}, "b": {"type": "null"}},
        }))
        .unwrap_or_default();
        assert!(
            g.contains(r#"args ::= "{" (args-a-kv ("," args-b-kv)? | args-b-kv)? "}""#),
            "{g}"
        );
    }

    #[test]
    fn small_string_bounds_are_kept_and_free_objects_take_any_json() {
        let g = grammar_of(json!({
            "type": "object",
            "properties": {
                "code": {"type": "string", "minLength": 1, "maxLength": 4},
                "details": {"type": "object", "x-note": "annotation"},
                "either": {"type": ["string", "integer"]},
            },
            "required": ["code", "details", "either"],
        }))
        .unwrap_or_default();
        assert!(g.contains(r#""\"code\":" "\"" char{1,4} "\"""#), "{g}");
        assert!(g.contains(r#""\"details\":" object"#), "{g}");
        assert!(g.contains(r#""\"either\":" (string | integer)"#), "{g}");
    }

    #[test]
    fn either_or_properties_become_one_object_per_way_that_cannot_be_mixed() {
        let g = grammar_of(json!({
            "type": "object",
            "properties": {"value": {"type": "number"}, "numerator": {"type": "number"},
                           "denominator": {"type": "number"}, "decimals": {"type": "integer"}},
            "oneOf": [{"required": ["value"]}, {"required": ["numerator", "denominator"]}]
        }))
        .unwrap_or_default();
        let rule = |name: &str| {
            g.lines()
                .find_map(|l| l.strip_prefix(&format!("{name} ::= ")))
                .unwrap_or_default()
                .to_string()
        };
        assert!(g.starts_with("root ::= (args-0 | args-1)\n"), "{g}");
        let by_value = rule("args-0");
        assert!(by_value.contains("args-0-value-kv") && by_value.contains("args-0-decimals-kv"));
        assert!(!by_value.contains("numerator"), "{by_value}");
        let by_rate = rule("args-1");
        assert!(
            by_rate.starts_with(r#""{" args-1-numerator-kv "," args-1-denominator-kv"#),
            "{by_rate}"
        );
        assert!(!by_rate.contains("value"), "{by_rate}");
        // A branch with more than `required` is a real schema alternative, not this shape.
        let other = grammar_of(
            json!({"type": "object", "properties": {"a": {"type": "string"}},
            "oneOf": [{"required": ["a"], "properties": {"a": {"const": "x"}}}]}),
        );
        assert!(other.is_some());
    }

    #[test]
    fn keywords_it_cannot_express_give_none() {
        assert!(grammar_of(json!({"$ref": "#/defs/x"})).is_none());
        assert!(grammar_of(json!({"allOf": [{"type": "string"}]})).is_none());
        assert!(grammar_of(json!({"enum": []})).is_none());
        assert!(grammar_of(json!("not a schema")).is_none());
    }

    #[test]
    fn literals_escape_what_gbnf_reads_specially() {
        assert_eq!(literal("a\"b\\c\nd"), r#""a\"b\\c\nd""#);
        assert_eq!(literal("中文"), "\"中文\"");
    }
}
