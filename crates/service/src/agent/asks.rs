//! Whether a person's message may ask for more than one call did.
//!
//! After a single call whose result line is the whole answer the turn can end with no
//! further model request (a third of a turn on the local model), unless the message
//! joins several requests ("turn it down and switch the camera off", "算一下 12*7，然后
//! 告诉我现在几点"). A joiner alone is not enough: a comma after "ok" or "ugh", or
//! before "1 decimal" that the call already carries as `decimals: 1`, joins nothing. So
//! the message is cut at its joiners, what the call carries is taken out (its strings,
//! its numbers, the names of the arguments it gave), and it asks for more only when at
//! least two of the pieces still say something, or one does beside a piece that was only
//! the call's own text.

use super::calls::Outcome;
use super::{is_han, summary};

/// What joins two requests in one message: conjunctions, commas, and the end of a
/// sentence ("That's too loud. Lock the screen." is two).
const JOINED: [&str; 25] = [
    " and ", " then ", " also ", " plus ", " as well", ", ", "; ", ". ", "? ", "! ", "\n", "和",
    "跟", "及", "并", "再", "还", "然后", "同时", "，", "、", "；", "。", "？", "！",
];

/// Words that open, soften or close a message without asking for anything: interjections,
/// politeness, agreement ("ok, …", "ugh, …", "…, please", "好的，…").
const MARKERS: [&str; 35] = [
    "ok", "okay", "ugh", "hey", "hi", "hello", "please", "pls", "thanks", "thank", "you", "well",
    "so", "oh", "hmm", "um", "uh", "yes", "yeah", "no", "sure", "alright", "right", "好", "好的",
    "嗯", "哦", "噢", "唉", "哎", "啊", "请", "谢谢", "你", "麻烦",
];

/// Whether `message` may ask for more than `outcomes` did: a result it may go on to act
/// on (a choice), or a single call for a message with two or more pieces that each say
/// something the call does not carry.
pub(crate) fn may_ask_more(outcomes: &[Outcome], message: &str) -> bool {
    if outcomes.iter().any(|o| summary::leads_on(&o.tool)) {
        return true;
    }
    let [outcome] = outcomes else {
        return false;
    };
    let arguments: serde_json::Value =
        serde_json::from_str(&outcome.call.function.arguments).unwrap_or_default();
    let carried = Carried::of(&arguments);
    let mut rest = message.to_lowercase();
    for text in &carried.texts {
        rest = rest.replace(text.as_str(), CARRIED);
    }
    for joiner in JOINED {
        rest = rest.replace(joiner, "\u{1}");
    }
    let pieces: Vec<&str> = rest.split('\u{1}').collect();
    let saying = pieces.iter().filter(|p| carried.says_more(p)).count();
    // A piece made of what the call carries ("2+2" of "2+2? and is it even?", "0.125" of
    // "0.125 and 2.675", "please 12*7") is the call's own: one more piece that says
    // something is then another request. A piece that also names an argument ("1
    // decimal", "dataset adsl") only adds to the call.
    let the_calls = pieces.iter().any(|p| carried.is_the_calls(p));
    saying >= 2 || (saying == 1 && the_calls)
}

/// Where the message held a text the call carries.
const CARRIED: &str = " \u{2} ";

/// What a call carries of the message: its argument strings (lowercased, two characters
/// or more), its numbers, and the words of the argument names it gave.
struct Carried {
    texts: Vec<String>,
    numbers: Vec<f64>,
    names: Vec<String>,
}

impl Carried {
    fn of(arguments: &serde_json::Value) -> Self {
        let mut carried = Self {
            texts: Vec::new(),
            numbers: Vec::new(),
            names: Vec::new(),
        };
        carried.add(arguments);
        // The longest first: a text inside a longer one must not cut that one apart.
        carried
            .texts
            .sort_by_key(|t| std::cmp::Reverse(t.chars().count()));
        carried
    }

    fn add(&mut self, value: &serde_json::Value) {
        match value {
            serde_json::Value::String(s) => {
                let s = s.trim().to_lowercase();
                if s.chars().count() >= 2 {
                    self.texts.push(s);
                }
            }
            serde_json::Value::Number(n) => self.numbers.extend(n.as_f64()),
            serde_json::Value::Array(items) => items.iter().for_each(|v| self.add(v)),
            serde_json::Value::Object(map) => {
                for (name, v) in map {
                    self.names
                        .extend(name.to_lowercase().split('_').map(str::to_string));
                    self.add(v);
                }
            }
            _ => {}
        }
    }

