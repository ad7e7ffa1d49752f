//! Worked examples a tool gives the model: a request a person makes and the calls that
//! answer it. The chat's constrained prompt shows the examples of the tools it offers
//! ("User: a little louder please → {"calls":[{"name":"increase_volume","arguments":{}}]}"), so
//! a tool says how it is asked for next to its schema, and an HTTP or MCP tool could too.

/// What a worked example teaches the model. The prompt shows the examples in this order
/// (the order they were tuned in: the simplest call first), and examples that teach the
/// same thing in the order of the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Teaches {
    /// A call whose arguments the request leaves to their defaults ("a little louder please").
    Defaults,
    /// An argument whose value the request states ("I need 3% of 1,250").
    StatedValue,
    /// One tool called once for each of several things asked, all in one list.
    OneToolTwice,
    /// Several tools called in one list, one per action asked.
    SeveralTools,
    /// A tool called because the person asks for exactly what it does (code run in
    /// Python, a message read out loud), never as a stand-in for an answer.
    AskedFor,
    /// How a person asks for the tool in everyday words ("display 'back in 5' for me").
    /// Not shown in every prompt: the chat shows such an example only beside a request
    /// whose words are near it (or near the tool's own texts), so each tool can have a
    /// few in both languages without every turn reading them all.
    Wording,
}

impl Teaches {
    /// Whether every prompt that offers the tool shows the example; [`Teaches::Wording`]
    /// examples are shown only beside a request near them.
    pub fn always_shown(self) -> bool {
        self != Self::Wording
    }
}

/// One worked example: a request and the calls that answer it, as the model writes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Example {
    /// What the example teaches (where the prompt shows it).
    pub teaches: Teaches,
    /// What the person says, in the language they would say it in.
    pub request: &'static str,
    /// The things the request asks for, in the person's words, as the model lists them
    /// before its calls: one per thing asked (a part may take several calls). Empty when
    /// the request is one part.
    pub parts: &'static [&'static str],
    /// The calls that answer it, in order: each a tool id and its arguments as compact
    /// JSON text. An example that calls another tool is shown only when that tool is
    /// offered too.
    pub calls: &'static [(&'static str, &'static str)],
}

impl Example {
    /// The ids of the tools the example calls, in order (a tool called twice twice).
    pub fn tools(&self) -> impl Iterator<Item = &'static str> {
        self.calls.iter().map(|(tool, _)| *tool)
    }

    /// The parts of the request as the model lists them: [`Example::parts`], or the
    /// whole request when it is one part.
    pub fn parts(&self) -> Vec<&'static str> {
        if self.parts.is_empty() {
            vec![self.request]
        } else {
            self.parts.to_vec()
        }
    }
}
