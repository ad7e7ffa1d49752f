//! The agent of one service: what it holds (the service, what each model server was
//! probed to be), how it is made (it becomes the service's turn runner and keeps the
//! local models' prompt prefix warm as the service changes), and what the rest of the
//! crate reads from it. Its turns, calls and conversations are the modules beside it.

use std::collections::HashMap;
use std::sync::{Arc, RwLock, Weak};

use async_trait::async_trait;
use deskmate_service::turn_runner::{TurnReply, TurnRunner};
use deskmate_service::{Deskmate, ServiceError};
use deskmate_store::Store;
use tokio::sync::broadcast::error::RecvError;

use crate::prompt;
use crate::types::ChatTurn;

/// The agent of one service: runs chat turns over it and keeps what they say.
#[derive(Debug)]
pub struct Agent {
    /// The service every call goes through.
    pub(crate) deskmate: Arc<Deskmate>,
    /// Whether the model server at a base URL constrains decoding (llama.cpp), as probed.
    pub(crate) constrains: RwLock<HashMap<String, bool>>,
}

impl Agent {
    /// The agent of `deskmate`. It sets itself as the service's turn runner (a schedule's
    /// prompt runs as its turn; the service holds it weakly) and, inside a Tokio runtime,
    /// follows the service to keep the local models' prompt prefix warm: a managed model
    /// whose server became ready is warmed, and every running one when a tool change
    /// changed the prefix. Make one per service (the front end that builds the app does).
    pub fn new(deskmate: Arc<Deskmate>) -> Arc<Self> {
        let agent = Arc::new(Self {
            deskmate,
            constrains: RwLock::default(),
        });
        let runner: Weak<Self> = Arc::downgrade(&agent);
        agent.deskmate.set_turn_runner(runner);
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            // Subscribed before the prefix is read, so no change falls between.
            let tools = agent.deskmate.tool_changes();
            let ready = agent.deskmate.managed_ready();
            let prefix = agent.every_turn_prefix();
            runtime.spawn(follow(Arc::downgrade(&agent), tools, ready, prefix));
        }
        agent
    }

    /// The service.
    pub fn deskmate(&self) -> &Arc<Deskmate> {
        &self.deskmate
    }

    /// Every request the model may be shown as a worked example: each registered tool's
    /// examples (in the prompt or beside a request near them) and the answers no tool
    /// gives. What an evaluation must never ask word for word (`deskmate-autotest`'s
    /// near-copy test reads it).
    pub fn taught_requests(&self) -> Vec<String> {
        let registry = self.deskmate.registry();
        registry
            .specs()
            .filter_map(|spec| registry.tool(&spec.id))
            .flat_map(|tool| tool.examples().iter().map(|e| e.request.to_string()))
            .chain(prompt::answer_requests().map(str::to_string))
            .collect()
    }

    /// The database, when the service was opened on a data dir.
    pub(crate) fn store(&self) -> Result<&Arc<Store>, ServiceError> {
        self.deskmate.store().ok_or(ServiceError::NoStore)
    }

    /// The prompt prefix every turn starts with (what the local models keep warm).
    pub(crate) fn every_turn_prefix(&self) -> String {
        self.prefix_prompt(&self.chat_tools(""))
    }
}

/// Warms the local models' prompt prefix as the service changes, until the agent or the
/// service is gone: a model whose server became ready (every running one when this fell
/// behind), and every running one when the tools changed the prefix.
async fn follow(
    agent: Weak<Agent>,
    mut tools: tokio::sync::watch::Receiver<u64>,
    mut ready: tokio::sync::broadcast::Receiver<String>,
    mut prefix: String,
) {
    loop {
        tokio::select! {
            changed = tools.changed() => {
                let (Ok(()), Some(agent)) = (changed, agent.upgrade()) else {
                    return;
                };
                // A changed tool set is a new prompt prefix only when the tools every
                // turn offers changed.
                let now = agent.every_turn_prefix();
                if now != prefix {
                    prefix = now;
                    agent.warm_all_prefixes();
                }
            }
            model = ready.recv() => {
                let Some(agent) = agent.upgrade() else {
                    return;
                };
                match model {
                    Ok(id) => agent.warm_prefix(&id),
                    Err(RecvError::Lagged(_)) => agent.warm_all_prefixes(),
                    Err(RecvError::Closed) => return,
                }
            }
        }
    }
}

#[async_trait]
impl TurnRunner for Agent {
    async fn run_turn(
        &self,
        message: String,
        conversation_id: Option<String>,
    ) -> Result<TurnReply, ServiceError> {
        let turn = ChatTurn {
            message,
            conversation_id,
            ..ChatTurn::default()
        };
        let (_, outcome) = self.chat_collected(turn).await?;
        Ok(TurnReply {
            conversation_id: outcome.conversation_id,
            reply: outcome.reply,
        })
    }
}
