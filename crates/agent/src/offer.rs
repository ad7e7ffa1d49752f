//! What a turn shows its model: the tools it offers (all enabled ones, those a caller
//! names, or the most relevant of many), the texts that describe each tool, the tools'
//! worked examples and those shown beside a request near them, and the prompt prefix every
//! turn starts with.

use std::collections::HashSet;

use deskmate_llm::wire::ToolDef;
use serde_json::Value;

use crate::agent::Agent;
use crate::protocol::Protocol;
use crate::{near, prompt, select, words};

impl Agent {
    /// The system prompt a constrained turn offering `tools` starts with (what the local
    /// model's server keeps warm): the instructions, the worked examples of these tools
    /// and their catalog.
    pub fn prefix_prompt(&self, tools: &[ToolDef]) -> String {
        prompt::system_prompt(Protocol::Constrained, tools, tools, &self.examples(tools))
    }

    /// The worked examples of the tools of a catalog, as its prompt shows them: each
    /// registered tool's own ([`deskmate_tools::Tool::examples`]).
    pub(crate) fn examples(&self, catalog: &[ToolDef]) -> Vec<deskmate_tools::Example> {
        let registry = self.deskmate.registry();
        prompt::examples_for(catalog, |id| {
            registry
                .tool(id)
                .map(|t| t.examples().to_vec())
                .unwrap_or_default()
        })
    }

    /// The examples a request to a constrained model offering `catalog` may be shown
    /// beside it ([`near`]): the tools' everyday-words examples and the answers no tool
    /// gives, with each tool's texts in both languages.
    pub(crate) fn near_pool(&self, catalog: &[ToolDef]) -> near::Pool {
        let registry = self.deskmate.registry();
        prompt::near_pool(
            catalog,
            |id| {
                registry
                    .tool(id)
                    .map(|t| t.examples().to_vec())
                    .unwrap_or_default()
            },
            |id| registry.specs().find(|s| s.id == id).map(named),
            |id| registry.specs().find(|s| s.id == id).map(about),
        )
    }

    /// The tools a turn offers: the enabled ones, or those of them named in `only`, in
    /// registration order (so the prompt built from them is the same every time).
    pub fn offered_tools(&self, only: Option<&[String]>) -> Vec<ToolDef> {
        self.deskmate
            .enabled_specs()
            .iter()
            .filter(|s| only.is_none_or(|ids| ids.contains(&s.id)))
            .map(|s| ToolDef::function(&s.id, &s.description, s.parameters_for_model()))
            .collect()
    }

    /// The tools a chat turn offers for what the person `said` (their message, and the one
    /// before it) when the caller names none: all enabled ones, or, when there are many,
    /// the built-in ones and the most relevant others (`select`, which reads each tool's
    /// texts in both languages). With nothing said, the set every turn's prompt starts with.
    pub fn chat_tools(&self, said: &str) -> Vec<ToolDef> {
        let registry = self.deskmate.registry();
        let enabled: Vec<&deskmate_core::ToolSpec> = registry
            .specs()
            .filter(|s| registry.guard().is_enabled(&s.id))
            .collect();
        let def = |s: &&deskmate_core::ToolSpec| {
            ToolDef::function(&s.id, &s.description, s.parameters_for_model())
        };
        if enabled.len() <= select::OFFER_ALL_UP_TO {
            return enabled.iter().map(def).collect();
        }
        // Known without asking the database (this runs on every registry change); without
        // a store every tool is a built-in one.
        let builtin = self.deskmate.system_tool_ids();
        let is_builtin =
            |s: &&&deskmate_core::ToolSpec| builtin.as_ref().is_none_or(|ids| ids.contains(&s.id));
        if !words::has_terms(said) {
            // Nothing to choose by: the built-in tools alone, without describing the rest.
            return enabled.iter().filter(is_builtin).map(def).collect();
        }
        let core: HashSet<String> = enabled
            .iter()
            .filter(is_builtin)
            .map(|s| s.id.clone())
            .collect();
        let described = enabled.iter().map(|s| (def(s), about(s))).collect();
        select::select(said, described, &core)
    }
}

/// Everything that describes a tool to a person, in both languages: its description, display
/// names and summaries, and its parameters' descriptions (English and Chinese).
pub(crate) fn about(spec: &deskmate_core::ToolSpec) -> String {
    fn texts(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                for (key, v) in map {
                    match (key.as_str(), v) {
                        ("description" | "x-description-zh" | "title", Value::String(s)) => {
                            out.push(s.clone());
                        }
                        _ => texts(v, out),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|v| texts(v, out)),
            _ => {}
        }
    }
    let mut out = described(spec, &spec.description);
    texts(&spec.parameters, &mut out);
    out.join(" ")
}

/// What a tool is, in a few words of both languages: its display names and summaries and
/// the first sentence of its description (the catalog line's). Unlike [`about`], not its
/// parameters' texts: a long tool's many words would bring its examples near many
/// requests.
pub(crate) fn named(spec: &deskmate_core::ToolSpec) -> String {
    described(
        spec,
        deskmate_llm::envelope::first_sentence(&spec.description),
    )
    .join(" ")
}

/// `description`, then the tool's display names and summaries in both languages.
pub(crate) fn described(spec: &deskmate_core::ToolSpec, description: &str) -> Vec<String> {
    let mut out = vec![
        description.to_string(),
        spec.name.en.clone(),
        spec.name.zh.clone(),
    ];
    if let Some(summary) = &spec.summary {
        out.push(summary.en.clone());
        out.push(summary.zh.clone());
    }
    out
}
