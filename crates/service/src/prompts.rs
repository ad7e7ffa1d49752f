//! The prompt broker: questions that wait for a person — confirmations of calls whose
//! policy says "ask", and choice dialogs. Each pending prompt has an id and an expiry;
//! the GUI shows it, and headless it is answered through the API. No answer before the
//! expiry means no; a caller that stops waiting (a cancelled turn) removes its prompt.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::oneshot;
use utoipa::ToSchema;

use crate::body::Body;
use crate::error::FieldError;
use crate::hooks::{ConfirmRequest, Confirmation, Confirmer, Grant};

/// What a prompt asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PromptKind {
    /// Approve a call or not (`{"approve": bool}`, and how far a yes reaches:
    /// `{"approve": true, "remember": "conversation" | "always"}`).
    Confirm,
    /// Pick one of the options (`{"index": N}` or `{"choice": "text"}`).
    Choice,
}

/// A question waiting for a person.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Prompt {
    /// Prompt id (answer with `POST /api/v1/prompts/{id}/answer`).
    pub id: String,
    /// Confirm a call, or pick one option.
    pub kind: PromptKind,
    /// Unix seconds.
    pub created_at: f64,
    /// Unix seconds; no answer by then means no.
    pub expires_at: f64,
    /// The question or the reason for the confirmation.
    pub question: String,
    /// The options of a choice.
    pub options: Vec<String>,
    /// For a confirmation: the call waiting for it.
    pub call: Option<ConfirmRequest>,
}

/// A person's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// For a confirmation: no, or yes as far as the grant reaches.
    Approve(Option<Grant>),
    /// For a choice: the option's index.
    Choice(usize),
}

/// Why an answer was not taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AnswerError {
    /// No such pending prompt (never was, answered, expired or cancelled).
    #[error("no pending prompt '{0}'")]
    NotFound(String),
    /// The answer does not fit the prompt.
    #[error("{0}")]
    Invalid(String),
}

/// How a choice ended without a choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ChoiceError {
    /// Nobody answered in time.
    #[error("nobody answered before the timeout")]
    TimedOut,
}

struct Pending {
    prompt: Prompt,
    reply: oneshot::Sender<Answer>,
}

/// The broker.
pub struct PromptBroker {
    pending: Mutex<HashMap<String, Pending>>,
    confirm_timeout: Duration,
    /// Every new prompt, for front ends that push them (chat SSE, the GUI).
    created: tokio::sync::broadcast::Sender<Prompt>,
}

impl std::fmt::Debug for PromptBroker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PromptBroker")
            .field("pending", &self.list().len())
            .finish()
    }
}

/// Removes its prompt when the waiting side stops waiting, however it stops.
struct Withdraw<'a> {
    broker: &'a PromptBroker,
    id: String,
}

impl Drop for Withdraw<'_> {
    fn drop(&mut self) {
        if let Ok(mut pending) = self.broker.pending.lock() {
            pending.remove(&self.id);
        }
    }
}

fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or_default()
}

impl PromptBroker {
    /// A broker whose confirmations expire after `confirm_timeout`.
    pub fn new(confirm_timeout: Duration) -> Arc<Self> {
        Arc::new(Self {
            pending: Mutex::new(HashMap::new()),
            confirm_timeout,
            created: tokio::sync::broadcast::channel(64).0,
        })
    }

    /// New prompts as they are asked (a receiver that lags misses the oldest).
    pub fn subscribe(&self) -> tokio::sync::broadcast::Receiver<Prompt> {
        self.created.subscribe()
    }

    /// The prompts waiting now, oldest first.
    pub fn list(&self) -> Vec<Prompt> {
        let pending = self
            .pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut prompts: Vec<Prompt> = pending
            .values()
            .map(|p| p.prompt.clone())
            .filter(|p| p.expires_at > now())
            .collect();
        prompts.sort_by(|a, b| a.created_at.total_cmp(&b.created_at));
        prompts
    }

