//! Guard step 3: the normalizer. Pure: it reads the parameter schema and the arguments
//! and returns repaired arguments plus the list of repairs. It never invents a value;
//! what it cannot repair is left for validation to reject.
//!
//! Besides standard keywords (`type`, `enum`, `properties`, `required`, `items`,
//! `uniqueItems`), a parameter may opt into these rules with extension keywords, which
//! are stripped from the schema a model sees:
//! - `"x-strip-suffixes": [".csv", ".xpt"]` — remove these suffixes (any case);
//! - `"x-percent": true` — `"70%"` means the number 70;
//! - `"x-all": "enum" | "omit" | <value>` — what "all / 全部 / everything" means: every
//!   enum value of the items, leaving the property out (its default is "all"), or a value;
//! - `"x-trim": false` — keep surrounding whitespace (code, verbatim text);
//! - `"x-split": false` — never split a string into list items.

use serde_json::{Map, Value};

use crate::result::{Repair, RepairRule};

/// Words that mean "all of them", compared after trimming and lower-casing.
const ALL_WORDS: [&str; 10] = [
    "all",
    "everything",
    "every",
    "*",
    "all of them",
    "全部",
    "所有",
    "全部的",
    "全体",
    "都",
];

/// Separators that split a string into list items: ASCII and full-width comma and
/// semicolon, the Chinese enumeration comma, and newlines.
const LIST_SEPARATORS: [char; 6] = [',', ';', '，', '；', '、', '\n'];

/// Normalizes `args` against the parameter `schema`.
pub fn normalize(schema: &Value, args: Value) -> (Value, Vec<Repair>) {
    let mut repairs = Vec::new();
    let value = match walk(schema, args, "", &mut repairs) {
        Outcome::Keep(value) => value,
        Outcome::Omit => Value::Object(Map::new()),
    };
    (value, repairs)
}

enum Outcome {
    Keep(Value),
    /// The property is to be left out (an "all" that means "use the default").
    Omit,
}

/// The JSON types a schema accepts, as far as the normalizer needs to know.
#[derive(Default, Clone, Copy)]
struct Accepts {
    string: bool,
    number: bool,
    integer: bool,
    boolean: bool,
    array: bool,
    object: bool,
    null: bool,
    /// No `type` and nothing to infer it from: accept anything, repair nothing.
    any: bool,
}

impl Accepts {
    fn of(schema: &Map<String, Value>) -> Self {
        let mut acc = Self::default();
        let mut set = |name: &str| match name {
            "string" => acc.string = true,
            "number" => acc.number = true,
            "integer" => acc.integer = true,
            "boolean" => acc.boolean = true,
            "array" => acc.array = true,
            "object" => acc.object = true,
            "null" => acc.null = true,
            _ => {}
        };
        match schema.get("type") {
            Some(Value::String(t)) => set(t),
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).for_each(&mut set),
            _ => {
                if let Some(Value::Array(options)) = schema.get("enum") {
                    for option in options {
                        match option {
                            Value::String(_) => set("string"),
                            Value::Number(_) => set("number"),
                            Value::Bool(_) => set("boolean"),
                            _ => {}
                        }
                    }
                } else if schema.contains_key("properties") {
                    set("object");
                } else if schema.contains_key("items") {
                    set("array");
                } else {
                    acc.any = true;
                }
            }
        }
        acc
    }

    fn numeric(self) -> bool {
        self.number || self.integer
    }

    fn scalar(self) -> bool {
        self.string || self.numeric() || self.boolean
    }
}

fn walk(schema: &Value, value: Value, path: &str, repairs: &mut Vec<Repair>) -> Outcome {
    let Some(schema) = schema.as_object() else {
        return Outcome::Keep(value);
    };
    let accepts = Accepts::of(schema);
    if accepts.any {
        return Outcome::Keep(value);
    }
    match value {
        Value::String(text) => string_value(schema, accepts, text, path, repairs),
        Value::Array(items) => Outcome::Keep(array_value(schema, accepts, items, path, repairs)),
        Value::Object(map) if accepts.object => {
            Outcome::Keep(object_value(schema, map, path, repairs))
        }
        scalar @ (Value::Number(_) | Value::Bool(_)) if accepts.array && !accepts.scalar() => {
            Outcome::Keep(wrap_scalar(schema, scalar, path, repairs))
        }
        other => Outcome::Keep(other),
    }
}

