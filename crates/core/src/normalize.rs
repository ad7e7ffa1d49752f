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
//! - `"x-split": false` — never split a string into list items;
//! - `"x-drop-listed": "<property>"` — a question whose text after its last question mark
//!   only lists the sibling list `<property>`'s items again is cut after the question mark
//!   (see [`crate::listed`]).
//!
//! A property absent from the arguments takes its schema `default`, reported as a repair
//! (`default_value`): the value comes from the tool's configuration, not from a guess.

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

/// Normalizes `args` against the parameter `schema`. Compiles the schema each time; the
/// guard compiles it once with [`NormPlan::compile`] and reuses the plan.
pub fn normalize(schema: &Value, args: Value) -> (Value, Vec<Repair>) {
    let mut value = args;
    let mut repairs = Vec::new();
    NormPlan::compile(schema).apply(&mut value, &mut repairs);
    (value, repairs)
}

/// A parameter schema compiled into the rules that apply at each place, so normalizing a
/// call does no schema look-ups.
#[derive(Debug, Clone)]
pub struct NormPlan {
    root: Node,
}

impl NormPlan {
    /// Compiles the normalization rules of a schema.
    pub fn compile(schema: &Value) -> Self {
        Self {
            root: Node::compile(schema),
        }
    }

    /// Normalizes `args` in place, appending one [`Repair`] per change.
    pub fn apply(&self, args: &mut Value, repairs: &mut Vec<Repair>) {
        if walk(&self.root, args, &Path::Root, repairs) == Outcome::Omit {
            *args = Value::Object(Map::new());
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Keep,
    /// The property is to be left out (an "all" that means "use the default").
    Omit,
}

/// Where a value sits, built on the stack and turned into a JSON pointer only when a
/// repair is reported.
enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    /// The JSON pointer (RFC 6901), built in one buffer.
    fn pointer(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Self::Root => {}
            Self::Key(parent, key) => {
                parent.write(out);
                out.push('/');
                push_escaped(out, key);
            }
            Self::Index(parent, i) => {
                parent.write(out);
                out.push('/');
                out.push_str(&i.to_string());
            }
        }
    }
}

fn push_escaped(out: &mut String, segment: &str) {
    for c in segment.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// The JSON types a schema accepts, as far as the normalizer needs to know.
#[derive(Debug, Default, Clone, Copy)]
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

/// What "all" means for a parameter.
#[derive(Debug, Clone)]
enum AllMeaning {
    Omit,
    Value(Value),
}

/// The rules compiled for one place in the schema.
#[derive(Debug, Clone, Default)]
struct Node {
    accepts: Accepts,
    enum_strings: Vec<String>,
    strip_suffixes: Vec<String>,
    percent: bool,
    all: Option<AllMeaning>,
    trim: bool,
    split: bool,
    unique: bool,
    items: Option<Box<Node>>,
    properties: Vec<(String, Node)>,
    required: Vec<String>,
    /// The schema's `default`, filled in when the property is absent.
    default: Option<Value>,
    /// `x-drop-listed`: the sibling list whose items a trailing listing repeats.
    drop_listed: Option<String>,
}

impl Node {
    fn compile(schema: &Value) -> Self {
        let Some(map) = schema.as_object() else {
            return Self {
                accepts: Accepts {
                    any: true,
                    ..Accepts::default()
                },
                ..Self::default()
            };
        };
        let strings = |key: &str| -> Vec<String> {
            map.get(key)
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default()
        };
        let flag =
            |key: &str, default: bool| map.get(key).and_then(Value::as_bool).unwrap_or(default);
        let all = match map.get("x-all") {
            None => None,
            Some(Value::String(s)) if s == "omit" => Some(AllMeaning::Omit),
            Some(Value::String(s)) if s == "enum" => map
                .get("items")
                .and_then(|i| i.get("enum"))
                .map(|options| AllMeaning::Value(options.clone())),
            Some(literal) => Some(AllMeaning::Value(literal.clone())),
        };
        let accepts = Accepts::of(map);
        Self {
            accepts,
            enum_strings: strings("enum"),
            strip_suffixes: strings("x-strip-suffixes"),
            percent: flag("x-percent", false),
            all,
            trim: flag("x-trim", true),
            split: flag("x-split", true),
            unique: flag("uniqueItems", false),
            items: accepts.array.then(|| {
                Box::new(Node::compile(
                    map.get("items").unwrap_or(&Value::Bool(true)),
                ))
            }),
            properties: map
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| {
                    p.iter()
                        .map(|(k, v)| (k.clone(), Node::compile(v)))
                        .collect()
                })
                .unwrap_or_default(),
            required: strings("required"),
            default: map.get("default").cloned(),
            drop_listed: map
                .get("x-drop-listed")
                .and_then(Value::as_str)
                .map(str::to_string),
        }
    }

    fn property(&self, name: &str) -> Option<&Node> {
        self.properties
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, n)| n)
    }

    fn item_node(&self) -> &Node {
        static ANY: Node = Node {
            accepts: Accepts {
                string: false,
                number: false,
                integer: false,
                boolean: false,
                array: false,
                object: false,
                null: false,
                any: true,
            },
            enum_strings: Vec::new(),
            strip_suffixes: Vec::new(),
            percent: false,
            all: None,
            trim: true,
            split: true,
            unique: false,
            items: None,
            properties: Vec::new(),
            required: Vec::new(),
            default: None,
            drop_listed: None,
        };
        self.items.as_deref().unwrap_or(&ANY)
    }
}