    /// Answers a prompt from an API body: `{"approve": bool}` for a confirmation,
    /// `{"index": N}` or `{"choice": "text"}` for a choice.
    pub fn answer_body(&self, id: &str, body: &PromptAnswer) -> Result<(), AnswerError> {
        let answer = {
            let pending = self
                .pending
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let prompt = &pending
                .get(id)
                .ok_or_else(|| AnswerError::NotFound(id.to_string()))?
                .prompt;
            parse_answer(prompt, body)?
        };
        self.answer(id, answer)
    }

    /// Answers a prompt.
    pub fn answer(&self, id: &str, answer: Answer) -> Result<(), AnswerError> {
        let entry = {
            let mut pending = self
                .pending
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            pending
                .remove(id)
                .ok_or_else(|| AnswerError::NotFound(id.to_string()))?
        };
        if entry.prompt.expires_at <= now() {
            return Err(AnswerError::NotFound(id.to_string()));
        }
        // The waiter may have just given up; then the answer simply goes nowhere.
        let _ = entry.reply.send(answer);
        Ok(())
    }

    async fn ask(
        &self,
        kind: PromptKind,
        question: String,
        options: Vec<String>,
        call: Option<ConfirmRequest>,
        timeout: Duration,
    ) -> Option<Answer> {
        let id = uuid::Uuid::new_v4().simple().to_string()[..12].to_string();
        let (reply, wait) = oneshot::channel();
        let created_at = now();
        let prompt = Prompt {
            id: id.clone(),
            kind,
            created_at,
            expires_at: created_at + timeout.as_secs_f64(),
            question,
            options,
            call,
        };
        self.pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(
                id.clone(),
                Pending {
                    prompt: prompt.clone(),
                    reply,
                },
            );
        // Nobody listening is fine: the prompt is also listed.
        let _ = self.created.send(prompt);
        let _withdraw = Withdraw { broker: self, id };
        tokio::time::timeout(timeout, wait)
            .await
            .ok()
            .and_then(Result::ok)
    }

    /// Asks a person to pick one of `options`; returns the index and the option.
    pub async fn choose(
        &self,
        question: &str,
        options: &[String],
        timeout: Duration,
    ) -> Result<(usize, String), ChoiceError> {
        match self
            .ask(
                PromptKind::Choice,
                question.to_string(),
                options.to_vec(),
                None,
                timeout,
            )
            .await
        {
            Some(Answer::Choice(index)) if index < options.len() => {
                Ok((index, options[index].clone()))
            }
            _ => Err(ChoiceError::TimedOut),
        }
    }
}

fn parse_answer(prompt: &Prompt, body: &PromptAnswer) -> Result<Answer, AnswerError> {
    let invalid = |m: &str| AnswerError::Invalid(m.to_string());
    match prompt.kind {
        PromptKind::Confirm => confirmation(prompt, body),
        PromptKind::Choice => {
            if let Some(index) = body.index {
                let index = usize::try_from(index).unwrap_or(usize::MAX);
                return if index < prompt.options.len() {
                    Ok(Answer::Choice(index))
                } else {
                    Err(AnswerError::Invalid(format!(
                        "index must be 0 to {}",
                        prompt.options.len().saturating_sub(1)
                    )))
                };
            }
            if let Some(choice) = &body.choice {
                return prompt
                    .options
                    .iter()
                    .position(|o| o.trim().eq_ignore_ascii_case(choice.trim()))
                    .map(Answer::Choice)
                    .ok_or_else(|| {
                        AnswerError::Invalid(format!(
                            "'{choice}' is not one of the options: {}",
                            prompt.options.join(", ")
                        ))
                    });
            }
            Err(invalid(
                "answer a choice with {\"index\": N} or {\"choice\": \"option text\"}",
            ))
        }
    }
}