    /// Whether a piece of the message says something beyond markers and what the call
    /// carries.
    fn says_more(&self, piece: &str) -> bool {
        words(piece).iter().any(|w| !self.absorbs(w))
    }

    /// Whether a piece holds something the call carries (a text or a number) and
    /// nothing else but markers.
    fn is_the_calls(&self, piece: &str) -> bool {
        let words = words(piece);
        (piece.contains(CARRIED) || words.iter().any(|w| self.has_number(w)))
            && words.iter().all(|w| self.has_number(w) || is_marker(w))
    }

    fn absorbs(&self, word: &str) -> bool {
        if is_marker(word) || self.has_number(word) {
            return true;
        }
        // "1 decimal" beside `decimals: 1`, "key …" beside `idem_key`: a word that is a
        // part of an argument's name, or shares its first four letters or more with it
        // (English only: the names are English).
        let length = word.chars().count();
        self.names.iter().any(|name| {
            name == word
                || (length >= 4 && name.chars().count() >= 4)
                    && (name.starts_with(word) || word.starts_with(name.as_str()))
        })
    }

    /// Whether `word` is a number the call carries ("2,340" is 2340).
    fn has_number(&self, word: &str) -> bool {
        word.replace(',', "")
            .parse::<f64>()
            .is_ok_and(|n| self.numbers.contains(&n))
    }
}

/// A piece's words: runs of letters, digits and the marks inside words and numbers
/// (`that's`, `sas-round`, `2,340.5`), and runs of CJK characters.
fn words(piece: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut cjk = false;
    for c in piece.chars() {
        let inside = c.is_alphanumeric() || in_word_mark(c);
        if !inside || (is_han(c) != cjk && !current.is_empty()) {
            push_word(&mut out, &mut current);
        }
        if inside {
            cjk = is_han(c);
            current.push(c);
        }
    }
    push_word(&mut out, &mut current);
    out
}

fn push_word(out: &mut Vec<String>, current: &mut String) {
    let mut word = current.trim_end_matches(in_word_mark);
    // A sign stays with its number: "-2.5" is not 2.5.
    let signed = word
        .strip_prefix('-')
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
    if !signed {
        word = word.trim_start_matches(in_word_mark);
    }
    if !word.is_empty() {
        out.push(word.to_string());
    }
    current.clear();
}

/// The marks that may stand inside a word or a number: `that's`, `sas-round`, `2,340.5`.
fn in_word_mark(c: char) -> bool {
    matches!(c, '.' | ',' | '-' | '\'' | '_')
}

/// Whether `word` is a marker, or a run of CJK characters made only of markers ("好的",
/// "谢谢你").
fn is_marker(word: &str) -> bool {
    if word.starts_with(is_han) {
        only_markers(word)
    } else {
        MARKERS.contains(&word)
    }
}