fn push(repairs: &mut Vec<Repair>, path: &str, from: Value, to: Value, rule: RepairRule) {
    repairs.push(Repair {
        path: path.to_string(),
        from,
        to,
        rule,
    });
}

fn is_all_word(text: &str) -> bool {
    let folded = text.trim().to_lowercase();
    ALL_WORDS.contains(&folded.as_str())
}

/// What "all" means for this parameter, if it declares it.
fn all_meaning(schema: &Map<String, Value>) -> Option<Outcome> {
    match schema.get("x-all")? {
        Value::String(s) if s == "omit" => Some(Outcome::Omit),
        Value::String(s) if s == "enum" => {
            let options = schema.get("items")?.get("enum")?.clone();
            Some(Outcome::Keep(options))
        }
        literal => Some(Outcome::Keep(literal.clone())),
    }
}

fn string_value(
    schema: &Map<String, Value>,
    accepts: Accepts,
    text: String,
    path: &str,
    repairs: &mut Vec<Repair>,
) -> Outcome {
    if is_all_word(&text)
        && let Some(meaning) = all_meaning(schema)
    {
        let to = match &meaning {
            Outcome::Keep(v) => v.clone(),
            Outcome::Omit => Value::Null,
        };
        push(
            repairs,
            path,
            Value::String(text),
            to,
            RepairRule::AllKeyword,
        );
        return meaning;
    }
    if accepts.string {
        return Outcome::Keep(Value::String(fix_string(schema, text, path, repairs)));
    }
    if (accepts.array || accepts.object)
        && let Ok(parsed) = serde_json::from_str::<Value>(text.trim())
        && ((accepts.array && parsed.is_array()) || (accepts.object && parsed.is_object()))
    {
        push(
            repairs,
            path,
            Value::String(text),
            parsed.clone(),
            RepairRule::ParseNestedJson,
        );
        return walk(&Value::Object(schema.clone()), parsed, path, repairs);
    }
    if accepts.array {
        return Outcome::Keep(string_to_list(schema, text, path, repairs));
    }
    if accepts.numeric()
        && let Some(number) = parse_number(schema, accepts, &text)
    {
        let percent = text.trim().ends_with('%');
        let rule = if percent {
            RepairRule::Percent
        } else {
            RepairRule::NumberFromString
        };
        push(repairs, path, Value::String(text), number.clone(), rule);
        return Outcome::Keep(number);
    }
    if accepts.boolean
        && let Some(flag) = parse_bool(&text)
    {
        push(
            repairs,
            path,
            Value::String(text),
            Value::Bool(flag),
            RepairRule::BoolFromString,
        );
        return Outcome::Keep(Value::Bool(flag));
    }
    Outcome::Keep(Value::String(text))
}

/// Trim, strip declared suffixes, and fold case to an enum value.
fn fix_string(
    schema: &Map<String, Value>,
    text: String,
    path: &str,
    repairs: &mut Vec<Repair>,
) -> String {
    let mut current = text;
    let trim = schema
        .get("x-trim")
        .and_then(Value::as_bool)
        .unwrap_or(true);
    if trim && current.trim().len() != current.len() {
        let trimmed = current.trim().to_string();
        push(
            repairs,
            path,
            Value::String(current),
            Value::String(trimmed.clone()),
            RepairRule::Trim,
        );
        current = trimmed;
    }
    if let Some(Value::Array(suffixes)) = schema.get("x-strip-suffixes") {
        let ends_with = |suffix: &str| {
            let cut = current.len().wrapping_sub(suffix.len());
            current.len() > suffix.len()
                && current.is_char_boundary(cut)
                && current[cut..].eq_ignore_ascii_case(suffix)
        };
        if let Some(suffix) = suffixes
            .iter()
            .filter_map(Value::as_str)
            .find(|s| ends_with(s))
        {
            let stripped = current[..current.len() - suffix.len()]
                .trim_end()
                .to_string();
            push(
                repairs,
                path,
                Value::String(current),
                Value::String(stripped.clone()),
                RepairRule::StripSuffix,
            );
            current = stripped;
        }
    }
    if let Some(Value::Array(options)) = schema.get("enum") {
        let exact = options.iter().any(|o| o.as_str() == Some(current.as_str()));
        if !exact {
            let folded = current.to_lowercase();
            let matches: Vec<&str> = options
                .iter()
                .filter_map(Value::as_str)
                .filter(|o| o.to_lowercase() == folded)
                .collect();
            // Only a unique match is a repair; two options differing by case stay ambiguous.
            if let [only] = matches.as_slice() {
                let to = (*only).to_string();
                push(
                    repairs,
                    path,
                    Value::String(current),
                    Value::String(to.clone()),
                    RepairRule::EnumCase,
                );
                current = to;
            }
        }
    }
    current
}

