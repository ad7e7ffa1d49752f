//! Wires the service to this computer: its devices, the local model servers, the agent
//! over the service, and the REST API served in-process on loopback. Shared by the `deskmate` CLI (`serve` and the
//! other commands) and the desktop shell, so both run exactly the same service. No GUI
//! code here.

pub mod local;
pub mod voice_confirm;
pub mod voice_mode;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use deskmate_agent::Agent;
use deskmate_service::Deskmate;
use deskmate_service::hooks::Confirmer;
use deskmate_service::prompts::PromptBroker;

/// How long a call whose policy asks, or a choice question, waits for the person.
pub const PROMPT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// The service and the REST API, running on a loopback port until [`Server::stop`].
#[derive(Debug)]
pub struct Server {
    deskmate: Arc<Deskmate>,
    agent: Arc<Agent>,
    addr: SocketAddr,
    token: String,
    data_dir: PathBuf,
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<()>,
    sidecars: Vec<(String, deskmate_llm::sidecar::Sidecar)>,
    /// Stops the MCP servers whose tools are imported, and the scheduler.
    imports: tokio_util::sync::CancellationToken,
}

impl Server {
    /// Opens the service on `data_dir` with this computer's devices (choice questions and
    /// confirmations go through the API's prompt broker), starts the local model servers
    /// (`local_models`: `auto`, `off` or a manifest path; they start in the background)
    /// and serves the API on `addr` with `token`.
    pub async fn start(
        data_dir: &Path,
        addr: SocketAddr,
        local_models: &str,
        token: String,
    ) -> anyhow::Result<Self> {
        // Bound first: a port in use fails before any model server is started.
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let addr = listener.local_addr()?;
        let prompts = PromptBroker::new(PROMPT_TIMEOUT);
        let backends = system_backends(Some(prompts.clone()));
        let deskmate = open_service_on(data_dir, prompts.clone(), &backends)?;
        // The agent before the model servers: it warms each one's prompt prefix as it
        // becomes ready, and runs the schedules' prompts.
        let agent = Agent::new(deskmate.clone());
        let sidecars = match local::manifest(local_models) {
            Some(manifest) => local::start(&deskmate, &manifest, None, &data_dir.join("logs")),
            None => Vec::new(),
        };
        // A default model run from a person's own file starts now; others on first use.
        deskmate.start_default_file_model();
        // The configured MCP servers start in the background; their tools join as they
        // answer.
        let imports = tokio_util::sync::CancellationToken::new();
        tokio::spawn(deskmate_mcp::client::run_imports(
            deskmate.clone(),
            Some(prompts.clone()),
            imports.clone(),
        ));
        // Reminders and scheduled calls fire while the server runs.
        let scheduler = deskmate.clone();
        let stopping = imports.clone();
        tokio::spawn(async move { scheduler.run_schedules(stopping).await });
        let mut state = deskmate_api::AppState::new(agent.clone(), token.clone(), prompts);
        state.camera_frame = Some(camera_frame(backends.camera.clone()));
        state.messages = Some(message_feed(backends.in_app.clone()));
        state.voice = Some(Arc::new(Voice(Arc::new(
            deskmate_devices::push_to_talk::PushToTalk::new(
                backends.microphone.clone(),
                backends.transcriber.clone(),
            ),
        ))));
        state.devices = Some(device_probe(backends));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let served = deskmate_api::serve(listener, state, async move {
                let _ = stopped.await;
            })
            .await;
            if let Err(e) = served {
                tracing::error!("the API server stopped: {e}");
            }
        });
        tracing::info!(%addr, "serving the API");
        // Tells `deskmate mcp` on this data dir where to find the running app.
        let running = deskmate_api::running::Running {
            url: format!("http://{addr}"),
            token: token.clone(),
            pid: std::process::id(),
        };
        if let Err(e) = deskmate_api::running::write(data_dir, &running) {
            tracing::warn!(error = %e, "cannot write running.json; deskmate mcp will run headless");
        }
        Ok(Self {
            deskmate,
            agent,
            addr,
            token,
            data_dir: data_dir.to_path_buf(),
            stop,
            task,
            sidecars,
            imports,
        })
    }

    /// `http://127.0.0.1:PORT/api/v1`.
    pub fn url(&self) -> String {
        format!("http://{}/api/v1", self.addr)
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The bearer token the API expects.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The service.
    pub fn deskmate(&self) -> &Arc<Deskmate> {
        &self.deskmate
    }

    /// The agent over the service (chat turns, conversations).
    pub fn agent(&self) -> &Arc<Agent> {
        &self.agent
    }

    /// The data dir in use.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// Stops serving (open requests finish; streams end) and stops the local models.
    pub async fn stop(self) {
        deskmate_api::running::remove(&self.data_dir);
        self.imports.cancel();
        let _ = self.stop.send(());
        let _ = tokio::time::timeout(std::time::Duration::from_secs(5), self.task).await;
        local::stop(self.sidecars).await;
        self.deskmate.stop_file_models().await;
    }
}