fn walk(node: &Node, value: &mut Value, path: &Path, repairs: &mut Vec<Repair>) -> Outcome {
    let accepts = node.accepts;
    if accepts.any {
        return Outcome::Keep;
    }
    match value {
        Value::String(_) => string_value(node, value, path, repairs),
        Value::Array(_) => {
            array_value(node, value, path, repairs);
            Outcome::Keep
        }
        Value::Object(_) if accepts.object => {
            object_value(node, value, path, repairs);
            Outcome::Keep
        }
        Value::Number(_) | Value::Bool(_) if accepts.array && !accepts.scalar() => {
            let scalar = value.take();
            *value = Value::Array(vec![scalar.clone()]);
            push(
                repairs,
                path,
                scalar,
                value.clone(),
                RepairRule::ScalarToList,
            );
            array_value(node, value, path, repairs);
            Outcome::Keep
        }
        _ => Outcome::Keep,
    }
}

fn push(repairs: &mut Vec<Repair>, path: &Path, from: Value, to: Value, rule: RepairRule) {
    repairs.push(Repair {
        path: path.pointer(),
        from,
        to,
        rule,
    });
}

fn is_all_word(text: &str) -> bool {
    let trimmed = text.trim();
    ALL_WORDS.iter().any(|w| w.eq_ignore_ascii_case(trimmed))
}

fn string_value(node: &Node, value: &mut Value, path: &Path, repairs: &mut Vec<Repair>) -> Outcome {
    let accepts = node.accepts;
    let Value::String(text) = value else {
        return Outcome::Keep;
    };
    if let Some(meaning) = &node.all
        && is_all_word(text)
    {
        let from = value.take();
        return match meaning {
            AllMeaning::Omit => {
                push(repairs, path, from, Value::Null, RepairRule::AllKeyword);
                Outcome::Omit
            }
            AllMeaning::Value(v) => {
                *value = v.clone();
                push(repairs, path, from, v.clone(), RepairRule::AllKeyword);
                Outcome::Keep
            }
        };
    }
    if accepts.string {
        fix_string(node, text, path, repairs);
        return Outcome::Keep;
    }
    if (accepts.array || accepts.object)
        && text.trim_start().starts_with(['[', '{'])
        && let Ok(parsed) = serde_json::from_str::<Value>(text.trim())
        && ((accepts.array && parsed.is_array()) || (accepts.object && parsed.is_object()))
    {
        let from = std::mem::replace(value, parsed);
        push(
            repairs,
            path,
            from,
            value.clone(),
            RepairRule::ParseNestedJson,
        );
        return walk(node, value, path, repairs);
    }
    if accepts.array {
        string_to_list(node, value, path, repairs);
        return Outcome::Keep;
    }
    if accepts.numeric()
        && let Some(number) = parse_number(node, accepts, text)
    {
        let rule = if text.trim().ends_with('%') {
            RepairRule::Percent
        } else {
            RepairRule::NumberFromString
        };
        let from = std::mem::replace(value, number);
        push(repairs, path, from, value.clone(), rule);
        return Outcome::Keep;
    }
    if accepts.boolean
        && let Some(flag) = parse_bool(text)
    {
        let from = std::mem::replace(value, Value::Bool(flag));
        push(
            repairs,
            path,
            from,
            Value::Bool(flag),
            RepairRule::BoolFromString,
        );
    }
    Outcome::Keep
}