fn items_schema(schema: &Map<String, Value>) -> Value {
    schema.get("items").cloned().unwrap_or(Value::Bool(true))
}

fn string_to_list(
    schema: &Map<String, Value>,
    text: String,
    path: &str,
    repairs: &mut Vec<Repair>,
) -> Value {
    let items = items_schema(schema);
    let item_accepts = items.as_object().map(Accepts::of).unwrap_or(Accepts {
        any: true,
        ..Accepts::default()
    });
    // A string only becomes list items when the items are scalars it can stand for.
    if !(item_accepts.any || item_accepts.scalar()) {
        return Value::String(text);
    }
    let split = schema
        .get("x-split")
        .and_then(Value::as_bool)
        .unwrap_or(true);
    let list: Vec<Value> = if split && text.contains(LIST_SEPARATORS) {
        let parts: Vec<Value> = text
            .split(LIST_SEPARATORS)
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| Value::String(p.to_string()))
            .collect();
        push(
            repairs,
            path,
            Value::String(text),
            Value::Array(parts.clone()),
            RepairRule::SplitList,
        );
        parts
    } else {
        let list = vec![Value::String(text.clone())];
        push(
            repairs,
            path,
            Value::String(text),
            Value::Array(list.clone()),
            RepairRule::ScalarToList,
        );
        list
    };
    array_value(
        schema,
        Accepts {
            array: true,
            ..Accepts::default()
        },
        list,
        path,
        repairs,
    )
}

fn wrap_scalar(
    schema: &Map<String, Value>,
    scalar: Value,
    path: &str,
    repairs: &mut Vec<Repair>,
) -> Value {
    let list = vec![scalar.clone()];
    push(
        repairs,
        path,
        scalar,
        Value::Array(list.clone()),
        RepairRule::ScalarToList,
    );
    array_value(
        schema,
        Accepts {
            array: true,
            ..Accepts::default()
        },
        list,
        path,
        repairs,
    )
}

fn array_value(
    schema: &Map<String, Value>,
    accepts: Accepts,
    items: Vec<Value>,
    path: &str,
    repairs: &mut Vec<Repair>,
) -> Value {
    if !accepts.array {
        // A one-item list where one value is expected.
        if items.len() == 1 && accepts.scalar() && !items[0].is_array() && !items[0].is_object() {
            let from = Value::Array(items.clone());
            let item = items.into_iter().next().unwrap_or(Value::Null);
            push(repairs, path, from, item.clone(), RepairRule::ListToScalar);
            return match walk(&Value::Object(schema.clone()), item, path, repairs) {
                Outcome::Keep(v) => v,
                Outcome::Omit => Value::Null,
            };
        }
        return Value::Array(items);
    }
    let item_schema = items_schema(schema);
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let child = format!("{path}/{i}");
        match walk(&item_schema, item, &child, repairs) {
            Outcome::Keep(v) => out.push(v),
            // "all" inside a list is not a value; keep the list as sent minus nothing.
            Outcome::Omit => out.push(Value::Null),
        }
    }
    if schema.get("uniqueItems").and_then(Value::as_bool) == Some(true) {
        let mut unique: Vec<Value> = Vec::with_capacity(out.len());
        for item in &out {
            if !unique.contains(item) {
                unique.push(item.clone());
            }
        }
        if unique.len() != out.len() {
            push(
                repairs,
                path,
                Value::Array(out),
                Value::Array(unique.clone()),
                RepairRule::Dedupe,
            );
            return Value::Array(unique);
        }
    }
    Value::Array(out)
}

