//! Words in the other language: the model says which language the person wants, and
//! writes the reply again when it is not theirs ([`crate::reply_language`]). Stopping the
//! turn meanwhile ends it.

use async_trait::async_trait;
use deskmate_llm::ChatClient;
use deskmate_llm::wire::ChatRequest;
use deskmate_service::language::Language;
use tokio_util::sync::CancellationToken;

use super::{Draft, Inspector};
use crate::reply_language;
use crate::types::StopReason;

/// Has a reply in the other language written again.
pub(crate) struct Mend<'a> {
    /// The model's server.
    pub client: &'a ChatClient,
    /// The request that got the reply, and the reply as it came.
    pub request: &'a ChatRequest,
    pub raw: &'a str,
    /// The person's message, and the language it is written in.
    pub message: &'a str,
    pub language: Language,
    /// Fires when the person stops the turn.
    pub cancel: &'a CancellationToken,
}

#[async_trait]
impl Inspector<Draft> for Mend<'_> {
    fn name(&self) -> &'static str {
        "language"
    }

    async fn inspect(&self, draft: &mut Draft) {
        if !draft.own() || !reply_language::off(&draft.text, self.language) {
            return;
        }
        let mended = tokio::select! {
            mended = reply_language::mend(self.client, self.request, self.raw, &draft.text, self.message, self.language) => mended,
            () = self.cancel.cancelled() => {
                draft.text = String::new();
                draft.stop = StopReason::Cancelled;
                return;
            }
        };
        if let Some(again) = mended {
            tracing::info!(reply = %draft.text, again = %again, "the reply was written again in the language the person wants");
            draft.text = again;
        }
    }
}
