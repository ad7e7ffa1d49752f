//! Decimal rounding and number formatting shared by the tools. Rounding works on the
//! shortest decimal text of a number, so 2.675 rounds to 2.68 as a person (and SAS's
//! ROUND) expects, not to 2.67 as binary floating point would.

use serde_json::Value;

/// Largest magnitude rounded exactly; larger numbers have no fractional digits anyway.
const MAX_ROUNDABLE: f64 = 1e15;

/// Rounds half away from zero to `decimals` places and returns the digits as text,
/// keeping trailing zeros (`0.1` to 2 places is `"0.10"`). `None` for non-finite or huge
/// input.
pub fn round_half_away_text(value: f64, decimals: u32) -> Option<String> {
    round_decimal_text(&shortest(value)?, decimals)
}

/// Rounds half away from zero to `decimals` places.
pub fn round_half_away(value: f64, decimals: u32) -> Option<f64> {
    round_half_away_text(value, decimals)?.parse().ok()
}

/// Like [`round_half_away_text`] but for `value × 100`, shifting the decimal point in
/// text so the percentage is exact: 0.285 → "28.5" → rounded to 0 places "29".
pub fn percent_text(value: f64, decimals: u32) -> Option<String> {
    let text = shortest(value)?;
    round_decimal_text(&shift_point(&text, 2), decimals)
}

fn shortest(value: f64) -> Option<String> {
    if !value.is_finite() || value.abs() >= MAX_ROUNDABLE {
        return None;
    }
    // Rust's Display for f64 is the shortest text that reads back as the same number and
    // never uses exponent notation.
    Some(format!("{value}"))
}

/// Moves the decimal point of a plain decimal text `places` to the right.
fn shift_point(text: &str, places: usize) -> String {
    let (sign, digits) = text
        .strip_prefix('-')
        .map_or(("", text), |rest| ("-", rest));
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let mut frac = frac.to_string();
    while frac.len() < places {
        frac.push('0');
    }
    let (moved, rest) = frac.split_at(places);
    let int = format!("{int}{moved}");
    let int = int.trim_start_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    if rest.is_empty() {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{rest}")
    }
}

/// Rounds a plain decimal text half away from zero.
fn round_decimal_text(text: &str, decimals: u32) -> Option<String> {
    let decimals = decimals as usize;
    let (negative, digits) = text
        .strip_prefix('-')
        .map_or((false, text), |rest| (true, rest));
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let mut kept: Vec<u8> = int
        .bytes()
        .chain(frac.bytes().chain(std::iter::repeat(b'0')).take(decimals))
        .collect();
    if !kept.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let round_up = frac.as_bytes().get(decimals).is_some_and(|d| *d >= b'5');
    if round_up {
        let mut i = kept.len();
        loop {
            if i == 0 {
                kept.insert(0, b'1');
                break;
            }
            i -= 1;
            if kept[i] == b'9' {
                kept[i] = b'0';
            } else {
                kept[i] += 1;
                break;
            }
        }
    }
    let int_len = kept.len() - decimals;
    let int_part = String::from_utf8(kept[..int_len].to_vec()).ok()?;
    let int_part = int_part.trim_start_matches('0');
    let int_part = if int_part.is_empty() { "0" } else { int_part };
    let frac_part = String::from_utf8(kept[int_len..].to_vec()).ok()?;
    let is_zero = int_part == "0" && frac_part.bytes().all(|b| b == b'0');
    let sign = if negative && !is_zero { "-" } else { "" };
    Some(if decimals == 0 {
        format!("{sign}{int_part}")
    } else {
        format!("{sign}{int_part}.{frac_part}")
    })
}

/// A number as a person reads it: at most 12 significant digits, no float noise
/// (`0.1 + 0.2` is `"0.3"`).
pub fn format_number(value: f64) -> String {
    format!("{}", tidy(value))
}

/// A number for a JSON answer: tidied like [`format_number`], an integer when whole.
pub fn json_number(value: f64) -> Value {
    let tidy = tidy(value);
    if tidy.fract() == 0.0 && tidy.abs() < 9.0e15 {
        Value::from(tidy as i64)
    } else {
        serde_json::Number::from_f64(tidy).map_or(Value::Null, Value::Number)
    }
}

fn tidy(value: f64) -> f64 {
    if !value.is_finite() || value == 0.0 {
        return if value == 0.0 { 0.0 } else { value };
    }
    format!("{value:.11e}").parse().unwrap_or(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sas_rounding_table() {
        let cases: &[(f64, u32, &str)] = &[
            (0.125, 2, "0.13"),
            (2.5, 0, "3"),
            (-2.5, 0, "-3"),
            (0.5, 0, "1"),
            (1.5, 0, "2"),
            (2.675, 2, "2.68"),
            (1.005, 2, "1.01"),
            (0.1, 2, "0.10"),
            (9.995, 2, "10.00"),
            (99.5, 0, "100"),
            (-0.004, 2, "0.00"),
            (-0.005, 2, "-0.01"),
            (123.0, 1, "123.0"),
            (0.0000001, 3, "0.000"),
            (1.0 / 3.0, 4, "0.3333"),
        ];
        for (value, decimals, want) in cases {
            assert_eq!(
                round_half_away_text(*value, *decimals).as_deref(),
                Some(*want),
                "{value} to {decimals}"
            );
        }
        assert_eq!(round_half_away_text(f64::NAN, 2), None);
        assert_eq!(round_half_away_text(1e300, 2), None);
    }

    #[test]
    fn percent_is_shifted_in_decimal() {
        assert_eq!(percent_text(0.285, 0).as_deref(), Some("29"));
        assert_eq!(percent_text(0.125, 1).as_deref(), Some("12.5"));
        assert_eq!(percent_text(57.0 / 200.0, 0).as_deref(), Some("29"));
        assert_eq!(percent_text(-0.00125, 2).as_deref(), Some("-0.13"));
        assert_eq!(percent_text(3.0, 0).as_deref(), Some("300"));
        assert_eq!(percent_text(2.0 / 3.0, 2).as_deref(), Some("66.67"));
    }

    #[test]
    fn tidy_numbers() {
        assert_eq!(format_number(0.1 + 0.2), "0.3");
        assert_eq!(format_number(0.17 * 2340.0), "397.8");
        assert_eq!(json_number(4.0), serde_json::json!(4));
        assert_eq!(json_number(-0.0), serde_json::json!(0));
    }
}