fn object_value(
    schema: &Map<String, Value>,
    map: Map<String, Value>,
    path: &str,
    repairs: &mut Vec<Repair>,
) -> Value {
    let empty = Map::new();
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = Map::with_capacity(map.len());
    for (key, value) in map {
        let name = if properties.contains_key(&key) {
            key
        } else {
            match unique_key_match(properties, &key) {
                Some(found) if !out.contains_key(found) => {
                    let from_path = format!("{path}/{}", escape_pointer(&key));
                    push(
                        repairs,
                        &from_path,
                        Value::String(key),
                        Value::String(found.to_string()),
                        RepairRule::KeyCase,
                    );
                    found.to_string()
                }
                _ => key,
            }
        };
        let child = format!("{path}/{}", escape_pointer(&name));
        let Some(prop_schema) = properties.get(&name) else {
            // Unknown properties are left for validation to name.
            out.insert(name, value);
            continue;
        };
        if value.is_null()
            && !required.contains(&name.as_str())
            && !Accepts::of_value(prop_schema).null
        {
            push(
                repairs,
                &child,
                Value::Null,
                Value::Null,
                RepairRule::DropNull,
            );
            continue;
        }
        match walk(prop_schema, value, &child, repairs) {
            Outcome::Keep(v) => {
                out.insert(name, v);
            }
            Outcome::Omit => {}
        }
    }
    Value::Object(out)
}

impl Accepts {
    fn of_value(schema: &Value) -> Self {
        schema.as_object().map(Self::of).unwrap_or(Self {
            any: true,
            ..Self::default()
        })
    }
}

/// A declared property equal to `key` ignoring case, surrounding spaces and `-`/`_`.
fn unique_key_match<'a>(properties: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    let fold = |s: &str| s.trim().to_lowercase().replace(['-', ' '], "_");
    let wanted = fold(key);
    let mut found = properties.keys().filter(|p| fold(p) == wanted);
    let first = found.next()?;
    found.next().is_none().then_some(first.as_str())
}

/// Escapes a property name for use in a JSON pointer (RFC 6901).
pub fn escape_pointer(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

fn parse_number(schema: &Map<String, Value>, accepts: Accepts, text: &str) -> Option<Value> {
    let mut body = text.trim();
    if let Some(stripped) = body.strip_suffix('%') {
        if schema.get("x-percent").and_then(Value::as_bool) != Some(true) {
            return None;
        }
        body = stripped.trim_end();
    }
    let body = body.strip_prefix('+').unwrap_or(body);
    let valid_syntax = !body.is_empty()
        && body
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | 'e' | 'E' | '+'))
        && body.chars().any(|c| c.is_ascii_digit());
    if !valid_syntax {
        return None;
    }
    let number: f64 = body.parse().ok()?;
    if !number.is_finite() {
        return None;
    }
    if number.fract() == 0.0
        && number.abs() < 9.0e15
        && (accepts.integer || !body.contains(['.', 'e', 'E']))
    {
        return Some(Value::from(number as i64));
    }
    if accepts.number {
        return serde_json::Number::from_f64(number).map(Value::Number);
    }
    // An integer parameter given "2.5" stays a string: rounding would invent a value.
    None
}

