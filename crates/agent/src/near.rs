//! Worked examples near the request: the few examples of the offered tools (and of answers
//! no tool gives) whose words are closest to what the person said, shown to the model
//! just before their message.
//!
//! The prompt every turn starts with shows a handful of examples that teach the reply's
//! form; it cannot show how each tool is asked for in everyday words in both languages
//! without every turn reading them all (and a small model copying their one-call shape
//! onto requests for two things). A tool's [`Teaches::Wording`](deskmate_tools::Teaches)
//! examples are shown here instead, only when the request is near them. Near means the
//! words it shares with the example's request and with what the tool the example calls is
//! (its names and summaries in both languages and its description's first sentence), each
//! word weighted by how rare it is among every text of the offered tools and the examples'
//! requests (`words::terms`: Chinese by character pairs; numbers do not count): a word most
//! tool texts hold ("一下", "tell") says little. An example in the other language than the
//! person's counts a little less. A request that shares
//! nothing rare with any of them gets none, and its turn reads the prompt as before.
//!
//! Nothing here decides the turn: the model still chooses its tools (or none) under the
//! same grammar; the examples are what it reads.

use std::collections::{HashMap, HashSet};

use deskmate_service::language::{Language, is_han};

use crate::words::terms;

/// At most this many examples beside one request.
const SHOWN: usize = 2;

/// The least score an example needs to be shown: more than one rare word (or character
/// pair) in common. Measured on requests written for the measurement (BENCHMARKS).
const NEAR_ENOUGH: f64 = 3.0;

/// What an example in the other language than the person's loses of its score.
const OTHER_LANGUAGE: f64 = 1.0;

/// One example the model may be shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Candidate {
    /// What the person says.
    pub request: String,
    /// The reply, as the model writes it.
    pub reply: String,
    /// The tool the example calls first; `None` for an answer no tool gives.
    pub tool: Option<String>,
}

/// The examples to choose from and what describes each offered tool.
#[derive(Debug, Default)]
pub(crate) struct Pool {
    /// The examples.
    pub examples: Vec<Candidate>,
    /// What each offered tool is, in a few words of both languages, by id.
    pub tools: HashMap<String, String>,
    /// Every text of the offered tools (descriptions, names, summaries, parameters; both
    /// languages), one entry a tool: what tells a rare word from a common one.
    pub texts: Vec<String>,
}

/// How rare each word is among some texts: `ln((n + 1) / (texts holding it + 0.5))`.
struct Rarity {
    total: f64,
    holding: HashMap<String, usize>,
}

impl Rarity {
    fn of<'a>(texts: impl Iterator<Item = &'a HashSet<String>>) -> Self {
        let mut holding: HashMap<String, usize> = HashMap::new();
        let mut total = 0.0;
        for words in texts {
            total += 1.0;
            for word in words {
                *holding.entry(word.clone()).or_default() += 1;
            }
        }
        Self { total, holding }
    }

    /// The weight of the words `wanted` shares with `words`.
    fn shared(&self, wanted: &HashSet<String>, words: &HashSet<String>) -> f64 {
        wanted
            .intersection(words)
            .map(|w| {
                let holding = self.holding.get(w).copied().unwrap_or(0) as f64;
                ((self.total + 1.0) / (holding + 0.5)).ln()
            })
            .sum()
    }
}

/// The examples of `pool` nearest to `message` (at most [`SHOWN`], nearest first), for a
/// person writing in `language`.
pub(crate) fn near<'a>(message: &str, language: Language, pool: &'a Pool) -> Vec<&'a Candidate> {
    // Numbers say nothing of which tool: "12/4" is not near "45*12".
    let mut wanted = terms(message);
    wanted.retain(|w| !w.chars().all(|c| c.is_ascii_digit()));
    if wanted.is_empty() {
        return Vec::new();
    }
    let requests: Vec<HashSet<String>> = pool.examples.iter().map(|e| terms(&e.request)).collect();
    let tools: HashMap<&str, HashSet<String>> = pool
        .tools
        .iter()
        .map(|(id, about)| (id.as_str(), terms(&format!("{id} {about}"))))
        .collect();
    let texts: Vec<HashSet<String>> = pool.texts.iter().map(|t| terms(t)).collect();
    let rarity = Rarity::of(texts.iter().chain(&requests));
    let mut scored: Vec<(f64, usize)> = pool
        .examples
        .iter()
        .zip(&requests)
        .enumerate()
        .map(|(i, (example, words))| {
            let mut score = rarity.shared(&wanted, words);
            if let Some(about) = example.tool.as_deref().and_then(|t| tools.get(t)) {
                score += rarity.shared(&wanted, about);
            }
            if example.request.chars().any(is_han) != language.zh() {
                score -= OTHER_LANGUAGE;
            }
            (score, i)
        })
        .filter(|(score, _)| *score >= NEAR_ENOUGH)
        .collect();
    // Nearest first; equal scores in the pool's order.
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    scored
        .into_iter()
        .take(SHOWN)
        .map(|(_, i)| &pool.examples[i])
        .collect()
}

