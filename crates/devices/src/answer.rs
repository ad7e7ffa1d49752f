//! Which option a spoken answer names: the option's own words ("the red one" for "Red"),
//! or its place ("the second one", "option 2", "第二个", "二号", "2").

/// Lower case, letters and digits only, words separated by one space (CJK characters
/// kept as they are).
fn normalize(text: &str) -> String {
    let cleaned: String = text
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    cleaned.split_whitespace().collect::<Vec<_>>().join(" ")
}

const EN_ORDINALS: [(&str, usize); 20] = [
    ("first", 1),
    ("second", 2),
    ("third", 3),
    ("fourth", 4),
    ("fifth", 5),
    ("sixth", 6),
    ("seventh", 7),
    ("eighth", 8),
    ("ninth", 9),
    ("tenth", 10),
    ("one", 1),
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
];

const ZH_NUMBERS: [(char, usize); 10] = [
    ('一', 1),
    ('二', 2),
    ('三', 3),
    ('四', 4),
    ('五', 5),
    ('六', 6),
    ('七', 7),
    ('八', 8),
    ('九', 9),
    ('十', 10),
];

/// The place an answer names, 1-based: "second", "2nd", "option 2", "第二个", "二号", "2".
fn place(answer: &str) -> Option<usize> {
    let words: Vec<&str> = answer.split(' ').collect();
    for word in &words {
        if let Some((_, n)) = EN_ORDINALS.iter().find(|(w, _)| w == word) {
            return Some(*n);
        }
        let digits = word.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        if !digits.is_empty()
            && digits.chars().all(|c| c.is_ascii_digit())
            && let Ok(n) = digits.parse::<usize>()
        {
            return Some(n);
        }
    }
    // Chinese: 第N, N号, N个, or the answer being just the number.
    let chars: Vec<char> = answer.chars().filter(|c| !c.is_whitespace()).collect();
    for (i, c) in chars.iter().enumerate() {
        if let Some((_, n)) = ZH_NUMBERS.iter().find(|(z, _)| z == c) {
            let before = i.checked_sub(1).map(|j| chars[j]);
            let after = chars.get(i + 1).copied();
            let marked = before == Some('第') || matches!(after, Some('号' | '个' | '项'));
            if marked || chars.len() == 1 {
                return Some(*n);
            }
        }
    }
    None
}

/// The index (0-based) of the option `heard` names, when exactly one fits.
pub fn option_named(heard: &str, options: &[String]) -> Option<usize> {
    let answer = normalize(heard);
    if answer.is_empty() {
        return None;
    }
    let normalized: Vec<String> = options.iter().map(|o| normalize(o)).collect();
    // The option's own words, said alone or inside a sentence.
    let exact: Vec<usize> = (0..options.len())
        .filter(|&i| normalized[i] == answer)
        .collect();
    if exact.len() == 1 {
        return Some(exact[0]);
    }
    let padded = format!(" {answer} ");
    let inside: Vec<usize> = (0..options.len())
        .filter(|&i| {
            let option = &normalized[i];
            !option.is_empty()
                && (padded.contains(&format!(" {option} "))
                    || (!option.is_ascii() && answer.contains(option.as_str())))
        })
        .collect();
    if inside.len() == 1 {
        return Some(inside[0]);
    }
    if inside.len() > 1 {
        return None;
    }
    place(&answer)
        .filter(|n| (1..=options.len()).contains(n))
        .map(|n| n - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(list: &[&str]) -> Vec<String> {
        list.iter().map(|o| (*o).to_string()).collect()
    }

    #[test]
    fn spoken_answers_name_options_by_words_or_place() {
        let colors = options(&["Red", "Green", "Blue"]);
        let zh = options(&["继续", "取消", "稍后提醒"]);
        let numbers = options(&["2", "10"]);
        let cases: &[(&str, &[String], Option<usize>)] = &[
            ("Green.", &colors, Some(1)),
            ("I'd like the blue one please", &colors, Some(2)),
            ("the second one", &colors, Some(1)),
            ("option 3", &colors, Some(2)),
            ("number one", &colors, Some(0)),
            ("3rd", &colors, Some(2)),
            ("the fifth", &colors, None),
            ("purple", &colors, None),
            ("", &colors, None),
            ("取消", &zh, Some(1)),
            ("我选稍后提醒吧", &zh, Some(2)),
            ("第二个", &zh, Some(1)),
            ("一号", &zh, Some(0)),
            ("三", &zh, Some(2)),
            ("第五个", &zh, None),
            // An option that is itself a number: its words win over its place.
            ("10", &numbers, Some(1)),
            ("2", &numbers, Some(0)),
            // Two options named at once: no guess.
            ("red or green", &colors, None),
        ];
        for (heard, list, expected) in cases {
            assert_eq!(
                option_named(heard, list),
                *expected,
                "{heard:?} in {list:?}"
            );
        }
    }
}
