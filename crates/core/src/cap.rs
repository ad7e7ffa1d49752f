//! Guard step 9: keep results small. Lists are cut at a row limit and strings at a length
//! limit, then the whole answer at a byte limit; whatever was cut is said explicitly.

use serde_json::{Map, Value, json};

use crate::normalize::escape_pointer;

/// Result size limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CapLimits {
    /// Rows kept per list.
    pub max_rows: usize,
    /// Characters kept per string.
    pub max_string_chars: usize,
    /// Bytes of the serialized answer.
    pub max_bytes: usize,
}

impl Default for CapLimits {
    fn default() -> Self {
        Self {
            max_rows: 50,
            max_string_chars: 8_000,
            max_bytes: 32 * 1024,
        }
    }
}

/// One cut made to a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cut {
    /// JSON pointer of the cut list or string.
    pub path: String,
    /// Items (or characters) kept.
    pub shown: usize,
    /// Items (or characters) there were.
    pub total: usize,
    /// Whether the cut value was a list (else a string).
    pub list: bool,
}

/// What capping did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Capped {
    /// Every cut, in document order.
    pub cuts: Vec<Cut>,
    /// The answer was still too large after cutting and was replaced by an excerpt.
    pub excerpt: bool,
}

impl Capped {
    /// Whether anything was cut.
    pub fn truncated(&self) -> bool {
        self.excerpt || !self.cuts.is_empty()
    }

    /// A sentence naming what was cut and how to ask for less.
    pub fn notice(&self) -> Option<String> {
        if !self.truncated() {
            return None;
        }
        let mut parts: Vec<String> = self
            .cuts
            .iter()
            .take(3)
            .map(|c| {
                let at = if c.path.is_empty() {
                    "the result".to_string()
                } else {
                    c.path.clone()
                };
                if c.list {
                    format!("showing the first {} of {} items at {at}", c.shown, c.total)
                } else {
                    format!(
                        "showing the first {} of {} characters at {at}",
                        c.shown, c.total
                    )
                }
            })
            .collect();
        if self.cuts.len() > 3 {
            parts.push(format!("and {} more cuts", self.cuts.len() - 3));
        }
        if self.excerpt {
            parts.push("the answer was too large and is given as an excerpt".into());
        }
        Some(format!(
            "Result truncated: {}. Narrow the request (filter, fewer variables or subjects, a smaller range) or ask for a summary instead.",
            parts.join("; ")
        ))
    }
}

/// Caps `data` to `limits`. Answers that already fit are returned as they are, without
/// a copy.
pub fn cap(data: Value, limits: CapLimits) -> (Value, Capped) {
    let mut capped = Capped::default();
    let mut budget = limits.max_bytes;
    if fits(
        &data,
        limits.max_rows.max(1),
        limits.max_string_chars.max(16),
        &mut budget,
    ) {
        return (data, capped);
    }
    let mut rows = limits.max_rows.max(1);
    let mut chars = limits.max_string_chars.max(16);
    // Cut lists and strings; if the answer is still over the byte limit, cut harder.
    loop {
        let mut cuts = Vec::new();
        let value = cut(&data, rows, chars, &mut String::new(), &mut cuts);
        let size = serde_json::to_vec(&value)
            .map(|v| v.len())
            .unwrap_or(usize::MAX);
        if size <= limits.max_bytes {
            capped.cuts = cuts;
            return (value, capped);
        }
        if rows == 1 && chars <= 200 {
            break;
        }
        rows = (rows / 2).max(1);
        chars = (chars / 2).max(200);
    }
    let text = serde_json::to_string(&data).unwrap_or_default();
    // Counted in the bytes the excerpt takes as a JSON string (a character is 1 to 4
    // bytes, and quotes, backslashes and control characters are escaped again), with
    // room for the object around it.
    let keep = limits.max_bytes.saturating_sub(64);
    let mut used = 0;
    let excerpt: String = text
        .chars()
        .take_while(|&c| {
            used += match c {
                '"' | '\\' => 2,
                c if u32::from(c) < 0x20 => 6,
                c => c.len_utf8(),
            };
            used <= keep
        })
        .collect();
    capped.excerpt = true;
    (json!({ "excerpt": excerpt }), capped)
}

/// Whether no list is longer than `rows`, no string longer than `chars`, and an upper
/// bound of the serialized size stays within `budget` (which it consumes). One walk, no
/// serialization: most answers are far below the limits.
fn fits(value: &Value, rows: usize, chars: usize, budget: &mut usize) -> bool {
    let mut spend = |n: usize| match budget.checked_sub(n) {
        Some(left) => {
            *budget = left;
            true
        }
        None => false,
    };
    match value {
        Value::Null | Value::Bool(_) => spend(5),
        // No JSON number serde_json writes is longer than 24 bytes.
        Value::Number(_) => spend(24),
        Value::String(s) => {
            (s.len() <= chars || s.chars().count() <= chars) && spend(string_bound(s))
        }
        Value::Array(items) => {
            items.len() <= rows
                && spend(2 + items.len())
                && items.iter().all(|v| fits(v, rows, chars, budget))
        }
        Value::Object(map) => {
            spend(2 + map.len() * 2)
                && map.iter().all(|(k, v)| {
                    let key = string_bound(k);
                    match budget.checked_sub(key) {
                        Some(left) => {
                            *budget = left;
                            fits(v, rows, chars, budget)
                        }
                        None => false,
                    }
                })
        }
    }
}

