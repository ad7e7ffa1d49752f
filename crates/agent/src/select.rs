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
//! Chinese by character pairs (`words::terms`). A candidate that shares nothing is not
//! offered. The chosen ones keep registration order and come last in the catalog, so the
//! cached prefix is the same for every message and only the short tail differs.

use std::collections::{HashMap, HashSet};

use deskmate_llm::wire::ToolDef;

use crate::words::terms;

/// Up to this many enabled tools, every one is offered.
pub const OFFER_ALL_UP_TO: usize = 32;

/// Above [`OFFER_ALL_UP_TO`], at most this many tools besides the built-in ones.
pub const EXTRA: usize = 8;

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
}
