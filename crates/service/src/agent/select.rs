//! Which tools a chat turn offers when many are enabled.
//!
//! Every offered tool costs prompt tokens (a catalog line of about 40) and gives a small
//! model one more wrong choice. Up to [`OFFER_ALL_UP_TO`] enabled tools, a turn offers them
//! all. Above that, the built-in tools are always offered (they are the fixed part of the
//! prompt the model server keeps cached), and of the others (HTTP and imported tools) only
//! the [`EXTRA`] most relevant to what the person said (this message and the one before),
//! by the words they share with what describes the tool in either language — its id, its
//! description, its display names and summaries, its parameters' descriptions (English
//! and `x-description-zh`) — each word weighted by how rare it is among the candidates;
//! Chinese by character pairs. A candidate that shares nothing is not offered. The chosen ones keep
//! registration order and come last in the catalog, so the cached prefix is the same for
//! every message and only the short tail differs.

use std::collections::{HashMap, HashSet};

use deskmate_llm::wire::ToolDef;

/// Up to this many enabled tools, every one is offered.
pub const OFFER_ALL_UP_TO: usize = 32;

/// Above [`OFFER_ALL_UP_TO`], at most this many tools besides the built-in ones.
pub const EXTRA: usize = 8;

/// Words too common to tell tools apart.
const STOP: [&str; 40] = [
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "get", "give",
    "how", "i", "in", "is", "it", "me", "my", "of", "on", "or", "please", "show", "that", "the",
    "this", "to", "tool", "use", "what", "when", "which", "with", "you", "your", "returns", "now",
];

/// The tools to offer for `said` (what the person said): all of `tools` when there are
/// few; otherwise the ones in `core` plus the most relevant others. Each tool comes with
/// the text that describes it (both languages).
pub fn select(said: &str, tools: Vec<(ToolDef, String)>, core: &HashSet<String>) -> Vec<ToolDef> {
    if tools.len() <= OFFER_ALL_UP_TO {
        return tools.into_iter().map(|(t, _)| t).collect();
    }
    let wanted = terms(said);
    let candidates: Vec<(usize, HashSet<String>)> = tools
        .iter()
        .enumerate()
        .filter(|(_, (t, _))| !core.contains(&t.function.name))
        .map(|(i, (t, about))| (i, terms(&format!("{} {about}", t.function.name))))
        .collect();
    // How many candidates each word appears in: a word most of them share says little.
    let mut spread: HashMap<&str, usize> = HashMap::new();
    for (_, words) in &candidates {
        for word in words {
            *spread.entry(word.as_str()).or_default() += 1;
        }
    }
    let total = candidates.len() as f64;
    let mut scored: Vec<(f64, usize)> = candidates
        .iter()
        .map(|(i, words)| {
            let score: f64 = wanted
                .iter()
                .filter(|w| words.contains(*w))
                .map(|w| (1.0 + total / spread.get(w.as_str()).copied().unwrap_or(1) as f64).ln())
                .sum();
            (score, *i)
        })
        .filter(|(score, _)| *score > 0.0)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let chosen: HashSet<usize> = scored.iter().take(EXTRA).map(|(_, i)| *i).collect();
    let (mut fixed, mut tail) = (Vec::new(), Vec::new());
    for (i, (tool, _)) in tools.into_iter().enumerate() {
        if core.contains(&tool.function.name) {
            fixed.push(tool);
        } else if chosen.contains(&i) {
            tail.push(tool);
        }
    }
    fixed.extend(tail);
    fixed
}

/// Lower-case words (split at anything not a letter or digit, so `read_file` is two; a
/// plural `s` dropped), without stop words; Chinese as overlapping character pairs.
/// Whether a message has any word to choose tools by (an empty one chooses none: the
/// built-in tools alone).
pub(crate) fn has_terms(message: &str) -> bool {
    !terms(message).is_empty()
}