/// The message that shows `examples` to the model (written as the prompt's own examples
/// are); `None` when there are none.
pub(crate) fn message(examples: &[&Candidate]) -> Option<String> {
    if examples.is_empty() {
        return None;
    }
    let lines: Vec<String> = examples
        .iter()
        .map(|e| format!("User: {} → {}", e.request, e.reply))
        .collect();
    Some(format!("Examples like this request:\n{}", lines.join("\n")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(request: &str, tool: Option<&str>) -> Candidate {
        Candidate {
            request: request.into(),
            reply: format!("<{}>", tool.unwrap_or("none")),
            tool: tool.map(Into::into),
        }
    }

    fn pool() -> Pool {
        let mut pool = Pool {
            examples: vec![
                example("show a message on screen: backup done", Some("notify")),
                example("在屏幕上显示：文件已保存", Some("notify")),
                example("switch off the camera", Some("camera_off")),
                example("把摄像头关掉", Some("camera_off")),
                example("lock the front door", None),
            ],
            tools: HashMap::from([
                (
                    "notify".to_string(),
                    "Shows a short text message as a desktop notification. 以桌面通知的形式显示一条消息。"
                        .to_string(),
                ),
                (
                    "camera_off".to_string(),
                    "Turns the camera off. 关闭摄像头。".to_string(),
                ),
                ("clock".to_string(), "Tells the current time. 当前时间。".to_string()),
                ("louder".to_string(), "Turns the volume up. 调高音量。".to_string()),
                ("sum".to_string(), "Works out arithmetic. 计算算术。".to_string()),
                ("say".to_string(), "Reads a message aloud. 朗读一段话。".to_string()),
                ("ask".to_string(), "Asks a question in a dialog. 弹出对话框。".to_string()),
                ("notes".to_string(), "Searches your notes. 搜索笔记。".to_string()),
            ]),
            texts: Vec::new(),
        };
        // Every tool's texts: here its few words.
        pool.texts = pool.tools.values().cloned().collect();
        pool
    }

    fn requests(message: &str, language: Language) -> Vec<String> {
        let pool = pool();
        near(message, language, &pool)
            .into_iter()
            .map(|e| e.request.clone())
            .collect()
    }

    #[test]
    fn a_request_is_shown_the_examples_of_the_tool_its_words_describe() {
        // "notification" is in the tool's texts, not in any example's request.
        let shown = requests(
            "give me a desktop notification: tea time",
            Language::English,
        );
        assert_eq!(
            shown.first().map(String::as_str),
            Some("show a message on screen: backup done")
        );
        // Chinese by character pairs, the example in Chinese first.
        let shown = requests("发个桌面通知：下载完成", Language::Chinese);
        assert_eq!(
            shown.first().map(String::as_str),
            Some("在屏幕上显示：文件已保存")
        );
        let shown = requests("摄像头关了吧", Language::Chinese);
        assert_eq!(shown.first().map(String::as_str), Some("把摄像头关掉"));
    }

    #[test]
    fn a_request_near_nothing_is_shown_nothing() {
        assert!(requests("法国的首都是哪里", Language::Chinese).is_empty());
        assert!(requests("write a haiku about autumn", Language::English).is_empty());
        assert!(requests("", Language::English).is_empty());
        // A number in common is not nearness.
        let mut pool = pool();
        pool.examples.push(example("what's 45*12?", Some("sum")));
        assert!(near("add 45 and 12", Language::English, &pool).is_empty());
        assert_eq!(message(&[]), None);
    }

    #[test]
    fn at_most_two_are_shown_as_the_prompt_writes_examples() {
        let pool = pool();
        let shown = near(
            "switch off the camera, show a message on screen",
            Language::English,
            &pool,
        );
        assert_eq!(shown.len(), SHOWN);
        let text = message(&shown).unwrap_or_default();
        assert!(
            text.starts_with("Examples like this request:\nUser: "),
            "{text}"
        );
        assert_eq!(text.lines().count(), 3, "{text}");
    }
}
