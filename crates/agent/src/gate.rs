//! What of a reply streams to the person as it arrives, and when it is held back.

use deskmate_llm::StreamEvent;
use deskmate_llm::envelope::{self};
use deskmate_service::language::Language;
use tokio::sync::mpsc::UnboundedSender;

use crate::protocol::Protocol;
use crate::types::{AgentEvent, PlanPart, emit};

/// Passes a reply's text to the person as it streams: a native reply unless it starts
/// like a call written as text, a constrained reply's answer decoded from its JSON. Holds
/// all of it when `hold` (the reply after tools ran is checked against their results
/// before it is shown).
pub(crate) struct TokenGate<'a> {
    events: &'a UnboundedSender<AgentEvent>,
    answer: Option<envelope::AnswerStream>,
    /// The first request's parts as they are decoded, sent as the turn's plan.
    plan: Option<envelope::PartsStream>,
    hold: bool,
    held: String,
    passing: Option<bool>,
    shown: bool,
    /// The turn's language: a constrained answer is held back until its first words
    /// show its language, and all of it when that is the other one (the turn may write
    /// it again, `reply_language`).
    language: Language,
    /// Whether a constrained answer's language is known to be the turn's (or cannot be
    /// told): what is held is shown and the rest streams.
    settled: bool,
    /// An answer that may be looked at again ([`crate::look_again`]) is shown sentence
    /// by sentence, and from the first sentence with a figure none of these texts holds,
    /// not at all (the turn may end with calls instead).
    watch: Option<Watch>,
}

/// A constrained answer shown a sentence at a time until one states a new figure.
struct Watch {
    /// The figures of what the model read, which it may say back.
    known: Vec<String>,
    /// The answer so far.
    answer: String,
    /// How much of `answer` has been passed on.
    passed: usize,
    /// A sentence with a new figure was reached: nothing more is passed on.
    stopped: bool,
}

impl Watch {
    /// The answer's next piece: what of it can be shown now.
    fn feed(&mut self, piece: &str) -> String {
        self.answer.push_str(piece);
        if self.stopped {
            return String::new();
        }
        let pending = &self.answer[self.passed..];
        if let Some(at) = crate::figures::first_new(pending, &self.known) {
            self.stopped = true;
            let end = self.passed + crate::figures::sentence_start(pending, at);
            return self.take(end);
        }
        // Up to the last complete sentence: the next one may still hold a figure.
        let end = self.passed + crate::figures::sentence_start(pending, pending.len());
        self.take(end)
    }

    fn take(&mut self, end: usize) -> String {
        let out = self.answer[self.passed..end].to_string();
        self.passed = end;
        out
    }
}

impl<'a> TokenGate<'a> {
    pub(crate) fn new(
        events: &'a UnboundedSender<AgentEvent>,
        protocol: Protocol,
        hold: bool,
        language: Language,
    ) -> Self {
        Self {
            events,
            answer: (protocol == Protocol::Constrained).then(envelope::AnswerStream::new),
            plan: (protocol == Protocol::Constrained && !hold).then(envelope::PartsStream::new),
            hold,
            held: String::new(),
            passing: None,
            shown: false,
            language,
            settled: false,
            watch: None,
        }
    }

    /// Shows a constrained answer a sentence at a time and none of it from a sentence
    /// stating a figure that none of `read` holds.
    pub(crate) fn watching(mut self, read: &[String]) -> Self {
        self.watch = Some(Watch {
            known: crate::figures::known(read),
            answer: String::new(),
            passed: 0,
            stopped: false,
        });
        self
    }

    /// Passes a piece of a constrained answer through the watch, if any.
    fn pass(&mut self, text: String) {
        let text = match &mut self.watch {
            Some(watch) => watch.feed(&text),
            None => text,
        };
        self.show(text);
    }

    fn show(&mut self, text: String) {
        if !text.is_empty() {
            self.shown = true;
            emit(self.events, AgentEvent::Token { text });
        }
    }

    pub(crate) fn on(&mut self, event: StreamEvent) {
        let StreamEvent::Token(text) = event else {
            return;
        };
        if let Some(plan) = &mut self.plan
            && plan.feed(&text)
        {
            let parts = plan
                .parts()
                .iter()
                .map(|p| PlanPart {
                    ask: p.ask.clone(),
                    tool: p.tool.clone(),
                })
                .collect();
            emit(self.events, AgentEvent::Plan { parts });
        }
        if self.hold {
            return;
        }
        if let Some(answer) = &mut self.answer {
            let piece = answer.feed(&text);
            if self.settled {
                self.pass(piece);
                return;
            }
            self.held.push_str(&piece);
            if crate::reply_language::off(&self.held, self.language) {
                // The other language: held whole; the reply shown is the one the turn
                // ends with.
                self.hold = true;
                return;
            }
            // Known to be the turn's language, or long enough that the start will not
            // tell: shown from here on.
            if Language::written(&self.held).is_some() || self.held.chars().count() > 32 {
                self.settled = true;
                let held = std::mem::take(&mut self.held);
                self.pass(held);
            }
            return;
        }
        match self.passing {
            Some(true) => self.show(text),
            Some(false) => self.held.push_str(&text),
            None => {
                self.held.push_str(&text);
                let start = self.held.trim_start();
                if start.is_empty() {
                    return;
                }
                let pass = !start.starts_with(['{', '[', '<', '`']);
                self.passing = Some(pass);
                if pass {
                    let text = std::mem::take(&mut self.held);
                    self.show(text);
                }
            }
        }
    }

    /// The reply is complete: `text` is what the person should read of it; shown now
    /// unless it was streamed already.
    pub(crate) fn finish(mut self, text: &str) {
        if !self.shown && !text.trim().is_empty() {
            self.show(text.to_string());
            return;
        }
        // A watched answer that ends as it began: the rest of it.
        if let Some(watch) = &self.watch
            && let Some(rest) = text.strip_prefix(&watch.answer[..watch.passed])
        {
            let rest = rest.to_string();
            self.show(rest);
        }
    }
}