/// A confirmation's answer: no; yes once; or yes for as far as the question offers (an
/// irreversible tool is allowed always only with a second, explicit yes).
fn confirmation(prompt: &Prompt, body: &PromptAnswer) -> Result<Answer, AnswerError> {
    let invalid = |m: String| AnswerError::Invalid(m);
    let approve = body.approve.ok_or_else(|| {
        invalid("answer a confirmation with {\"approve\": true} or {\"approve\": false}".into())
    })?;
    if !approve {
        return Ok(Answer::Approve(None));
    }
    let grant = body.remember.unwrap_or(Grant::Once);
    let call = prompt.call.as_ref();
    let offered = call.map_or(vec![Grant::Once], |c| c.grants.clone());
    if !offered.contains(&grant) {
        let names: Vec<String> = offered
            .iter()
            .filter_map(|g| serde_json::to_value(g).ok())
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect();
        return Err(invalid(format!(
            "this question does not offer remember = {}; it offers: {}",
            serde_json::to_value(grant).unwrap_or_default(),
            names.join(", ")
        )));
    }
    if grant == Grant::Always
        && call.is_some_and(|c| c.side_effect == deskmate_core::SideEffect::Irreversible)
        && body.irreversible_confirmed != Some(true)
    {
        return Err(invalid(format!(
            "{} cannot be undone: allowing it always needs a second, explicit yes — send \"irreversible_confirmed\": true with it",
            call.map_or("the tool", |c| c.tool.as_str())
        )));
    }
    Ok(Answer::Approve(Some(grant)))
}

/// An answer to a pending prompt: `approve` for a confirmation, `index` or `choice` for a
/// choice. Which of them fits depends on the prompt it answers (its kind, how many
/// options it has): an answer that does not fit is refused with what the prompt takes.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct PromptAnswer {
    /// A confirmation's answer: go ahead or not.
    #[schema(nullable = false)]
    pub approve: Option<bool>,
    /// With a yes: how far it reaches — `once` (the default), `conversation` (this tool
    /// in this conversation), `always` (this tool, until taken back). Only what the
    /// question's `call.grants` offers.
    #[schema(nullable = false)]
    pub remember: Option<Grant>,
    /// With `remember: "always"` for a tool that cannot be undone: the second, explicit
    /// yes it needs.
    #[schema(nullable = false)]
    pub irreversible_confirmed: Option<bool>,
    /// A choice's answer: the option's index, from 0.
    #[schema(nullable = false, minimum = 0)]
    pub index: Option<u64>,
    /// A choice's answer: the option's text (case and surrounding spaces ignored).
    #[schema(nullable = false)]
    pub choice: Option<String>,
}

impl Body for PromptAnswer {
    fn check(body: &Value) -> Vec<FieldError> {
        if body.is_object() {
            return Vec::new();
        }
        vec![FieldError {
            path: String::new(),
            message: "the answer must be a JSON object".into(),
            hint: ANSWER_HINT.into(),
        }]
    }
}

/// How to answer a prompt, for error messages.
pub const ANSWER_HINT: &str = "send {\"approve\": true|false} (with a yes, optionally \"remember\": \"conversation\"|\"always\") for a confirmation, {\"index\": N} or {\"choice\": \"text\"} for a choice";