/// At most how many bytes a string takes in JSON: quotes plus, for each byte that needs
/// escaping, the six bytes of `\uXXXX`.
fn string_bound(s: &str) -> usize {
    let escaped = s
        .bytes()
        .filter(|&b| b < 0x20 || b == b'"' || b == b'\\')
        .count();
    s.len() + 2 + escaped * 5
}

/// The serialized size of a value, counted without building the text.
pub fn json_size(value: &Value) -> usize {
    struct Counter(usize);
    impl std::io::Write for Counter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter(0);
    match serde_json::to_writer(&mut counter, value) {
        Ok(()) => counter.0,
        Err(_) => usize::MAX,
    }
}

fn cut(value: &Value, rows: usize, chars: usize, path: &mut String, cuts: &mut Vec<Cut>) -> Value {
    match value {
        Value::Array(items) => {
            if items.len() > rows {
                cuts.push(Cut {
                    path: path.clone(),
                    shown: rows,
                    total: items.len(),
                    list: true,
                });
            }
            let len = path.len();
            let out = items
                .iter()
                .take(rows)
                .enumerate()
                .map(|(i, item)| {
                    path.push_str(&format!("/{i}"));
                    let v = cut(item, rows, chars, path, cuts);
                    path.truncate(len);
                    v
                })
                .collect();
            Value::Array(out)
        }
        Value::Object(map) => {
            let len = path.len();
            let out: Map<String, Value> = map
                .iter()
                .map(|(k, v)| {
                    path.push('/');
                    path.push_str(&escape_pointer(k));
                    let v = cut(v, rows, chars, path, cuts);
                    path.truncate(len);
                    (k.clone(), v)
                })
                .collect();
            Value::Object(out)
        }
        Value::String(s) => {
            let total = s.chars().count();
            if total > chars {
                cuts.push(Cut {
                    path: path.clone(),
                    shown: chars,
                    total,
                    list: false,
                });
                let mut head: String = s.chars().take(chars).collect();
                head.push('…');
                Value::String(head)
            } else {
                value.clone()
            }
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_results_pass_unchanged() {
        let data = json!({"rows": [1, 2, 3], "name": "x"});
        let (out, capped) = cap(data.clone(), CapLimits::default());
        assert_eq!(out, data);
        assert!(!capped.truncated());
        assert_eq!(capped.notice(), None);
    }

    #[test]
    fn long_lists_are_cut_with_the_total_in_the_notice() {
        let rows: Vec<Value> = (0..254).map(|i| json!({"id": i})).collect();
        let (out, capped) = cap(json!({"rows": rows}), CapLimits::default());
        assert_eq!(out["rows"].as_array().map(Vec::len), Some(50));
        assert_eq!(
            capped.cuts,
            [Cut {
                path: "/rows".into(),
                shown: 50,
                total: 254,
                list: true
            }]
        );
        let notice = capped.notice().unwrap_or_default();
        assert!(
            notice.contains("first 50 of 254 items at /rows"),
            "{notice}"
        );
    }

    #[test]
    fn the_byte_limit_holds_for_any_shape() {
        let limits = CapLimits {
            max_rows: 50,
            max_string_chars: 8000,
            max_bytes: 4096,
        };
        let wide: Vec<Value> = (0..50)
            .map(|i| json!({"id": i, "text": "y".repeat(500)}))
            .collect();
        for data in [
            json!({"rows": wide}),
            json!("x".repeat(100_000)),
            json!({"a": {"b": "z".repeat(9000)}}),
        ] {
            let (out, capped) = cap(data, limits);
            let size = serde_json::to_vec(&out)
                .map(|v| v.len())
                .unwrap_or(usize::MAX);
            assert!(size <= 4096, "{size}");
            assert!(capped.truncated());
        }
    }

    #[test]
    fn an_excerpt_of_wide_and_escaped_characters_fits_in_bytes() {
        // Four-byte characters, quotes and control characters: a cut by characters
        // would be several times the limit in bytes.
        let data = json!({"a": {"b": "𐀀\"\u{0}".repeat(40), "c": -1e-161}, "d": "𐀀".repeat(60)});
        for max_bytes in [64, 100, 206, 400] {
            let limits = CapLimits {
                max_rows: 5,
                max_string_chars: 50,
                max_bytes,
            };
            let (out, _) = cap(data.clone(), limits);
            let size = serde_json::to_vec(&out).map_or(usize::MAX, |v| v.len());
            assert!(size <= max_bytes, "{size} > {max_bytes}: {out}");
        }
    }

    #[test]
    fn excerpt_when_nothing_else_fits() {
        let keys: Map<String, Value> = (0..2000).map(|i| (format!("key{i}"), json!(i))).collect();
        let (out, capped) = cap(
            Value::Object(keys),
            CapLimits {
                max_bytes: 1000,
                ..CapLimits::default()
            },
        );
        assert!(capped.excerpt);
        assert!(
            out["excerpt"]
                .as_str()
                .is_some_and(|s| s.starts_with("{\"key0\":0"))
        );
    }
}