/// Trim, strip declared suffixes, and fold case to an enum value.
fn fix_string(node: &Node, text: &mut String, path: &Path, repairs: &mut Vec<Repair>) {
    if node.trim && text.trim().len() != text.len() {
        let trimmed = text.trim().to_string();
        let from = std::mem::replace(text, trimmed);
        push(
            repairs,
            path,
            Value::String(from),
            Value::String(text.clone()),
            RepairRule::Trim,
        );
    }
    if !node.strip_suffixes.is_empty() {
        let ends_with = |suffix: &str| {
            let cut = text.len().wrapping_sub(suffix.len());
            text.len() > suffix.len()
                && text.is_char_boundary(cut)
                && text[cut..].eq_ignore_ascii_case(suffix)
        };
        if let Some(suffix) = node.strip_suffixes.iter().find(|s| ends_with(s)) {
            let stripped = text[..text.len() - suffix.len()].trim_end().to_string();
            let from = std::mem::replace(text, stripped);
            push(
                repairs,
                path,
                Value::String(from),
                Value::String(text.clone()),
                RepairRule::StripSuffix,
            );
        }
    }
    if !node.enum_strings.is_empty() && !node.enum_strings.iter().any(|o| o == text) {
        let folded = (!text.is_ascii()).then(|| text.to_lowercase());
        let same = |option: &String| match &folded {
            None => option.eq_ignore_ascii_case(text),
            Some(folded) => option.to_lowercase() == *folded,
        };
        let mut matches = node.enum_strings.iter().filter(|o| same(o));
        // Only a unique match is a repair; two options differing by case stay ambiguous.
        if let (Some(only), None) = (matches.next(), matches.next()) {
            let from = std::mem::replace(text, only.clone());
            push(
                repairs,
                path,
                Value::String(from),
                Value::String(text.clone()),
                RepairRule::EnumCase,
            );
        }
    }
}

fn string_to_list(node: &Node, value: &mut Value, path: &Path, repairs: &mut Vec<Repair>) {
    let item = node.item_node().accepts;
    // A string only becomes list items when the items are scalars it can stand for.
    if !(item.any || item.scalar()) {
        return;
    }
    let Value::String(text) = value else { return };
    let list: Vec<Value> = if node.split && text.contains(LIST_SEPARATORS) {
        text.split(LIST_SEPARATORS)
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| Value::String(p.to_string()))
            .collect()
    } else {
        vec![Value::String(text.clone())]
    };
    let rule = if list.len() == 1 && list[0].as_str() == Some(text.as_str()) {
        RepairRule::ScalarToList
    } else {
        RepairRule::SplitList
    };
    let from = std::mem::replace(value, Value::Array(list));
    push(repairs, path, from, value.clone(), rule);
    array_value(node, value, path, repairs);
}

fn array_value(node: &Node, value: &mut Value, path: &Path, repairs: &mut Vec<Repair>) {
    let accepts = node.accepts;
    let Value::Array(items) = value else { return };
    if !accepts.array {
        // A one-item list where one value is expected.
        if items.len() == 1 && accepts.scalar() && !items[0].is_array() && !items[0].is_object() {
            let from = value.take();
            if let Value::Array(mut items) = from.clone() {
                *value = items.pop().unwrap_or(Value::Null);
            }
            push(repairs, path, from, value.clone(), RepairRule::ListToScalar);
            if walk(node, value, path, repairs) == Outcome::Omit {
                *value = Value::Null;
            }
        }
        return;
    }
    let item_node = node.item_node();
    for (i, item) in items.iter_mut().enumerate() {
        // "all" inside a list is not a value; it becomes null and validation names it.
        if walk(item_node, item, &Path::Index(path, i), repairs) == Outcome::Omit {
            *item = Value::Null;
        }
    }
    if node.unique && has_duplicates(items) {
        let from = Value::Array(items.clone());
        let mut unique: Vec<Value> = Vec::with_capacity(items.len());
        for item in items.drain(..) {
            if !unique.contains(&item) {
                unique.push(item);
            }
        }
        *items = unique;
        push(
            repairs,
            path,
            from,
            Value::Array(items.clone()),
            RepairRule::Dedupe,
        );
    }
}

fn has_duplicates(items: &[Value]) -> bool {
    items
        .iter()
        .enumerate()
        .any(|(i, a)| items[..i].contains(a))
}

