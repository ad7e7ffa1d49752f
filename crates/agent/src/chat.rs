//! The agent loop: model → extraction → guard → tools → results → model, up to a step
//! limit. Structured errors go back to the model so it can fix its call; the same failing
//! call twice ends the turn with a plain message. Several calls in one reply follow
//! The rule: reads run concurrently, writes one at a time in the model's order; when a
//! write fails, earlier writes that declare a compensation are undone and later writes
//! are skipped; every call's status goes back to the model.

use std::collections::{HashMap, HashSet};

use deskmate_core::ErrorType;
use deskmate_llm::envelope::Part;
use deskmate_llm::wire::Message;
use deskmate_llm::{ChatClient, Endpoint};
use deskmate_service::ServiceError;
use deskmate_service::language::Language;
use serde_json::Value;
use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

use crate::agent::Agent;
use crate::calls::{self, Judging, TurnContext};
use crate::gate::TokenGate;
use crate::inspect;
use crate::judge::Judge;
use crate::outcome::{self, Outcome, Succeeded};
use crate::prompt;
use crate::protocol::Protocol;
use crate::read::{self, Read};
use crate::request::{self, Followup};
use crate::turn_end::{card, closing, covers, cut_short, did, model_failed};
use crate::types::{AgentEvent, CallStatus, ChatOutcome, ChatTurn, StopReason, emit};
use crate::{branch, fold, look_again, near, options, parts, reply, said};

/// Most tokens of a reply after tool results.
const AFTER_RESULTS_MAX_TOKENS: u32 = 256;
/// Most model requests in one turn.
pub const MAX_STEPS: usize = 6;
/// Most messages of the conversation so far read for a turn (what does not fit the
/// model's context is folded into a summary, `agent/fold.rs`).
const CONVERSATION_READ: u32 = 100_000;