fn parse_bool(text: &str) -> Option<bool> {
    match text.trim().to_lowercase().as_str() {
        "true" | "yes" | "y" | "on" | "1" | "是" | "对" | "开" => Some(true),
        "false" | "no" | "n" | "off" | "0" | "否" | "不" | "关" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use RepairRule::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["dataset"],
            "properties": {
                "dataset": {"type": "string", "enum": ["adsl", "adae"], "x-strip-suffixes": [".csv", ".xpt"], "description": "d"},
                "subjects": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "x-all": "omit", "description": "d"},
                "checks": {"type": "array", "items": {"type": "string", "enum": ["required_vars", "key_unique"]}, "x-all": "enum", "description": "d"},
                "threshold": {"type": "number", "x-percent": true, "description": "d"},
                "step": {"type": "integer", "description": "d"},
                "verbose": {"type": "boolean", "description": "d"},
                "group": {"type": "object", "properties": {"by": {"type": "string", "description": "d"}}, "description": "d"},
                "values": {"type": "array", "items": {"type": "number"}, "description": "d"},
                "legs": {"type": "array", "items": {"type": "object"}, "description": "d"},
                "code": {"type": "string", "x-trim": false, "description": "d"},
                "Mode": {"type": "string", "enum": ["Fast", "fast"], "description": "d"}
            }
        })
    }

    /// `check(input, expected output, expected rules)`: one row per normalization rule.
    fn check(input: Value, want: Value, rules: &[RepairRule]) {
        let (got, repairs) = normalize(&schema(), input.clone());
        assert_eq!(got, want, "input {input}");
        let got_rules: Vec<RepairRule> = repairs.iter().map(|r| r.rule).collect();
        assert_eq!(got_rules, rules, "input {input}: {repairs:?}");
    }

    #[test]
    fn trim() {
        check(
            json!({"dataset": " adsl "}),
            json!({"dataset": "adsl"}),
            &[Trim],
        );
        check(
            json!({"code": "  print(1)\n"}),
            json!({"code": "  print(1)\n"}),
            &[],
        );
    }

    #[test]
    fn enum_case() {
        check(
            json!({"dataset": "ADSL"}),
            json!({"dataset": "adsl"}),
            &[EnumCase],
        );
        check(
            json!({"checks": ["KEY_UNIQUE"]}),
            json!({"checks": ["key_unique"]}),
            &[EnumCase],
        );
        // Two options that differ only by case: ambiguous, left alone.
        check(json!({"Mode": "FAST"}), json!({"Mode": "FAST"}), &[]);
    }

    #[test]
    fn strip_suffix() {
        check(
            json!({"dataset": "adsl.csv"}),
            json!({"dataset": "adsl"}),
            &[StripSuffix],
        );
        check(
            json!({"dataset": "ADSL.XPT "}),
            json!({"dataset": "adsl"}),
            &[Trim, StripSuffix, EnumCase],
        );
        // Only declared parameters strip suffixes; a bare suffix is not stripped to nothing.
        check(json!({"dataset": ".csv"}), json!({"dataset": ".csv"}), &[]);
    }

    #[test]
    fn scalar_to_list_and_back() {
        check(
            json!({"subjects": "01-701-1015"}),
            json!({"subjects": ["01-701-1015"]}),
            &[ScalarToList],
        );
        check(
            json!({"values": 3}),
            json!({"values": [3]}),
            &[ScalarToList],
        );
        check(
            json!({"dataset": ["adsl"]}),
            json!({"dataset": "adsl"}),
            &[ListToScalar],
        );
        check(
            json!({"dataset": ["adsl", "adae"]}),
            json!({"dataset": ["adsl", "adae"]}),
            &[],
        );
    }

    #[test]
    fn split_list() {
        check(
            json!({"subjects": "01-701-1015,01-701-1023"}),
            json!({"subjects": ["01-701-1015", "01-701-1023"]}),
            &[SplitList],
        );
        check(
            json!({"subjects": "a, b; c"}),
            json!({"subjects": ["a", "b", "c"]}),
            &[SplitList],
        );
        check(
            json!({"subjects": "甲，乙、丙"}),
            json!({"subjects": ["甲", "乙", "丙"]}),
            &[SplitList],
        );
        check(
            json!({"values": "1, 2.5"}),
            json!({"values": [1, 2.5]}),
            &[SplitList, NumberFromString, NumberFromString],
        );
        // A string never becomes an array of objects.
        check(json!({"legs": "SFO-JFK"}), json!({"legs": "SFO-JFK"}), &[]);
    }

    #[test]
    fn dedupe() {
        check(
            json!({"subjects": ["01-701-1015", "01-701-1015", "x"]}),
            json!({"subjects": ["01-701-1015", "x"]}),
            &[Dedupe],
        );
        check(
            json!({"subjects": "a,a"}),
            json!({"subjects": ["a"]}),
            &[SplitList, Dedupe],
        );
        // Without uniqueItems duplicates are data.
        check(json!({"values": [1, 1]}), json!({"values": [1, 1]}), &[]);
    }

    #[test]
    fn numbers_and_percent() {
        check(
            json!({"step": "20"}),
            json!({"step": 20}),
            &[NumberFromString],
        );
        check(
            json!({"step": " 5 "}),
            json!({"step": 5}),
            &[NumberFromString],
        );
        check(
            json!({"threshold": "70%"}),
            json!({"threshold": 70}),
            &[Percent],
        );
        check(
            json!({"threshold": "12.5 %"}),
            json!({"threshold": 12.5}),
            &[Percent],
        );
        check(
            json!({"threshold": "0.5"}),
            json!({"threshold": 0.5}),
            &[NumberFromString],
        );
        // Not repairable: rounding, percent where undeclared, words, NaN.
        check(json!({"step": "2.5"}), json!({"step": "2.5"}), &[]);
        check(json!({"step": "20%"}), json!({"step": "20%"}), &[]);
        check(json!({"step": "ten"}), json!({"step": "ten"}), &[]);
        check(
            json!({"threshold": "NaN"}),
            json!({"threshold": "NaN"}),
            &[],
        );
        check(
            json!({"threshold": "1e999"}),
            json!({"threshold": "1e999"}),
            &[],
        );
    }

    #[test]
    fn booleans() {
        check(
            json!({"verbose": "true"}),
            json!({"verbose": true}),
            &[BoolFromString],
        );
        check(
            json!({"verbose": "Yes"}),
            json!({"verbose": true}),
            &[BoolFromString],
        );
        check(
            json!({"verbose": "否"}),
            json!({"verbose": false}),
            &[BoolFromString],
        );
        check(
            json!({"verbose": "maybe"}),
            json!({"verbose": "maybe"}),
            &[],
        );
    }

    #[test]
    fn nested_json_strings() {
        check(
            json!({"group": "{\"by\": \"SEX\"}"}),
            json!({"group": {"by": "SEX"}}),
            &[ParseNestedJson],
        );
        check(
            json!({"subjects": "[\"a\", \"b\"]"}),
            json!({"subjects": ["a", "b"]}),
            &[ParseNestedJson],
        );
        check(
            json!({"group": "{\"by\": \" SEX \"}"}),
            json!({"group": {"by": "SEX"}}),
            &[ParseNestedJson, Trim],
        );
        // Not JSON of the expected type: left for validation.
        check(json!({"group": "SEX"}), json!({"group": "SEX"}), &[]);
    }

    #[test]
    fn all_keyword_only_where_declared() {
        check(json!({"subjects": "全部"}), json!({}), &[AllKeyword]);
        check(
            json!({"subjects": "ALL", "dataset": "adsl"}),
            json!({"dataset": "adsl"}),
            &[AllKeyword],
        );
        check(
            json!({"checks": "everything"}),
            json!({"checks": ["required_vars", "key_unique"]}),
            &[AllKeyword],
        );
        // `dataset` declares no meaning for "all": it stays and validation rejects it.
        check(json!({"dataset": "全部"}), json!({"dataset": "全部"}), &[]);
    }

    #[test]
    fn drop_null_and_key_case() {
        check(
            json!({"dataset": "adsl", "step": null}),
            json!({"dataset": "adsl"}),
            &[DropNull],
        );
        // A required property's null is not dropped: validation names it.
        check(json!({"dataset": null}), json!({"dataset": null}), &[]);
        check(
            json!({"Dataset": "adsl"}),
            json!({"dataset": "adsl"}),
            &[KeyCase],
        );
        check(
            json!({"dataset": "adsl", "DATASET": "adae"}),
            json!({"dataset": "adsl", "DATASET": "adae"}),
            &[],
        );
        check(json!({"unknown": 1}), json!({"unknown": 1}), &[]);
    }

    #[test]
    fn repairs_carry_paths() {
        let (_, repairs) = normalize(
            &schema(),
            json!({"group": {"by": " A "}, "checks": ["Key_Unique"]}),
        );
        let paths: Vec<&str> = repairs.iter().map(|r| r.path.as_str()).collect();
        assert_eq!(paths, ["/group/by", "/checks/0"]);
    }
}