#[async_trait]
impl Confirmer for PromptBroker {
    async fn confirm(&self, request: ConfirmRequest) -> Confirmation {
        let question = format!(
            "Run {} ({})? {}",
            request.tool_name.en, request.tool, request.reason.en
        );
        match self
            .ask(
                PromptKind::Confirm,
                question,
                Vec::new(),
                Some(request),
                self.confirm_timeout,
            )
            .await
        {
            Some(Answer::Approve(Some(grant))) => Confirmation::yes(grant),
            Some(_) => Confirmation::Denied,
            None => Confirmation::TimedOut,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn reply(body: Value) -> PromptAnswer {
        PromptAnswer::read(&body).unwrap_or_else(|e| panic!("{e:?}"))
    }

    fn request() -> ConfirmRequest {
        ConfirmRequest {
            call_id: "c1".into(),
            tool: "send_mail".into(),
            tool_name: "Send mail".into(),
            arguments: json!({"to": "a@b.c"}),
            repairs: Vec::new(),
            reason: "the tool's policy is 'ask'".into(),
            side_effect: deskmate_core::SideEffect::Irreversible,
            grants: vec![Grant::Once, Grant::Always],
        }
    }

    async fn answer_when_pending(
        broker: Arc<PromptBroker>,
        body: Value,
    ) -> Result<(), AnswerError> {
        for _ in 0..200 {
            if let Some(p) = broker.list().first() {
                return broker.answer_body(&p.id, &reply(body));
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        Err(AnswerError::NotFound("never appeared".into()))
    }

    #[tokio::test]
    async fn confirmations_are_answered_denied_or_expire() {
        let broker = PromptBroker::new(Duration::from_secs(5));
        let answering = tokio::spawn(answer_when_pending(
            broker.clone(),
            json!({"approve": true}),
        ));
        assert_eq!(broker.confirm(request()).await, Confirmation::Approved);
        assert_eq!(answering.await.ok(), Some(Ok(())));

        let answering = tokio::spawn(answer_when_pending(
            broker.clone(),
            json!({"approve": false}),
        ));
        assert_eq!(broker.confirm(request()).await, Confirmation::Denied);
        let _ = answering.await;

        let quick = PromptBroker::new(Duration::from_millis(50));
        assert_eq!(quick.confirm(request()).await, Confirmation::TimedOut);
        assert!(quick.list().is_empty(), "an expired prompt is gone");
    }

    /// A yes reaches as far as the question offers; an irreversible tool is allowed
    /// always only with the second, explicit yes; a refused answer leaves the prompt open.
    #[tokio::test]
    async fn a_yes_reaches_only_as_far_as_offered_and_always_needs_a_second_yes_when_irreversible()
    {
        let broker = PromptBroker::new(Duration::from_secs(5));
        let b = broker.clone();
        let asking = tokio::spawn(async move { b.confirm(request()).await });
        for _ in 0..200 {
            if !broker.list().is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let id = broker.list()[0].id.clone();
        for refused in [
            json!({"approve": true, "remember": "conversation"}),
            json!({"approve": true, "remember": "always"}),
            json!({"approve": true, "remember": "always", "irreversible_confirmed": false}),
        ] {
            assert!(
                matches!(
                    broker.answer_body(&id, &reply(refused.clone())),
                    Err(AnswerError::Invalid(_))
                ),
                "{refused}"
            );
        }
        assert_eq!(broker.list().len(), 1, "still waiting");
        assert_eq!(
            broker.answer_body(
                &id,
                &reply(
                    json!({"approve": true, "remember": "always", "irreversible_confirmed": true})
                )
            ),
            Ok(())
        );
        assert_eq!(asking.await.ok(), Some(Confirmation::ApprovedAlways));
    }

    #[tokio::test]
    async fn choices_take_an_index_or_the_text_and_refuse_others() {
        let broker = PromptBroker::new(Duration::from_secs(5));
        let options = ["Continue".to_string(), "Stop".to_string()];
        let b = broker.clone();
        let asking = tokio::spawn(async move {
            b.choose(
                "Go on?",
                &["Continue".to_string(), "Stop".to_string()],
                Duration::from_secs(5),
            )
            .await
        });
        for _ in 0..200 {
            if !broker.list().is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let id = broker.list()[0].id.clone();
        assert!(matches!(
            broker.answer_body(&id, &reply(json!({"index": 2}))),
            Err(AnswerError::Invalid(_))
        ));
        assert!(matches!(
            broker.answer_body(&id, &reply(json!({"choice": "maybe"}))),
            Err(AnswerError::Invalid(_))
        ));
        assert!(matches!(
            broker.answer_body(&id, &reply(json!({"approve": true}))),
            Err(AnswerError::Invalid(_))
        ));
        assert_eq!(
            broker.answer_body(&id, &reply(json!({"choice": " stop "}))),
            Ok(())
        );
        assert_eq!(asking.await.ok(), Some(Ok((1, options[1].clone()))));
        assert!(
            matches!(
                broker.answer_body(&id, &reply(json!({"index": 0}))),
                Err(AnswerError::NotFound(_))
            ),
            "answered once"
        );
    }

    #[tokio::test]
    async fn a_cancelled_wait_removes_its_prompt() {
        let broker = PromptBroker::new(Duration::from_secs(60));
        let b = broker.clone();
        let waiting = tokio::spawn(async move { b.confirm(request()).await });
        for _ in 0..200 {
            if !broker.list().is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert_eq!(broker.list().len(), 1);
        waiting.abort();
        let _ = waiting.await;
        assert!(broker.list().is_empty());
    }
}
