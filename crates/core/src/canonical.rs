//! JSON text that does not depend on how an object's keys were ordered: the identity of a
//! call (an idempotency key's fingerprint) must be the same for `{"a":1,"b":2}` and
//! `{"b":2,"a":1}`. Objects are written with their keys sorted, at every depth; arrays
//! keep their order (it is meaningful).

use serde_json::Value;

/// `value` as compact JSON with every object's keys sorted.
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write(value, &mut out);
    out
}

fn write(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write(&map[key], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn key_order_does_not_matter_at_any_depth_but_array_order_does() {
        let a = json!({"b": 2, "a": {"y": [1, {"q": 1, "p": 2}], "x": "é\"\n"}});
        let b = json!({"a": {"x": "é\"\n", "y": [1, {"p": 2, "q": 1}]}, "b": 2});
        assert_eq!(canonical_json(&a), canonical_json(&b));
        assert_eq!(
            canonical_json(&a),
            r#"{"a":{"x":"é\"\n","y":[1,{"p":2,"q":1}]},"b":2}"#
        );
        assert_ne!(
            canonical_json(&json!([1, 2])),
            canonical_json(&json!([2, 1]))
        );
        assert_ne!(
            canonical_json(&json!({"a": 1})),
            canonical_json(&json!({"a": "1"}))
        );
    }
}