fn terms(text: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut word = String::new();
    let mut han: Vec<char> = Vec::new();
    let flush_word = |word: &mut String, out: &mut HashSet<String>| {
        let mut w = std::mem::take(word).to_lowercase();
        if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") {
            w.pop();
        }
        if w.len() > 1 && !STOP.contains(&w.as_str()) {
            out.insert(w);
        }
    };
    let flush_han = |han: &mut Vec<char>, out: &mut HashSet<String>| {
        if han.len() == 1 {
            out.insert(han[0].to_string());
        }
        for pair in han.windows(2) {
            out.insert(pair.iter().collect());
        }
        han.clear();
    };
    for c in text.chars() {
        if super::is_han(c) {
            flush_word(&mut word, &mut out);
            han.push(c);
        } else if c.is_alphanumeric() {
            flush_han(&mut han, &mut out);
            word.push(c);
        } else {
            flush_word(&mut word, &mut out);
            flush_han(&mut han, &mut out);
        }
    }
    flush_word(&mut word, &mut out);
    flush_han(&mut han, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str, description: &str) -> (ToolDef, String) {
        (
            ToolDef::function(
                name,
                description,
                json!({"type": "object", "properties": {}}),
            ),
            description.to_string(),
        )
    }

    fn many() -> (Vec<(ToolDef, String)>, HashSet<String>) {
        let mut tools = vec![
            tool("calculator", "Evaluates an arithmetic expression."),
            tool("current_time", "Returns the current date and time."),
        ];
        let core: HashSet<String> = tools.iter().map(|t| t.0.function.name.clone()).collect();
        tools.push(tool(
            "read_file",
            "Reads a text file from the allowed folders.",
        ));
        tools.push(tool("write_file", "Writes a text file, replacing it."));
        tools.push(tool(
            "git_status",
            "Shows the working tree status of a git repository.",
        ));
        tools.push(tool(
            "weather",
            "Current weather and forecast for a city. 查询城市天气。",
        ));
        // Described in English, with a Chinese display name and parameter description.
        tools.push((
            tool("get_stock_quote", "").0,
            "Latest price of a stock. 股票行情 股票代码".to_string(),
        ));
        for i in 0..40 {
            tools.push(tool(
                &format!("noise_{i}"),
                &format!("Does unrelated thing number {i}."),
            ));
        }
        (tools, core)
    }

    fn names(tools: &[ToolDef]) -> Vec<&str> {
        tools.iter().map(|t| t.function.name.as_str()).collect()
    }

    #[test]
    fn few_tools_are_all_offered() {
        let tools = vec![tool("a", "x"), tool("b", "y")];
        assert_eq!(
            names(&select("anything", tools.clone(), &HashSet::new())),
            ["a", "b"]
        );
    }

    #[test]
    fn many_tools_keep_the_core_and_add_only_relevant_ones_last() {
        let (tools, core) = many();
        let chosen = select("please read the file notes.txt", tools.clone(), &core);
        assert_eq!(names(&chosen)[..2], ["calculator", "current_time"]);
        assert!(
            names(&chosen).contains(&"read_file"),
            "{:?}",
            names(&chosen)
        );
        assert!(
            !names(&chosen).contains(&"git_status"),
            "{:?}",
            names(&chosen)
        );
        assert!(chosen.len() <= 2 + EXTRA);
        assert_eq!(
            names(&select(
                "what's the git status of my repo?",
                tools.clone(),
                &core
            ))[2..],
            ["git_status"]
        );
        assert_eq!(
            names(&select("明天天气怎么样", tools.clone(), &core))[2..],
            ["weather"]
        );
        assert_eq!(
            names(&select("帮我查一下股票", tools.clone(), &core))[2..],
            ["get_stock_quote"]
        );
        // What the person said before counts: a follow-up names nothing itself.
        assert_eq!(
            names(&select(
                "what's the weather in Paris\nand tomorrow?",
                tools.clone(),
                &core
            ))[2..],
            ["weather"]
        );
        // A greeting adds nothing: the prompt is the cached core alone.
        assert_eq!(
            names(&select("hi", tools, &core)),
            ["calculator", "current_time"]
        );
    }

    #[test]
    fn words_are_split_and_singular() {
        let t = terms("read_file Files 读取文件");
        for w in ["read", "file", "读取", "取文", "文件"] {
            assert!(t.contains(w), "{w} in {t:?}");
        }
        assert!(!t.contains("the"));
    }
}