/// Logs to stderr, filtered by `DESKMATE_LOG` (default `warn`): the CLI and the app.
pub fn init_logging() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("DESKMATE_LOG")
                .unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
}

/// A fresh random bearer token (for a token that lives as long as one launch).
pub use deskmate_api::new_token as random_token;

/// The service with the built-in tools and the system tools on this computer's devices.
pub fn open_service(
    data_dir: &Path,
    confirmer: Arc<dyn Confirmer>,
) -> Result<Arc<Deskmate>, deskmate_service::Error> {
    open_service_on(data_dir, confirmer, &system_backends(None))
}

/// This computer's devices; choice questions go to `prompts` when there is a broker.
pub fn system_backends(prompts: Option<Arc<PromptBroker>>) -> deskmate_devices::Backends {
    let mut backends = deskmate_devices::Backends::system();
    backends.chooser = prompts.map(|broker| {
        let chooser: Arc<dyn deskmate_devices::choice::Chooser> = Arc::new(BrokerChooser(broker));
        chooser
    });
    backends
}

/// The service with the built-in tools and the system tools on these devices.
pub fn open_service_on(
    data_dir: &std::path::Path,
    confirmer: Arc<dyn Confirmer>,
    backends: &deskmate_devices::Backends,
) -> Result<Arc<Deskmate>, deskmate_service::Error> {
    let deskmate = Arc::new(Deskmate::open_with_tools(
        data_dir,
        confirmer,
        deskmate_devices::system_tools(backends),
    )?);
    backends
        .transcriber
        .set(Arc::new(DefaultAsr(Arc::downgrade(&deskmate))));
    Ok(deskmate)
}

/// Speech recognition with the service's default ASR model (for voice_choice_prompt).
#[derive(Debug)]
pub struct DefaultAsr(pub std::sync::Weak<Deskmate>);

#[async_trait::async_trait]
impl deskmate_devices::microphone::Transcriber for DefaultAsr {
    async fn transcribe(
        &self,
        wav: Vec<u8>,
        language: Option<&str>,
        hints: &[String],
    ) -> Result<String, deskmate_devices::DeviceError> {
        let failed = |detail: String| deskmate_devices::DeviceError::Failed {
            what: "speech recognition",
            detail: detail.into(),
        };
        let deskmate = self
            .0
            .upgrade()
            .ok_or_else(|| failed("the service is shutting down".into()))?;
        deskmate
            .transcribe(wav, language, hints)
            .await
            .map_err(|e| match e {
                deskmate_service::ServiceError::NotFound { .. } => {
                    deskmate_devices::DeviceError::NotFound {
                        what: "speech recognition",
                        detail: "no ASR model is configured; add one with POST /api/v1/models/asr"
                            .into(),
                    }
                }
                other => failed(other.to_string()),
            })
    }
}

