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
        }
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
                self.show(piece);
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
                self.show(held);
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
        }
    }
}