impl Agent {
    /// Runs one turn, reporting through `events`; fails before the turn starts when the
    /// input, the model or the conversation is wrong.
    pub async fn chat(
        &self,
        turn: ChatTurn,
        events: &UnboundedSender<AgentEvent>,
        cancel: &CancellationToken,
    ) -> Result<ChatOutcome, ServiceError> {
        self.check_turn(&turn)?;
        let store = self.store()?.clone();
        let place = branch::place(&store, turn.conversation_id.as_deref(), turn.branch)?;
        let message = place
            .stored_message
            .clone()
            .unwrap_or_else(|| turn.message.clone())
            .trim()
            .to_string();
        let model = self
            .deskmate
            .model_record::<deskmate_service::models::LlmModel>(turn.model_id.as_deref())?;
        let conversation_id = match &turn.conversation_id {
            Some(id) => id.clone(),
            None => {
                let id = uuid::Uuid::new_v4().simple().to_string();
                let title: String = message.chars().take(60).collect();
                store.create_conversation(&id, &title, Some(&model.id))?;
                id
            }
        };
        // The conversation so far — the path to where this turn goes; what of it fits
        // the context is decided once the system prompt is known.
        let so_far = match place.history_to {
            None => store.numbered_messages(&conversation_id, CONVERSATION_READ)?,
            Some(Some(to)) => store.path(&conversation_id, Some(to), CONVERSATION_READ)?,
            // An edit of the first message: nothing before it.
            Some(None) => Vec::new(),
        };

        let language = Language::of(&message, turn.locale.as_deref());
        let zh = language.zh();
        let mut messages = vec![Message::system(String::new())];
        let user = Message::user(message.clone());
        messages.push(user.clone());
        // A regenerated reply goes under the person's stored message; anything else
        // stores the message with the turn.
        let mut new_messages = if place.stored_message.is_some() {
            Vec::new()
        } else {
            vec![user]
        };

        // What the person asked: this message and their one before it.
        let before = so_far
            .iter()
            .rev()
            .find(|(_, m)| m["role"] == "user")
            .and_then(|(_, m)| m["content"].as_str());
        let asked: Vec<String> = std::iter::once(message.as_str())
            .chain(before)
            .map(str::to_string)
            .collect();
        let offered = turn.tools.as_deref();
        let mut tools = match offered {
            Some(_) => self.offered_tools(offered),
            None => self.chat_tools(&asked.join("\n")),
        };
        if before.is_none() {
            // A conversation's first turn: a tool that reads its earlier turns has none.
            let registry = self.deskmate.registry();
            tools.retain(|t| {
                registry
                    .tool(&t.function.name)
                    .is_none_or(|tool| !tool.reads_conversation())
            });
        }
        self.deskmate
            .wait_managed(
                &model.id,
                model.managed.as_deref(),
                deskmate_service::MANAGED_START_WAIT,
            )
            .await;
        let base_url =
            self.deskmate
                .base_url_for(&model.id, &model.base_url, model.managed.as_deref());
        let api_key = self.deskmate.model_api_key(model.api_key_ref.as_deref());

        let offered_ids: Vec<String> = tools.iter().map(|t| t.function.name.clone()).collect();
        let mut used_ids: HashSet<String> = so_far
            .iter()
            .filter_map(|(_, m)| m["tool_calls"].as_array())
            .flatten()
            .filter_map(|c| c["id"].as_str().map(str::to_string))
            .collect();
        let turn_id = uuid::Uuid::new_v4().simple().to_string();
        let context = TurnContext {
            offered,
            conversation_id: &conversation_id,
            turn_id: &turn_id,
            before: match place.history_to {
                None => deskmate_tools::Before::Head,
                Some(Some(seq)) => deskmate_tools::Before::Message(seq),
                Some(None) => deskmate_tools::Before::Nothing,
            },
            zh,
            asked: &asked,
            events,
            cancel,
        };
        let mut failures: HashMap<String, usize> = HashMap::new();
        let mut cards: HashMap<String, Value> = HashMap::new();
        let mut succeeded = Succeeded::new();
        let mut ran: Vec<Outcome> = Vec::new();
        let mut followup = Followup::new(language);
        // The parts of the request the model listed with each of this turn's steps, by the
        // step's first call: shown to it again as it wrote them within the turn, and saved
        // with the turn's messages.
        let mut plans: HashMap<String, Vec<Part>> = HashMap::new();
        let mut steps = 0;
        // The tools of the latest step whose failed call is held to the values its error
        // named (`options::hold`); a model that answers instead of trying again gets one
        // more try limited to them, once a turn.
        let mut held: Vec<String> = Vec::new();
        let mut retried = false;
        // A first answer given without calls while the model looks again at it
        // ([`crate::look_again`]): the one the turn ends with unless the second look's
        // calls are taken instead.
        let mut looking: Option<FirstAnswer> = None;
        let (reply, stop) = 'turn: {
            let client = match Endpoint::new(&base_url, api_key).and_then(ChatClient::new) {
                Ok(client) => client,
                Err(e) => {
                    emit(
                        events,
                        AgentEvent::Error {
                            message: e.to_string(),
                            error_type: ErrorType::Validation,
                        },
                    );
                    break 'turn (model_failed(zh, &e.to_string()), StopReason::ModelError);
                }
            };
            // Asked once: the protocol and the history's counting follow one answer (a
            // server still loading answers again at the next turn).
            let llama_cpp = self.constrains(&client).await;
            let protocol = if !tools.is_empty() && llama_cpp {
                Protocol::Constrained
            } else {
                Protocol::Native
            };
            // A turn limited to some tools reads the catalog every turn reads (its cached
            // prefix) with its examples, and its grammar admits only the tools it offers.
            let (shown, examples) = match offered {
                Some(_) if protocol == Protocol::Constrained => {
                    let every_turn = self.chat_tools("");
                    let examples = self.examples(&every_turn);
                    (prompt::masked_catalog(every_turn, &tools), examples)
                }
                _ => (tools.clone(), self.examples(&tools)),
            };
            messages[0] =
                Message::system(prompt::system_prompt(protocol, &shown, &tools, &examples));
            // The examples nearest the request, shown just before it (after the cached
            // prefix and the earlier turns), for every step of the turn.
            let near = match protocol {
                Protocol::Constrained => {
                    let pool = self.near_pool(&tools);
                    let shown = near::near(&message, language, &pool);
                    tracing::debug!(examples = ?shown.iter().map(|e| &e.request).collect::<Vec<_>>(), "examples near the request");
                    near::message(&shown)
                }
                Protocol::Native => None,
            };
            // What the history must leave room for: the new message and those examples.
            let counted = match &near {
                Some(text) => Message::user(request::with_examples(text, &message)),
                None => messages[1].clone(),
            };
            // The earlier turns that fit the context (the oldest folded into a summary),
            // between the system prompt and the new message.
            // Several requests to the model when turns are folded: stopping the turn ends
            // them.
            let fitting = self.fit_history(fold::Fitting {
                client: &client,
                model: &model,
                llama_cpp,
                conversation_id: &conversation_id,
                stored: so_far,
                system: &messages[0],
                tools: if protocol == Protocol::Native {
                    &tools
                } else {
                    &[]
                },
                message: &counted,
                language,
            });
            let fitted = tokio::select! {
                fitted = fitting => fitted,
                () = cancel.cancelled() => break 'turn (String::new(), StopReason::Cancelled),
            };
            // Earlier turns are shown as what was said (`context::Turn::sent`), in turns,
            // the person's and the assistant's in alternation, as strict chat templates
            // require.
            messages.splice(1..1, request::in_turns(fitted.history));
            // The grammar holds the person's own words where a tool asks for them.
            let mut grammar_tools = match protocol {
                Protocol::Constrained => said::narrowed(
                    &tools,
                    &said::said_times(self.deskmate.registry().specs()),
                    asked.first().map_or("", String::as_str),
                ),
                Protocol::Native => tools.clone(),
            };
            // Each part of the request judged on its own, where the loop's choice is
            // checked ([`crate::judge`]).
            let judge =
                (!tools.is_empty()).then(|| Judge::new(&client, &model.model, &tools, llama_cpp));
            while steps < MAX_STEPS {
                steps += 1;
                let mut request = request::request(
                    protocol,
                    &model.model,
                    &messages,
                    &grammar_tools,
                    &followup,
                    &plans,
                    near.as_deref(),
                );
                request.temperature = Some(model.temperature);
                request.top_p = Some(model.top_p);
                request.max_tokens = u32::try_from(model.max_tokens).ok();
                if !ran.is_empty() {
                    // After results the reply is a sentence or two (or another call): a
                    // model that loops stops here instead of at the model's own limit.
                    request.max_tokens =
                        Some(request.max_tokens.map_or(AFTER_RESULTS_MAX_TOKENS, |m| {
                            m.min(AFTER_RESULTS_MAX_TOKENS)
                        }));
                }
                request.stream = model.streaming;
                let mut gate =
                    TokenGate::new(events, protocol, !ran.is_empty() || followup.look, language);
                // An answer of the first step may be looked at again: it is shown so that a
                // figure it makes up is not.
                let read_so_far =
                    (steps == 1 && judge.is_some() && protocol == Protocol::Constrained)
                        .then(|| look_again::read(&messages[1..]));
                if let Some(read) = &read_so_far {
                    gate = gate.watching(read);
                }
                let mut on_event = |e| gate.on(e);
                let reply = tokio::select! {
                    reply = client.complete(&request, &mut on_event) => reply,
                    () = cancel.cancelled() => break 'turn (String::new(), StopReason::Cancelled),
                };
                let reply = match reply {
                    Ok(reply) => reply,
                    Err(e) => {
                        let error_type = if e.is_transient() {
                            ErrorType::Transient
                        } else {
                            ErrorType::Validation
                        };
                        emit(
                            events,
                            AgentEvent::Error {
                                message: e.to_string(),
                                error_type,
                            },
                        );
                        break 'turn (model_failed(zh, &e.to_string()), StopReason::ModelError);
                    }
                };
                if let Some(t) = &reply.timings {
                    tracing::debug!(
                        step = steps,
                        prompt_evaluated = t.prompt_n,
                        prompt_cached = t.cache_n,
                        prompt_ms = t.prompt_ms,
                        generated = t.predicted_n,
                        generate_ms = t.predicted_ms,
                        "model timings"
                    );
                }
                let mut cut = reply.finish_reason.as_deref() == Some("length");
                let mut raw = reply.content.clone();
                let Read {
                    mut calls,
                    mut text,
                    extracted,
                    done,
                    parts,
                } = read::read(protocol, reply);
                if protocol == Protocol::Native {
                    request::from_wire(&mut calls, &tools);
                }
                // The second look's calls replace the first answer only when each is
                // judged to do its part; otherwise the turn goes on with the first answer.
                let doubted = followup.look;
                if let Some(answer) = looking.take() {
                    followup.look = false;
                    let adopted = match &judge {
                        Some(judge) => tokio::select! {
                            adopted = look_again::adopt(judge, &parts, &asked, &calls) => adopted,
                            () = cancel.cancelled() => break 'turn (String::new(), StopReason::Cancelled),
                        },
                        None => false,
                    };
                    tracing::info!(
                        adopted,
                        calls = calls.len(),
                        "the model looked again at an answer stating a new figure"
                    );
                    if !adopted {
                        calls.clear();
                        FirstAnswer {
                            text,
                            raw,
                            cut,
                            request,
                            gate,
                        } = answer;
                    }
                }
                if done && !ran.is_empty() {
                    // The model says the results answer everything: they are the reply.
                    let reply = reply::from_results(&ran, zh);
                    break 'turn (
                        closing(events, &mut new_messages, reply),
                        StopReason::FromResults,
                    );
                }
                if calls.is_empty() && cut && text.trim().is_empty() {
                    // A call too long to finish (the whole of 1+2+…+100 written out): the
                    // person reads what ran before and why nothing more did, not a JSON
                    // fragment.
                    let reply = if ran.is_empty() {
                        cut_short(zh)
                    } else {
                        format!("{}\n{}", reply::from_results(&ran, zh), cut_short(zh))
                    };
                    break 'turn (
                        closing(events, &mut new_messages, reply),
                        StopReason::CutShort,
                    );
                }
                if calls.is_empty()
                    && !retried
                    && followup.failed
                    && let Some(tool) = held.first()
                {
                    // The model gives up on a call whose tool named the valid values: one
                    // more try, with calls of that tool alone and the value held to those
                    // (its answer was held back, not shown).
                    tracing::info!(%tool, "the model gave up on a call with valid values named; one more try");
                    retried = true;
                    followup.retry = Some(tool.clone());
                    continue;
                }
                followup.retry = None;
                if calls.is_empty()
                    && !doubted
                    && let Some(read) = &read_so_far
                    && look_again::states_new_figure(&text, read)
                {
                    tracing::info!(
                        "an answer without calls states a figure nothing read holds; looking again"
                    );
                    followup.look = true;
                    looking = Some(FirstAnswer {
                        text,
                        raw,
                        cut,
                        request,
                        gate,
                    });
                    continue;
                }
                if calls.is_empty() {
                    // The checks on the reply ([`crate::inspect`]): tidied, in the person's
                    // language, an answer at all, and telling the whole outcome.
                    let mut draft = inspect::Draft::new(text);
                    inspect::check_reply(
                        &mut draft,
                        inspect::ReplyChecks {
                            ran: &ran,
                            offered: &offered_ids,
                            cut,
                            language,
                            message: &message,
                            client: &client,
                            request: &request,
                            raw: &raw,
                            cancel,
                        },
                    )
                    .await;
                    let inspect::Draft { text, stop } = draft;
                    if stop == StopReason::Cancelled {
                        break 'turn (String::new(), StopReason::Cancelled);
                    }
                    gate.finish(&text);
                    new_messages.push(Message::assistant(Some(text.clone()), Vec::new()));
                    break 'turn (text, stop);
                }
                gate.finish(&text);
                for call in &mut calls {
                    // Ids unique in the conversation: a saved call's card must find its
                    // own result, not another call's with the same id. Calls read from
                    // text or a constrained reply come without one.
                    if call.id.is_empty() || used_ids.contains(&call.id) {
                        call.id =
                            format!("call_{}", &uuid::Uuid::new_v4().simple().to_string()[..16]);
                    }
                    used_ids.insert(call.id.clone());
                }
                tracing::debug!(?parts, calls = calls.len(), "the parts the model listed");
                // The decisions read the list's separate requests; the list as written is
                // what the model is shown again.
                let requests = parts::requests(&parts);
                followup.owed |= requests.iter().any(|p| p.tool.is_none());
                if let Some(first) = calls.first().filter(|_| !parts.is_empty()) {
                    plans.insert(first.id.clone(), parts.clone());
                }
                let assistant = Message::assistant(
                    (!text.trim().is_empty()).then(|| text.clone()),
                    calls.clone(),
                );
                messages.push(assistant.clone());
                new_messages.push(assistant);
                // Calls are not abandoned midway when the turn is stopped: each ends (a
                // write in flight finishes and is undone, what has not started is not
                // run), so every call saved with the turn has its result.
                let outcomes = self
                    .run_calls(
                        &calls,
                        extracted.as_ref(),
                        &context,
                        Judging {
                            judge: judge.as_ref(),
                            parts: &requests,
                            doubted,
                        },
                        &mut succeeded,
                    )
                    .await;
                let mut repeated = None;
                held.clear();
                for outcome in &outcomes {
                    let tool_message =
                        Message::tool(outcome.call.id.clone(), calls::model_text(outcome));
                    messages.push(tool_message.clone());
                    new_messages.push(tool_message);
                    cards.insert(outcome.call.id.clone(), card(outcome, zh));
                    // The next try of a call its tool answered with the valid values can
                    // only name one of them.
                    if options::hold(&mut grammar_tools, outcome) {
                        tracing::debug!(tool = %outcome.tool, "an argument is held to the error's options or taken out");
                        if !outcome.result.options.is_empty() {
                            held.push(outcome.tool.clone());
                        }
                    }
                    if outcome.status == CallStatus::Failed {
                        // Keyed as the guard normalized the call, so a respelling of the
                        // same failing call counts as the same.
                        let count = failures.entry(outcome.key.clone()).or_default();
                        *count += 1;
                        if *count >= 2 && repeated.is_none() {
                            repeated = Some(outcome.result.error.clone().unwrap_or_default());
                        }
                    }
                }
                let only_repeats = outcomes.iter().all(|o| o.status == CallStatus::Repeated);
                let covered = covers(&requests, &outcomes);
                // Words owed for a part no tool does, and the tools' parts are done (or
                // the model only repeated what is done), or calls not run because the
                // person did not ask for what their tools do: the model is asked for the
                // words of those parts alone, so it neither calls again what it has done
                // nor echoes the request.
                let unasked: Vec<&str> = outcomes
                    .iter()
                    .filter(|o| o.status == CallStatus::NotAsked)
                    .map(|o| o.tool.as_str())
                    .collect();
                followup.asks = requests
                    .iter()
                    .filter(|p| p.tool.as_deref().is_none_or(|t| unasked.contains(&t)))
                    .map(|p| p.ask.clone())
                    .collect();
                followup.words_only = (followup.owed
                    && (only_repeats || did(&requests, &outcomes)))
                    || (!unasked.is_empty() && !followup.asks.is_empty());
                followup.failed = outcomes.iter().any(|o| o.status == CallStatus::Failed);
                let registry = self.deskmate.registry();
                let retriable =
                    |o: &Outcome| outcome::retriable(registry.tool(&o.tool).map(|t| t.spec()));
                followup.passing = outcomes
                    .iter()
                    .filter(|o| o.status == CallStatus::Failed)
                    .all(|o| o.passing(retriable(o)));
                followup.settled |= outcomes.iter().any(|o| o.settles(retriable(o)));
                followup.unasked = outcomes.iter().any(|o| o.status == CallStatus::NotAsked);
                ran.extend(outcomes);
                // A call that failed in an earlier step and is still not fixed (a retry
                // fixed one of two that failed the same way) is the model's to fix or
                // tell, as if it had failed now.
                followup.open = if followup.failed {
                    Vec::new()
                } else {
                    reply::open_failures(&ran)
                        .map(|o| format!("{} {}", o.tool, o.call.function.arguments))
                        .collect()
                };
                if cancel.is_cancelled() {
                    break 'turn (String::new(), StopReason::Cancelled);
                }
                if let Some(error) = repeated {
                    // What did succeed is still the person's news: the results' lines
                    // (each failure's once) instead of "I could not do this".
                    let reply = if ran.iter().any(|o| o.status == CallStatus::Done) {
                        reply::from_results(&ran, zh)
                    } else if zh {
                        format!(
                            "这件事我没能完成：同一个操作连续失败了两次（{error}）。请换个说法或检查设置后再试。"
                        )
                    } else {
                        format!(
                            "I could not do this: the same action failed twice ({error}). Please rephrase or check the settings and try again."
                        )
                    };
                    break 'turn (
                        closing(events, &mut new_messages, reply),
                        StopReason::RepeatedFailure,
                    );
                }
                // The model listed what the person asked for, and its calls did all of it
                // with results that say all of themselves: they are the reply, without
                // asking the model again what it has already said — unless a call that
                // failed earlier in the turn is still not fixed (a retry fixed one of two
                // calls that failed the same way): the model is asked again, with it in
                // the results.
                if covered && followup.open.is_empty() {
                    tracing::debug!(
                        parts = requests.len(),
                        "the calls covered every part listed"
                    );
                    let reply = reply::from_results(&ran, zh);
                    break 'turn (
                        closing(events, &mut new_messages, reply),
                        StopReason::FromResults,
                    );
                }
                // A model that only repeats what is done will not stop by itself: the
                // results are the answer.
                if only_repeats && !followup.owed {
                    let reply = reply::from_results(&ran, zh);
                    break 'turn (
                        closing(events, &mut new_messages, reply),
                        StopReason::FromResults,
                    );
                }
            }
            let reply = if zh {
                format!("我已经尝试了 {MAX_STEPS} 步仍未完成，先停在这里。")
            } else {
                format!("I stopped after {MAX_STEPS} steps without finishing.")
            };
            (
                closing(events, &mut new_messages, reply),
                StopReason::StepLimit,
            )
        };

        // A tool message is saved with its card (status, summary, result), so a reopened
        // conversation shows what the person saw; the model reads only the wire fields.
        let rows: Vec<Value> = new_messages
            .iter()
            .filter_map(|m| {
                let mut row = serde_json::to_value(m).ok()?;
                if let Some(card) = m.tool_call_id.as_ref().and_then(|id| cards.remove(id)) {
                    row["deskmate"] = card;
                }
                if let Some(parts) = m.tool_calls.first().and_then(|c| plans.get(&c.id)) {
                    let parts: Vec<serde_json::Value> = parts.iter().map(Part::to_value).collect();
                    row["deskmate"] = serde_json::json!({ read::PARTS: parts });
                }
                Some(row)
            })
            .collect();
        match store.append_after(&conversation_id, Some(&model.id), place.after, &rows) {
            Ok(Some(_)) => {}
            Ok(None) => tracing::error!(
                conversation = %conversation_id,
                "the conversation or the message the turn branched from is gone; the turn was not saved"
            ),
            Err(e) => tracing::error!(error = %e, "the conversation could not be saved"),
        }
        let outcome = ChatOutcome {
            conversation_id,
            reply,
            steps,
            stop,
        };
        emit(
            events,
            AgentEvent::Done {
                conversation_id: outcome.conversation_id.clone(),
                reply: outcome.reply.clone(),
                steps,
                stop,
            },
        );
        Ok(outcome)
    }

    /// Runs a turn for a caller that reads it once it is over instead of streaming it:
    /// its events in order, and the outcome.
    pub async fn chat_collected(
        &self,
        turn: ChatTurn,
    ) -> Result<(Vec<AgentEvent>, ChatOutcome), ServiceError> {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let outcome = self.chat(turn, &tx, &CancellationToken::new()).await?;
        drop(tx);
        let mut events = Vec::new();
        while let Ok(event) = rx.try_recv() {
            events.push(event);
        }
        Ok((events, outcome))
    }
}

/// An answer the model gave without calls, kept while it looks again: what the turn ends
/// with if the second look's calls are not taken, with what its checks read and the gate
/// that has shown part of it.
struct FirstAnswer<'a> {
    text: String,
    raw: String,
    cut: bool,
    request: deskmate_llm::wire::ChatRequest,
    gate: TokenGate<'a>,
}