fn only_markers(run: &str) -> bool {
    // The longest marker first: "好的" before "好".
    let mut markers: Vec<&str> = MARKERS.iter().copied().filter(|m| !m.is_ascii()).collect();
    markers.sort_by_key(|m| std::cmp::Reverse(m.len()));
    let mut rest = run;
    'next: while !rest.is_empty() {
        for marker in &markers {
            if let Some(after) = rest.strip_prefix(marker) {
                rest = after;
                continue 'next;
            }
        }
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use deskmate_core::ToolResult;
    use serde_json::json;

    fn call(tool: &str, arguments: serde_json::Value) -> Outcome {
        Outcome::of(
            tool,
            &arguments.to_string(),
            super::super::CallStatus::Done,
            ToolResult::success(json!({})),
        )
    }

    #[test]
    fn a_joiner_between_two_requests_asks_for_more() {
        let down = [call("decrease_volume", json!({}))];
        assert!(may_ask_more(
            &down,
            "turn it down and switch the camera off"
        ));
        assert!(may_ask_more(&down, "mute, then lock the screen"));
        assert!(may_ask_more(&down, "小点声，然后关掉摄像头"));
        assert!(may_ask_more(&down, "关灯、开门"));
        let sum = [call("calculator", json!({"expression": "2+2"}))];
        assert!(may_ask_more(&sum, "2+2? and is it even?"));
        assert!(may_ask_more(&sum, "2+2 please, and is it even?"));
        assert!(may_ask_more(&sum, "请 2+2，然后告诉我现在几点"));
        assert!(!may_ask_more(&sum, "ok, 2+2?"));
        // The end of a sentence joins two requests too.
        assert!(may_ask_more(&down, "turn it down. lock the screen"));
        assert!(may_ask_more(&down, "小点声。关掉摄像头"));
        assert!(may_ask_more(&down, "小点声；关掉摄像头"));
        let rounded = [call("sas_round_rate", json!({"value": 2.5, "decimals": 0}))];
        assert!(may_ask_more(&rounded, "SAS-round 2.5, and -2.5"));
        let round = [call(
            "sas_round_rate",
            json!({"value": 0.125, "decimals": 2}),
        )];
        // A number the call does not carry is another thing asked for.
        assert!(may_ask_more(
            &round,
            "SAS-round 0.125 and 2.675 to 2 decimals"
        ));
        assert!(may_ask_more(&round, "0.125 and 2.675 to 2 decimals"));
        assert!(!may_ask_more(&round, "SAS-round 0.125, 2 decimals"));
        let frequency = [call(
            "frequency",
            json!({"dataset": "adsl", "variable": "SEX"}),
        )];
        assert!(may_ask_more(
            &frequency,
            "in adsl, give me the frequency of SEX and of RACE"
        ));
    }

    #[test]
    fn markers_and_what_the_call_carries_join_nothing() {
        let down = [call("decrease_volume", json!({}))];
        assert!(!may_ask_more(&down, "ugh, turn it down"));
        assert!(!may_ask_more(&down, "turn it down, thank you!"));
        assert!(!may_ask_more(&down, "小点声，谢谢你"));
        assert!(!may_ask_more(&down, "ok, camera off please"));
        assert!(!may_ask_more(&down, "turn it down, please"));
        assert!(!may_ask_more(&down, "好的，小点声"));
        assert!(!may_ask_more(&down, "turn it down"));
        let rate = [call(
            "sas_round_rate",
            json!({"numerator": 17, "denominator": 254, "decimals": 1}),
        )];
        assert!(!may_ask_more(
            &rate,
            "SAS-round 17 out of 254 as a percent, 1 decimal"
        ));
        let audit = [call(
            "append_audit",
            json!({"action": "ran QC checks", "dataset": "adsl", "idem_key": "qc-adsl-2024-06-01"}),
        )];
        assert!(!may_ask_more(
            &audit,
            "log it in the audit journal: action 'ran QC checks', dataset adsl, key qc-adsl-2024-06-01"
        ));
        let spoken = [call(
            "voice_msg_prompt",
            json!({"message": "大家好，欢迎光临"}),
        )];
        assert!(!may_ask_more(&spoken, "大声说一句：大家好，欢迎光临"));
        assert!(may_ask_more(
            &spoken,
            "说一句大家好，欢迎光临，然后把音量调大"
        ));
    }

    #[test]
    fn two_calls_answer_a_joined_message_and_a_choice_may_lead_on() {
        let sums = [
            call("calculator", json!({"expression": "12*7"})),
            call("calculator", json!({"expression": "2^10"})),
        ];
        assert!(!may_ask_more(&sums, "12*7 and 2^10?"));
        let chosen = [call(
            "text_choice_prompt",
            json!({"question": "Go on?", "options": ["Yes", "No"]}),
        )];
        assert!(may_ask_more(&chosen, "ask me whether to go on"));
    }

    #[test]
    fn words_keep_numbers_and_split_scripts() {
        assert_eq!(
            words("SAS-round 2,340.5 到 三位小数, that's it."),
            ["SAS-round", "2,340.5", "到", "三位小数", "that's", "it"]
        );
        assert_eq!(words("按sas的规则"), ["按", "sas", "的规则"]);
        assert_eq!(words("-2.5 and -x"), ["-2.5", "and", "x"]);
        assert_eq!(words("🙂 e\u{301}\u{301} １"), ["e", "１"]);
    }
}