fn object_value(node: &Node, value: &mut Value, path: &Path, repairs: &mut Vec<Repair>) {
    let Value::Object(map) = value else { return };
    // Property names matched ignoring case/space/dash are renamed first.
    if map.keys().any(|k| node.property(k).is_none()) {
        let keys: Vec<String> = map.keys().cloned().collect();
        let mut renamed = Map::with_capacity(map.len());
        for key in keys {
            let Some(v) = map.shift_remove(&key) else {
                continue;
            };
            let name = match unique_key_match(node, &key) {
                Some(found)
                    if node.property(&key).is_none()
                        && !renamed.contains_key(found)
                        && !map.contains_key(found) =>
                {
                    push(
                        repairs,
                        &Path::Key(path, &key),
                        Value::String(key.clone()),
                        Value::String(found.to_string()),
                        RepairRule::KeyCase,
                    );
                    found.to_string()
                }
                _ => key,
            };
            renamed.insert(name, v);
        }
        *map = renamed;
    }
    let mut removed: Vec<String> = Vec::new();
    for (key, child) in map.iter_mut() {
        // Unknown properties are left for validation to name.
        let Some(prop) = node.property(key) else {
            continue;
        };
        let child_path = Path::Key(path, key);
        if child.is_null()
            && !prop.accepts.null
            && !prop.accepts.any
            && !node.required.iter().any(|r| r == key)
        {
            push(
                repairs,
                &child_path,
                Value::Null,
                Value::Null,
                RepairRule::DropNull,
            );
            removed.push(key.clone());
            continue;
        }
        if walk(prop, child, &child_path, repairs) == Outcome::Omit {
            removed.push(key.clone());
        }
    }
    for key in removed {
        map.shift_remove(&key);
    }
    for (name, prop) in &node.properties {
        let Some(list) = &prop.drop_listed else {
            continue;
        };
        let (Some(Value::String(text)), Some(Value::Array(items))) = (map.get(name), map.get(list))
        else {
            continue;
        };
        let items: Vec<String> = items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect();
        if let Some(cut) = crate::listed::without_listed(text, &items) {
            let from = Value::String(text.clone());
            push(
                repairs,
                &Path::Key(path, name),
                from,
                Value::String(cut.clone()),
                RepairRule::ListedOptions,
            );
            map.insert(name.clone(), Value::String(cut));
        }
    }
    for (name, prop) in &node.properties {
        if let Some(default) = &prop.default
            && !map.contains_key(name)
        {
            push(
                repairs,
                &Path::Key(path, name),
                Value::Null,
                default.clone(),
                RepairRule::DefaultValue,
            );
            map.insert(name.clone(), default.clone());
        }
    }
}

/// A declared property equal to `key` ignoring case, surrounding spaces and `-`/`_`.
fn unique_key_match<'a>(node: &'a Node, key: &str) -> Option<&'a str> {
    let fold = |s: &str| s.trim().to_lowercase().replace(['-', ' '], "_");
    let wanted = fold(key);
    let mut found = node
        .properties
        .iter()
        .map(|(k, _)| k)
        .filter(|p| fold(p) == wanted);
    let first = found.next()?;
    found.next().is_none().then_some(first.as_str())
}

/// Escapes a property name for use in a JSON pointer (RFC 6901).
pub fn escape_pointer(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    push_escaped(&mut out, segment);
    out
}

fn parse_number(node: &Node, accepts: Accepts, text: &str) -> Option<Value> {
    let mut body = text.trim();
    if let Some(stripped) = body.strip_suffix('%') {
        if !node.percent {
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
    fn a_question_that_lists_its_options_again_is_cut_after_its_question_mark() {
        let schema = json!({"type": "object", "properties": {
            "question": {"type": "string", "x-drop-listed": "options"},
            "options": {"type": "array", "items": {"type": "string"}},
            "note": {"type": "string"}
        }});
        let (got, repairs) = normalize(
            &schema,
            json!({"question": "要继续导出吗？选项：是，否", "options": ["是", "否"],
                   "note": "Continue? 是，否"}),
        );
        assert_eq!(got["question"], "要继续导出吗？");
        assert_eq!(got["note"], "Continue? 是，否", "no rule, no cut");
        let rules: Vec<RepairRule> = repairs.iter().map(|r| r.rule).collect();
        assert_eq!(rules, [ListedOptions]);
        assert_eq!(repairs[0].path, "/question");
        // Options split from a string first are read as the list they became.
        let (got, _) = normalize(
            &schema,
            json!({"question": "Continue? yes or no", "options": "yes, no"}),
        );
        assert_eq!(got["question"], "Continue?");
        let (got, repairs) = normalize(
            &schema,
            json!({"question": "Continue? The blue one is faster", "options": ["yes", "no"]}),
        );
        assert_eq!(got["question"], "Continue? The blue one is faster");
        assert!(repairs.is_empty(), "{repairs:?}");
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
    fn defaults_fill_absent_properties_only() {
        let schema = json!({"type": "object", "properties": {
            "units": {"type": "string", "default": "metric", "description": "d"},
            "days": {"type": "integer", "default": 3, "description": "d"}
        }});
        let (out, repairs) = normalize(&schema, json!({"days": 5}));
        assert_eq!(out, json!({"days": 5, "units": "metric"}));
        assert_eq!(
            repairs
                .iter()
                .map(|r| (r.path.as_str(), r.rule))
                .collect::<Vec<_>>(),
            [("/units", DefaultValue)]
        );
        // A dropped null optional takes its default too.
        let (out, _) = normalize(&schema, json!({"days": null}));
        assert_eq!(out, json!({"units": "metric", "days": 3}));
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