/// The in-app messages (text_msg_prompt) as JSON, for GET /api/v1/events: each open
/// stream is one listener, so a message counts as shown in the app only while one is open.
pub fn message_feed(
    in_app: tokio::sync::broadcast::Sender<deskmate_devices::message::InAppMessage>,
) -> deskmate_api::MessageFeed {
    use futures_util::StreamExt;
    Arc::new(move || {
        futures_util::stream::unfold(in_app.subscribe(), |mut messages| async move {
            loop {
                match messages.recv().await {
                    Ok(message) => {
                        let value = serde_json::to_value(&message).unwrap_or_default();
                        return Some((value, messages));
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
                }
            }
        })
        .boxed()
    })
}

/// The camera's current frame for GET /api/v1/devices/camera/frame.
pub fn camera_frame(
    camera: Arc<dyn deskmate_devices::camera::Camera>,
) -> deskmate_api::CameraFrame {
    Arc::new(move || {
        if camera.state().is_none() {
            return Err(deskmate_api::FrameError::Off(
                "The camera is off: turn it on with turn_on_camera".into(),
            ));
        }
        camera
            .frame_jpeg()
            .map_err(|e| deskmate_api::FrameError::Unavailable(e.to_string()))
    })
}

/// The devices' readiness, as the autotest reports it.
pub fn device_probe(backends: deskmate_devices::Backends) -> deskmate_autotest::DeviceProbe {
    let devices = backends.probed_devices();
    let probe = Arc::new(move || {
        backends
            .probe()
            .into_iter()
            .map(|r| deskmate_autotest::DeviceCheck {
                device: r.device,
                ready: r.ready,
                message: r.message,
            })
            .collect()
    });
    deskmate_autotest::DeviceProbe { devices, probe }
}

/// Push to talk on this computer's microphone, for `/api/v1/voice/*`.
#[derive(Debug)]
pub struct Voice(pub Arc<deskmate_devices::push_to_talk::PushToTalk>);

fn voice_error(e: deskmate_devices::push_to_talk::TalkError) -> deskmate_api::voice::VoiceError {
    use deskmate_api::voice::VoiceError;
    use deskmate_devices::DeviceError;
    use deskmate_devices::push_to_talk::TalkError;
    match e {
        TalkError::Recording | TalkError::NotRecording => VoiceError::Conflict(e.to_string()),
        TalkError::Device(DeviceError::NotFound { .. } | DeviceError::Unsupported { .. }) => {
            VoiceError::NotFound(e.to_string())
        }
        TalkError::Device(other) => VoiceError::Unavailable(other.to_string()),
    }
}

#[async_trait::async_trait]
impl deskmate_api::voice::VoiceInput for Voice {
    async fn start(&self) -> Result<(), deskmate_api::voice::VoiceError> {
        self.0.start().await.map_err(voice_error)
    }

    async fn stop(
        &self,
    ) -> Result<deskmate_api::voice::Transcript, deskmate_api::voice::VoiceError> {
        let heard = self.0.stop().await.map_err(voice_error)?;
        Ok(deskmate_api::voice::Transcript {
            text: heard.text,
            seconds: heard.seconds,
        })
    }

    fn cancel(&self) {
        self.0.cancel();
    }

    fn levels(&self) -> futures_util::stream::BoxStream<'static, f32> {
        use futures_util::StreamExt;
        futures_util::stream::unfold(self.0.levels(), |mut levels| async move {
            loop {
                match levels.recv().await {
                    Ok(db) => return Some((db, levels)),
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
                }
            }
        })
        .boxed()
    }
}

/// Choice questions go through the prompt broker (a GUI dialog, or the API's answer).
#[derive(Debug)]
pub struct BrokerChooser(pub Arc<PromptBroker>);

#[async_trait::async_trait]
impl deskmate_devices::choice::Chooser for BrokerChooser {
    async fn choose(
        &self,
        question: &str,
        options: &[String],
        timeout: std::time::Duration,
    ) -> Option<usize> {
        self.0
            .choose(question, options, timeout)
            .await
            .ok()
            .map(|(index, _)| index)
    }
}

/// Which model of a kind a command uses: none, the default (`Some(None)`), or one id.
pub type Uses<'a> = Option<Option<&'a str>>;

/// Starts the local servers of the models a command will use when they are managed ones,
/// and waits until they are ready.
pub async fn start_local_for(
    deskmate: &Arc<Deskmate>,
    data_dir: &std::path::Path,
    llm: Uses<'_>,
    asr: Uses<'_>,
) -> Vec<(String, deskmate_llm::sidecar::Sidecar)> {
    let choice = std::env::var("DESKMATE_LOCAL").unwrap_or_else(|_| "auto".into());
    // Quietly: a user with only remote models has no manifest and needs no warning.
    let manifest = match choice.as_str() {
        "off" => None,
        "auto" => deskmate_service::local::default_manifest_path()
            .filter(|p| p.is_file())
            .and_then(|_| local::manifest("auto")),
        path => local::manifest(path),
    };
    let Some(manifest) = manifest else {
        return Vec::new();
    };
    if let Err(e) = deskmate.register_local_models(&manifest) {
        eprintln!("deskmate: cannot register the local models: {e}");
    }
    let mut ids = Vec::new();
    if let Some(Ok(model)) =
        llm.map(|id| deskmate.model_record::<deskmate_service::models::LlmModel>(id))
        && model.managed.is_some()
    {
        ids.push(model.id);
    }
    if let Some(Ok(model)) =
        asr.map(|id| deskmate.model_record::<deskmate_service::models::AsrModel>(id))
        && model.managed.is_some()
    {
        ids.push(model.id);
    }
    if ids.is_empty() {
        return Vec::new();
    }
    let started = local::start(deskmate, &manifest, Some(&ids), &data_dir.join("logs"));
    local::wait(&started, std::time::Duration::from_secs(180)).await;
    started
}
