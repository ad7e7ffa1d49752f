//! End-to-end tests of the desktop app in the real webview: the release or debug
//! `deskmate-app` binary launched by WebKitWebDriver under a private Xvfb display, with a
//! private D-Bus session (dunst as notification server), a private PulseAudio server, a
//! fresh data dir, and — where the journey needs one — the real local model servers.
//! Each test clicks through one journey as a person would and saves screenshots to
//! `$DESKMATE_ARTIFACTS` (default: `<target>/tmp/e2e-screenshots`).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use deskmate_testkit::desktop::DesktopSession;
use deskmate_testkit::pulse::PulseServer;
use deskmate_testkit::webdriver::{Http, WebDriver};
use serde_json::{Value, json};

/// One app at a time: each is a WebKit browser plus model servers on two cores.
static SERIAL: Mutex<()> = Mutex::new(());

fn artifacts() -> PathBuf {
    std::env::var_os("DESKMATE_ARTIFACTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e-screenshots"))
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("no free port: {e}"))
}

/// The installed local models (scripts/setup-models.sh), keeping only `llm` (as the
/// default LLM) and, with `asr`, the ASR server.
fn manifest_with(llm: &str, asr: bool) -> Value {
    let path = deskmate_service::local::default_manifest_path()
        .unwrap_or_else(|| panic!("no cache dir for the local models' manifest"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run scripts/setup-models.sh tests qwen",
            path.display()
        )
    });
    let mut manifest: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    let mut models: Vec<Value> = manifest["llm"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|m| m["id"].as_str().is_some_and(|id| id.contains(llm)))
        .collect();
    assert_eq!(
        models.len(),
        1,
        "one installed LLM matches {llm}: {manifest}"
    );
    models[0]["default"] = json!(true);
    manifest["llm"] = Value::Array(models);
    if !asr {
        manifest["asr"] = json!([]);
    }
    manifest
}

struct Launch {
    /// The local models' manifest; none: `DESKMATE_LOCAL=off`.
    manifest: Option<Value>,
    /// `LANG` of the session.
    lang: &'static str,
}

impl Default for Launch {
    fn default() -> Self {
        Self {
            manifest: None,
            lang: "en_US.UTF-8",
        }
    }
}

/// The `deskmate-app` processes running on `data_dir` (found by their environment).
fn app_processes(data_dir: &str) -> Vec<u32> {
    let marker = format!("DESKMATE_DATA_DIR={data_dir}");
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_link(format!("/proc/{pid}/exe"))
                .is_ok_and(|exe| exe.file_name().is_some_and(|n| n == "deskmate-app"))
        })
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|b| *b == 0).any(|v| v == marker.as_bytes()))
        })
        .collect()
}

/// Starts WebKitWebDriver and the app under it with `env`; waits for the window; returns
/// the driver, the session and the app's API address and token.
fn start_app(name: &str, env: &[(String, String)]) -> (Child, WebDriver, (String, String)) {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(artifacts().join(format!("{name}.log")))
        .unwrap_or_else(|e| panic!("{e}"));
    let port = free_port();
    let driver = Command::new("WebKitWebDriver")
        .arg(format!("--port={port}"))
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap_or_else(|e| panic!("WebKitWebDriver (apt install webkit2gtk-driver): {e}"));
    let binary = Path::new(env!("CARGO_BIN_EXE_deskmate-app"));
    let mut wd = WebDriver::launch(port, binary, Duration::from_secs(30));
    wd.wait_for(".shell[data-ready]", Duration::from_secs(60));
    let connection = wd.execute("return window.__DESKMATE__;", json!([]));
    let base = connection["base"].as_str().unwrap_or_default();
    let address = base
        .strip_prefix("http://")
        .and_then(|rest| rest.strip_suffix("/api/v1"))
        .unwrap_or_else(|| panic!("the app's API: {connection}"))
        .to_string();
    let token = connection["token"].as_str().unwrap_or_default().to_string();
    assert!(token.len() >= 32, "a launch token: {connection}");
    (driver, wd, (address, token))
}

struct App {
    name: &'static str,
    shots: usize,
    wd: WebDriver,
    driver: Child,
    /// `127.0.0.1:port` of the app's API and its token.
    api: (String, String),
    /// The app's environment, kept for a restart.
    env: Vec<(String, String)>,
    pulse: PulseServer,
    desktop: DesktopSession,
    _dirs: Vec<tempfile::TempDir>,
    _serial: std::sync::MutexGuard<'static, ()>,
}

impl App {
    fn launch(name: &'static str, launch: Launch) -> Self {
        let serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let desktop = DesktopSession::start_sized(1280, 900);
        let pulse = PulseServer::start();
        pulse.add_microphone();
        let data = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let home = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let local = match &launch.manifest {
            Some(manifest) => {
                let path = home.path().join("local-models.json");
                std::fs::write(&path, manifest.to_string()).unwrap_or_else(|e| panic!("{e}"));
                path.display().to_string()
            }
            None => "off".into(),
        };
        std::fs::create_dir_all(artifacts()).unwrap_or_else(|e| panic!("{e}"));
        // This journey's screenshots from an earlier run go.
        for entry in std::fs::read_dir(artifacts())
            .into_iter()
            .flatten()
            .flatten()
        {
            if entry
                .file_name()
                .to_string_lossy()
                .starts_with(&format!("{name}-"))
            {
                let _ = std::fs::remove_file(entry.path());
            }
        }
        let _ = std::fs::remove_file(artifacts().join(format!("{name}.log")));
        let env: Vec<(String, String)> = [
            ("DISPLAY", desktop.display().to_string()),
            (
                "DBUS_SESSION_BUS_ADDRESS",
                desktop.bus_address().to_string(),
            ),
            (
                "XDG_RUNTIME_DIR",
                desktop.runtime_dir().display().to_string(),
            ),
            ("PULSE_SERVER", pulse.server().to_string()),
            (
                "XDG_CONFIG_HOME",
                home.path().join("config").display().to_string(),
            ),
            (
                "XDG_DATA_HOME",
                home.path().join("data").display().to_string(),
            ),
            ("DESKMATE_DATA_DIR", data.path().display().to_string()),
            ("DESKMATE_LOCAL", local),
            ("DESKMATE_LOG", "info".into()),
            ("TAURI_WEBVIEW_AUTOMATION", "true".into()),
            ("WEBKIT_DISABLE_DMABUF_RENDERER", "1".into()),
            ("LANG", launch.lang.into()),
            (
                "LANGUAGE",
                launch.lang.split('.').next().unwrap_or("en_US").into(),
            ),
            ("LC_ALL", launch.lang.into()),
        ]
        .map(|(k, v)| (k.to_string(), v))
        .to_vec();
        let (driver, wd, api) = start_app(name, &env);
        Self {
            name,
            shots: 0,
            wd,
            driver,
            api,
            env,
            pulse,
            desktop,
            _dirs: vec![data, home],
            _serial: serial,
        }
    }

    /// Quits the app and starts it again on the same data, settings and session, as a
    /// person closing and reopening it would.
    fn restart(&mut self) {
        self.wd.quit();
        // The session is over, but the app may stay (it has a tray), and a second launch
        // would only bring it forward: it is ended first (its model servers die with it).
        let data_dir = self
            .env
            .iter()
            .find(|(k, _)| k == "DESKMATE_DATA_DIR")
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        for (signal, wait) in [("-TERM", 20), ("-KILL", 10)] {
            let running = app_processes(&data_dir);
            if running.is_empty() {
                break;
            }
            for pid in &running {
                let _ = Command::new("kill")
                    .args([signal, &pid.to_string()])
                    .status();
            }
            let since = Instant::now();
            while !app_processes(&data_dir).is_empty()
                && since.elapsed() < Duration::from_secs(wait)
            {
                std::thread::sleep(Duration::from_millis(200));
            }
        }
        assert!(app_processes(&data_dir).is_empty(), "the app did not end");
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let (driver, wd, api) = start_app(self.name, &self.env);
        (self.driver, self.wd, self.api) = (driver, wd, api);
    }

    /// A client of the app's API with this launch's token.
    fn api(&self) -> Http {
        Http::new(self.api.0.clone())
            .with_header("Authorization", &format!("Bearer {}", self.api.1))
    }

    fn screenshot(&mut self, step: &str) {
        self.shots += 1;
        let path = artifacts().join(format!("{}-{:02}-{step}.png", self.name, self.shots));
        self.desktop
            .screenshot(&path)
            .unwrap_or_else(|e| panic!("screenshot: {e}"));
        eprintln!("screenshot: {}", path.display());
    }

    /// Chooses an option of a `<select>` by its value.
    fn select(&mut self, select: &str, value: &str) {
        self.wd
            .click_on(&format!("{select} option[value=\"{value}\"]"));
    }

    fn type_into(&mut self, css: &str, text: &str) {
        let element = self.wd.wait_for(css, Duration::from_secs(10));
        self.wd.clear(&element);
        self.wd.type_into(&element, text);
    }
}

impl Drop for App {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let path = artifacts().join(format!("{}-failed.png", self.name));
            if self.desktop.screenshot(&path).is_ok() {
                eprintln!("screenshot of the failure: {}", path.display());
            }
        }
        self.wd.quit();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// A loopback HTTP service for an HTTP tool: `GET /weather?city=X` answers JSON and
/// records each request line and its `X-Api-Key` header.
struct Weather {
    port: u16,
    seen: std::sync::Arc<Mutex<Vec<(String, String)>>>,
}

impl Weather {
    fn start() -> Self {
        use std::io::{BufRead, BufReader, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("{e}"));
        let port = listener.local_addr().map(|a| a.port()).unwrap_or_default();
        let seen = std::sync::Arc::new(Mutex::new(Vec::new()));
        let record = seen.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let mut reader = BufReader::new(match stream.try_clone() {
                    Ok(s) => s,
                    Err(_) => continue,
                });
                let mut request = String::new();
                let _ = reader.read_line(&mut request);
                let mut key = String::new();
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
                        break;
                    }
                    if let Some((name, value)) = line.split_once(':')
                        && name.eq_ignore_ascii_case("x-api-key")
                    {
                        key = value.trim().to_string();
                    }
                }
                let target = request
                    .split_whitespace()
                    .nth(1)
                    .unwrap_or_default()
                    .to_string();
                let city = target
                    .split_once("city=")
                    .map(|(_, c)| c.split('&').next().unwrap_or_default().to_string())
                    .unwrap_or_default();
                record
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((target, key));
                let body = json!({"city": city, "temperature_c": 21, "sky": "sunny"}).to_string();
                let mut stream = stream;
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        Self { port, seen }
    }

    fn requests(&self) -> Vec<(String, String)> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// Journey 2 (power user): store a secret, create an HTTP tool whose header uses it, see
/// the schema editor reject broken JSON as it is typed, save, try the tool from the form
/// generated from its schema, and find the call in the audit log.
#[test]
fn an_http_tool_is_created_tried_from_its_form_and_audited() {
    let weather = Weather::start();
    let mut app = App::launch("http-tool", Launch::default());
    app.wd.click_on("#nav-tools");
    app.wd.wait_for(
        "#tool-list [data-tool-id=\"calculator\"]",
        Duration::from_secs(10),
    );

    // The secret: set by name, shown masked, never shown again.
    app.type_into("#secrets input[aria-label=\"Name\"]", "weather_key");
    app.type_into("#secrets input[type=\"password\"]", "s3cret-value");
    app.wd.click_on("#secrets button[type=\"submit\"]");
    app.wd.wait_until(
        "return document.querySelector('#secrets ul')?.innerText.includes('weather_key');",
        Duration::from_secs(10),
    );
    // Which store holds it is said (the tests keep secrets in the owner-only file).
    let store = app.wd.wait_for("#secret-store", Duration::from_secs(10));
    let said = app.wd.text(&store);
    assert!(said.contains("file"), "{said}");

    app.wd.click_on("#tool-new");
    app.type_into("#tool-name", "Weather lookup");
    app.type_into("#tool-id", "weather_lookup");
    app.type_into(
        "#tool-description",
        "Current weather of a city. Read-only; use when asked about the weather.",
    );
    // What people read in each language, beside the model's description.
    app.wd.click_on("#tool-editor .display-fields summary");
    app.type_into("#tool-name-zh", "天气查询");
    app.type_into("#tool-name-en", "Weather lookup");
    app.type_into("#tool-description-zh", "查询一个城市现在的天气。");
    app.type_into("#tool-description-en", "Looks up a city's weather now.");
    app.type_into(
        "#tool-url",
        &format!("http://127.0.0.1:{}/weather", weather.port),
    );
    app.wd.click_on("#tool-add-header");
    app.type_into("#tool-editor input[aria-label=\"Header\"]", "X-Api-Key");
    app.type_into(
        "#tool-editor input[aria-label=\"Value\"]",
        "{secret:weather_key}",
    );
    // The schema editor starts with a valid example (a "city" parameter)…
    assert!(app.text_of_status().contains("valid"));
    // …and a stray character makes it invalid as it is typed: problems listed, Save off.
    let editor = app
        .wd
        .wait_for("#tool-schema .cm-content", Duration::from_secs(10));
    app.wd.click(&editor);
    // Ctrl+End, then (keys released) "x" after the closing brace.
    app.wd.type_into(&editor, "\u{E009}\u{E010}");
    app.wd.type_into(&editor, "x");
    // The problem is placed where it is: the example's last line (8), after its brace.
    let problems = app.wd.text_of("#schema-problems");
    assert!(
        problems.contains("Not valid JSON at line 8, column 2"),
        "{problems}"
    );
    assert_eq!(
        app.wd.execute(
            "return document.querySelector('#tool-save').disabled;",
            json!([])
        ),
        json!(true)
    );
    app.screenshot("schema-invalid");
    app.wd.type_into(&editor, "\u{E003}"); // Backspace
    app.wd.wait_for("#schema-status", Duration::from_secs(5));
    app.wd.click_on("#tool-save");
    let notice = app.wd.text_of("#tool-notice");
    assert!(notice.contains("weather_lookup"), "{notice}");
    app.wd.wait_for(
        "#tool-detail[data-tool-id=\"weather_lookup\"]",
        Duration::from_secs(10),
    );

    // Try it: the form generated from the schema.
    app.type_into("#try-it input#root_city", "Paris");
    app.wd.click_on("#try-run");
    let result = app
        .wd
        .wait_for("#try-result [data-ok]", Duration::from_secs(20));
    let text = app.wd.text(&result);
    assert!(text.contains("Paris") && text.contains("21"), "{text}");
    app.screenshot("tried");
    let requests = weather.requests();
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert_eq!(requests[0].0, "/weather?city=Paris");
    assert_eq!(
        requests[0].1, "s3cret-value",
        "the secret went in the header"
    );
    // The secret's value is nowhere on the page.
    let page = app
        .wd
        .execute("return document.body.innerText;", json!([]))
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(!page.contains("s3cret-value"));

    // The tool is listed, and its call is in the audit log.
    let (status, listed) = app
        .api()
        .request("GET", "/api/v1/tools/list/weather_lookup", None);
    assert_eq!(status, 200, "{listed}");
    let (_, stored) = app
        .api()
        .request("GET", "/api/v1/tools/resources/weather_lookup", None);
    assert_eq!(
        stored["display"],
        json!({"name": {"zh": "天气查询", "en": "Weather lookup"},
               "description": {"zh": "查询一个城市现在的天气。", "en": "Looks up a city's weather now."}}),
        "{stored}"
    );
    app.wd.click_on("#nav-audit");
    let row = app.wd.wait_for(
        "#audit-table tr[data-tool=\"weather_lookup\"]",
        Duration::from_secs(10),
    );
    assert!(app.wd.text(&row).contains("weather_lookup"));
    app.screenshot("audit");
}

impl App {
    fn text_of_status(&mut self) -> String {
        self.wd.text_of("#schema-status")
    }
}

/// A choice question asked by a tool (text_choice_prompt, here called over the API as a
/// model would through the guard) opens as a dialog; a click answers it. A call whose
/// policy asks offers "Always allow this tool": clicked, the next call does not ask;
/// taken back on the Tools page, the question comes back (in Chinese, after a switch).
#[test]
fn dialogs_are_answered_with_a_click_and_always_allow_lasts_until_taken_back() {
    let mut app = App::launch("choice", Launch::default());
    let mut api = app.api();
    let asked = std::thread::spawn(move || {
        api.request(
            "POST",
            "/api/v1/tools/call",
            Some(&json!({"tool": "text_choice_prompt", "arguments": {
                "question": "Tea or coffee?", "options": ["Tea", "Coffee"], "timeout_s": 60
            }})),
        )
    });
    // The first window of a test run can be slow to start on a loaded machine; the
    // question itself waits 60 s.
    app.wd.wait_for(
        "#prompt-dialog[data-kind=\"choice\"]",
        Duration::from_secs(60),
    );
    let question = app.wd.text_of("#prompt-dialog .question");
    assert_eq!(question, "Tea or coffee?");
    let options: Vec<String> = app
        .wd
        .find_all("#prompt-dialog button.option")
        .iter()
        .map(|e| app.wd.text(e))
        .collect();
    assert_eq!(options, ["Tea", "Coffee"]);
    app.screenshot("asked");
    app.wd
        .click_on("#prompt-dialog button.option[data-index=\"1\"]");
    let (status, result) = asked.join().unwrap_or_else(|_| panic!("the call panicked"));
    assert_eq!(status, 200, "{result}");
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(result["data"]["choice"], "Coffee");
    assert_eq!(result["data"]["index"], 1);
    app.wd.wait_until(
        "return !document.querySelector('#prompt-dialog');",
        Duration::from_secs(5),
    );
    app.screenshot("answered");

    let (status, changed) = app.api().request(
        "PUT",
        "/api/v1/tools/resources/calculator",
        Some(&json!({"policy": "ask"})),
    );
    assert_eq!(status, 200, "{changed}");
    let ask = |app: &App| {
        let mut api = app.api();
        std::thread::spawn(move || {
            api.request(
                "POST",
                "/api/v1/tools/call",
                Some(&json!({"tool": "calculator", "arguments": {"expression": "6*7"}})),
            )
        })
    };
    let confirm = "#prompt-dialog[data-kind=\"confirm\"]";
    let asked = ask(&app);
    app.wd.wait_for(confirm, Duration::from_secs(20));
    // Outside a conversation there is no "in this conversation".
    assert!(app.wd.find_all("#prompt-approve-conversation").is_empty());
    assert_eq!(app.wd.text_of("#prompt-approve"), "Allow once");
    app.screenshot("always-offered");
    app.wd.click_on("#prompt-approve-always");
    let (_, result) = asked.join().unwrap_or_else(|_| panic!("the call panicked"));
    assert_eq!(result["ok"], true, "{result}");
    // The next call runs without a question.
    let (_, again) = app.api().request(
        "POST",
        "/api/v1/tools/call",
        Some(&json!({"tool": "calculator", "arguments": {"expression": "6*7"}})),
    );
    assert_eq!(again["ok"], true, "{again}");
    assert!(app.wd.find_all(confirm).is_empty());

    // Taken back on the Tools page, in Chinese.
    app.select("#language", "zh-CN");
    app.wd.click_on("#nav-tools");
    app.wd
        .click_on("#tool-list button[data-tool-id=\"calculator\"]");
    app.wd.wait_for(
        "#tool-approvals li[data-scope=\"always\"]",
        Duration::from_secs(10),
    );
    app.screenshot("always-listed");
    app.wd.click_on("#tool-approvals .approval-revoke");
    app.wd.wait_until(
        "return !document.querySelector('#tool-approvals li[data-approval]');",
        Duration::from_secs(10),
    );
    let asked = ask(&app);
    app.wd.wait_for(confirm, Duration::from_secs(20));
    assert_eq!(app.wd.text_of("#prompt-approve-always"), "始终允许此工具");
    // The question and its reason read in the window's language, not the service's English.
    assert_eq!(
        (
            app.wd.text_of("#prompt-dialog .question"),
            app.wd.text_of("#prompt-dialog .fields dd:last-of-type")
        ),
        (
            "运行“计算器”吗？".to_string(),
            "这个工具的策略是“先询问”".to_string()
        )
    );
    app.screenshot("asked-again-zh");
    app.wd.click_on("#prompt-deny");
    let (_, result) = asked.join().unwrap_or_else(|_| panic!("the call panicked"));
    assert_eq!(result["error_type"], "denied", "{result}");
}

/// Journey: a reminder is made on the Schedules page in words, shows its rule and next
/// time, fires through the scheduler (a toast in the window, a run recorded "done"), and
/// is deleted after a confirmation.
#[test]
fn a_reminder_is_made_in_the_window_fires_and_is_deleted() {
    let mut app = App::launch("schedules", Launch::default());
    app.wd.click_on("#nav-schedules");
    app.wd
        .wait_for("#new-schedule #schedule-when", Duration::from_secs(10));
    app.type_into("#schedule-when", "in 2 hours");
    app.type_into("#schedule-message", "Stretch your legs");
    app.wd.click_on("#schedule-create");
    let created = app.wd.text_of("#schedule-created");
    assert!(created.contains("once on"), "{created}");
    let row = "#schedules-table tr[data-schedule]";
    app.wd.wait_for(row, Duration::from_secs(10));
    let text = app.wd.text_of(row);
    assert!(text.contains("Stretch your legs"), "{text}");
    app.screenshot("made");
    // Edited: the form opens with its fields, and the new time is what fires.
    app.wd.click_on("#schedules-table .schedule-edit");
    app.wd.wait_for(
        "#new-schedule[data-editing^=\"sch-\"]",
        Duration::from_secs(10),
    );
    assert_eq!(
        app.wd.execute(
            "return [document.querySelector('#schedule-when').value, document.querySelector('#schedule-message').value];",
            json!([])
        ),
        json!(["in 2 hours", "Stretch your legs"])
    );
    app.type_into("#schedule-when", "in 5 seconds");
    app.screenshot("editing");
    app.wd.click_on("#schedule-create");
    app.wd
        .wait_for("#new-schedule[data-editing=\"\"]", Duration::from_secs(10));
    let (_, listed) = app.api().request("GET", "/api/v1/schedules", None);
    assert_eq!(listed["total"], 1, "{listed}");
    assert_eq!(listed["list"][0]["when"], "in 5 seconds", "{listed}");
    // It fires: the reminder shows in the window and the row says the run is done.
    app.wd.wait_until(
        "return [...document.querySelectorAll('.toast')].some(t => t.innerText.includes('Stretch your legs'));",
        Duration::from_secs(60),
    );
    app.wd.wait_for(
        "#schedules-table tr[data-status=\"succeeded\"]",
        Duration::from_secs(30),
    );
    app.screenshot("fired");
    let (status, listed) = app.api().request("GET", "/api/v1/schedules", None);
    assert_eq!(status, 200, "{listed}");
    assert_eq!(listed["list"][0]["created_by"], "gui", "{listed}");
    assert_eq!(listed["list"][0]["run_count"], 1, "{listed}");
    // Deleted after the confirmation.
    app.wd.execute("window.confirm = () => true;", json!([]));
    app.wd.click_on("#schedules-table .schedule-delete");
    app.wd.wait_until(
        "return !document.querySelector('#schedules-table tr[data-schedule]');",
        Duration::from_secs(10),
    );
    let (_, listed) = app.api().request("GET", "/api/v1/schedules", None);
    assert_eq!(listed["total"], 0, "{listed}");
}

/// The UI follows the system locale (zh-CN here) and switches language from the header;
/// the choice is kept across a reload. On every page, in both languages, with something
/// on it (a call in the audit log, a tool tried, an autotest run of the tools and
/// devices), no text shows from the other language but the person's data and code.
#[test]
fn the_language_follows_the_system_and_switches() {
    let mut app = App::launch(
        "language",
        Launch {
            lang: "zh_CN.UTF-8",
            ..Launch::default()
        },
    );
    assert_eq!(app.wd.text_of("#nav-chat"), "对话");
    assert_eq!(app.wd.text_of("#nav-autotest"), "自动测试");
    // A chat model whose server is not running: a row under Models, its name in the
    // header, and the autotest's LLM checks say why they fail.
    let (status, created) = app.api().request(
        "POST",
        "/api/v1/models/llm",
        Some(
            &json!({"name": "Nowhere LLM", "base_url": "http://127.0.0.1:9/v1",
                     "model": "nowhere-model", "is_default": true}),
        ),
    );
    assert_eq!(status, 201, "{created}");
    let identifiers = identifiers(&mut app);
    let mut found = scan_every_page(&mut app, "zh-CN", &identifiers);
    app.select("#language", "en");
    app.wd.wait_until(
        "return document.querySelector('#nav-chat').innerText === 'Chat';",
        Duration::from_secs(5),
    );
    assert_eq!(app.wd.text_of("#nav-tools"), "Tools");
    assert_eq!(
        app.wd
            .execute("return document.documentElement.lang;", json!([])),
        json!("en")
    );
    app.wd.refresh();
    app.wd
        .wait_for(".shell[data-ready]", Duration::from_secs(20));
    assert_eq!(app.wd.text_of("#nav-chat"), "Chat");
    found.extend(scan_every_page(&mut app, "en", &identifiers));
    assert!(
        found.is_empty(),
        "text from the other language:\n{}",
        found.join("\n")
    );
}

/// What is code in either language: tool ids and parameter names, device names.
fn identifiers(app: &mut App) -> Vec<String> {
    let (status, listed) = app
        .api()
        .request("GET", "/api/v1/tools/resources?limit=1000", None);
    assert_eq!(status, 200, "{listed}");
    let mut names: Vec<String> = ["Camera", "Mixer", "Speaker", "Microphone", "Notifications"]
        .map(String::from)
        .to_vec();
    for tool in listed["list"].as_array().into_iter().flatten() {
        names.extend(tool["id"].as_str().map(String::from));
        if let Some(properties) = tool["parameter_schema"]["properties"].as_object() {
            names.extend(properties.keys().cloned());
        }
    }
    names
}

/// Opens each page with something on it, scans it (see `language_scan.js`) and takes a
/// screenshot; returns what the scans found, each line naming the page and language.
fn scan_every_page(app: &mut App, language: &str, identifiers: &[String]) -> Vec<String> {
    const SCAN: &str = include_str!("language_scan.js");
    let mut found = Vec::new();
    for page in [
        "chat",
        "tools",
        "schedules",
        "mcp",
        "models",
        "autotest",
        "audit",
    ] {
        app.wd.click_on(&format!("#nav-{page}"));
        match page {
            "tools" => {
                app.wd.click_on("#tool-list [data-tool-id=\"calculator\"]");
                app.wd.wait_for("#try-it #try-run", Duration::from_secs(10));
                app.type_into("#try-it input", "17% of 2340");
                app.wd.click_on("#try-run");
                app.wd.wait_for("#try-result", Duration::from_secs(10));
            }
            "autotest" => {
                if app.wd.find("#autotest-summary").is_none() {
                    app.wd.click_on("#autotest-run");
                }
                app.wd
                    .wait_for("#autotest-summary", Duration::from_secs(120));
            }
            "audit" => {
                app.wd.wait_for(
                    "tr[data-tool=\"calculator\"] details summary",
                    Duration::from_secs(10),
                );
                app.wd
                    .click_on("tr[data-tool=\"calculator\"] details summary");
            }
            _ => std::thread::sleep(Duration::from_millis(500)),
        }
        let offending = app.wd.execute(SCAN, json!([language, identifiers]));
        found.extend(
            offending
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(|text| format!("{language} {page}: {text}")),
        );
        app.screenshot(&format!("{language}-{page}"));
    }
    found
}

/// Journey 3 (QA): Run autotest against the real local LLM (SmolLM2) and ASR (whisper)
/// servers and this session's devices; checks appear one by one under a progress bar
/// over the planned number; the summary, device readiness and the run history follow.
#[test]
fn the_autotest_runs_from_the_gui_and_shows_every_check() {
    let mut app = App::launch(
        "autotest",
        Launch {
            manifest: Some(manifest_with("smollm2", true)),
            ..Launch::default()
        },
    );
    app.wd.click_on("#nav-autotest");
    app.wd.click_on("#autotest-run");
    let started = Instant::now();
    let mut seen = Vec::new();
    let total = loop {
        let state = app.wd.execute(
            "const p = document.querySelector('#autotest-progress');
             const s = document.querySelector('#autotest-summary');
             return {rows: document.querySelectorAll('#autotest-results tbody tr').length,
                     max: p ? Number(p.max) : 0,
                     total: s ? Number(s.dataset.total) : null};",
            json!([]),
        );
        let rows = state["rows"].as_u64().unwrap_or(0);
        if seen.last() != Some(&rows) {
            seen.push(rows);
        }
        if let Some(total) = state["total"].as_u64() {
            assert_eq!(rows, total, "{state}");
            assert_eq!(
                state["max"].as_u64(),
                Some(total),
                "the plan was the run: {state}"
            );
            break total;
        }
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "no summary: {state}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    // Checks appeared while the run went on, not all at the end.
    assert!(
        seen.iter().any(|&n| n > 0 && n < total),
        "rows seen: {seen:?} of {total}"
    );
    let checks = app.wd.execute(
        "return [...document.querySelectorAll('#autotest-results tbody tr')]
            .map(r => [r.dataset.check, r.dataset.status !== 'failed', r.cells[2].innerText]);",
        json!([]),
    );
    let checks: Vec<(String, bool, String)> =
        serde_json::from_value(checks).unwrap_or_else(|e| panic!("{e}"));
    let passed = |name: &str| {
        checks
            .iter()
            .filter(|c| c.0 == name)
            .map(|c| (c.1, c.2.clone()))
            .collect::<Vec<_>>()
    };
    // LLM then ASR checks, against the real servers.
    for name in [
        "Model Existence",
        "API Connection",
        "Streaming Support",
        "API Availability",
    ] {
        assert!(
            passed(name).iter().all(|(ok, _)| *ok) && !passed(name).is_empty(),
            "{name}: {checks:?}"
        );
    }
    assert_eq!(
        passed("Model Existence").len(),
        2,
        "LLM and ASR: {checks:?}"
    );
    let tools: Vec<_> = checks
        .iter()
        .filter(|c| c.0.starts_with("Tool: "))
        .collect();
    // Every tool works (or is skipped, saying why) but the camera tools: this machine
    // has no camera, and their check says what to do.
    assert!(
        tools.len() >= 11
            && tools
                .iter()
                .all(|c| c.1 || (c.0.contains("camera") && c.2.contains("connect a camera"))),
        "{tools:?}"
    );
    let calculator = passed("Tool: calculator");
    assert!(calculator[0].1.contains("→ 14"), "{calculator:?}");
    // The first run has nothing to compare with; it can be exported for CI.
    let compare = app
        .wd
        .wait_for("#autotest-compare", Duration::from_secs(10));
    let compare = app.wd.text(&compare);
    assert!(!compare.is_empty(), "no comparison shown");
    assert!(!app.wd.find_all("#autotest-junit").is_empty());
    let devices: Vec<_> = checks
        .iter()
        .filter(|c| c.0.starts_with("Device: "))
        .collect();
    let names: Vec<&str> = devices.iter().map(|c| c.0.as_str()).collect();
    assert_eq!(
        names,
        [
            "Device: Mixer",
            "Device: Speaker",
            "Device: Microphone",
            "Device: Notifications",
            "Device: Camera",
            "Device: Choice dialogs"
        ]
    );
    for ready in [
        "Device: Mixer",
        "Device: Notifications",
        "Device: Choice dialogs",
    ] {
        assert!(passed(ready)[0].0, "{ready}: {devices:?}");
    }
    let readiness = app.wd.text_of("#autotest-device-list");
    assert!(readiness.contains("Mixer"), "{readiness}");
    app.screenshot("done");
    let history = app.wd.find_all("#autotest-history tbody tr");
    assert_eq!(history.len(), 1);
    let (status, runs) = app
        .api()
        .request("GET", "/api/v1/tools/autotest/runs", None);
    assert_eq!(status, 200);
    let row = &runs["list"][0];
    assert_eq!(
        row["passed"].as_u64().unwrap_or(0)
            + row["failed"].as_u64().unwrap_or(0)
            + row["skipped"].as_u64().unwrap_or(0),
        total,
        "{runs}"
    );
}

/// Journey 1 (end user): ask the local model (Qwen2.5-Coder-1.5B on llama-server) to turn
/// the volume up in the chat; the tool card shows the call and its result, and the
/// PulseAudio sink's volume really went up.
#[test]
fn asking_the_local_model_turns_the_volume_up() {
    let mut app = App::launch(
        "volume-chat",
        Launch {
            manifest: Some(manifest_with("qwen", false)),
            ..Launch::default()
        },
    );
    app.pulse
        .pactl(&["set-sink-volume", "ci_sink", "40%"])
        .unwrap_or_else(|| panic!("pactl"));
    assert_eq!(app.pulse.percent(), 40);
    // Wait for the model server (it loads the model in the background).
    let mut api = app.api();
    let started = Instant::now();
    loop {
        let (status, answer) = api.request(
            "POST",
            "/api/v1/tools/test-message?llm_model_id=local-qwen2.5-coder-1.5b&message=hi",
            None,
        );
        if status == 200 && answer["success"] == json!(true) {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(240),
            "the local model did not answer: {status} {answer}"
        );
        std::thread::sleep(Duration::from_secs(2));
    }
    // The header names the model and says it is ready (it said "loading" until then).
    app.wd.wait_until(
        "const h = document.querySelector('#header-model'); \
         return h && h.dataset.state === 'ready' && h.textContent.includes('Qwen');",
        Duration::from_secs(30),
    );
    app.type_into("#chat-input", "Turn the volume up");
    app.wd.click_on("#chat-send");
    // From "Send" to the first event the chat says the model is thinking, with the time.
    let thinking = app.wd.text_of("#chat-thinking");
    assert!(thinking.contains("Thinking"), "{thinking}");
    // Then the turn's plan, as the model lists what was asked, before any call.
    let part = app.wd.wait_for("#chat-plan li", Duration::from_secs(300));
    let planned = app.wd.text(&part);
    assert!(planned.contains('→'), "{planned}");
    let card = app.wd.wait_for(
        ".tool-card[data-tool=\"increase_volume\"]:not([data-status=\"running\"])",
        Duration::from_secs(300),
    );
    let status = app.wd.execute(
        "return arguments[0].dataset.status;",
        json!([{"element-6066-11e4-a52e-4f735466cecf": card.0}]),
    );
    assert_eq!(status, json!("done"), "{}", app.wd.text(&card));
    // The arguments and raw result are folded away under "Details".
    let text = app.wd.text(&card);
    let folded = app.wd.execute(
        "const d = arguments[0].querySelector('details'); return !!d && !d.open;",
        json!([{"element-6066-11e4-a52e-4f735466cecf": card.0}]),
    );
    assert_eq!(
        folded,
        json!(true),
        "the arguments and raw result are folded: {text}"
    );
    // The turn ends (the reply, or the stop button turns back into Send).
    app.wd.wait_for("#chat-send", Duration::from_secs(300));
    app.screenshot("volume-up");
    let after = app.pulse.percent();
    assert!(after > 40, "the sink went from 40% to {after}%");
    // The reply agrees with what happened: short, no apology or refusal, no call as text.
    let reply = app.wd.execute(
        "const b = document.querySelectorAll('.bubble.assistant'); \
         return b.length ? b[b.length - 1].innerText : '';",
        json!([]),
    );
    let reply = reply.as_str().unwrap_or_default().to_lowercase();
    // One line a person reads says what happened: the card leads with it, or the reply
    // is made of it (then the card does not repeat it).
    // The card is titled with the tool's name in the window's language, not its id.
    assert_eq!(
        app.wd
            .text_of(".tool-card[data-tool=\"increase_volume\"] .tool-name"),
        "Increase volume"
    );
    let card_line = app.wd.execute(
        "const p = document.querySelector('.tool-card[data-tool=\"increase_volume\"] p.summary'); \
         return p ? p.innerText : '';",
        json!([]),
    );
    let card_line = card_line.as_str().unwrap_or_default().to_lowercase();
    assert!(
        card_line.contains("volume 40% →") != reply.contains("volume 40% →"),
        "said once, in the card or the reply: card {card_line:?}, reply {reply:?}"
    );
    assert!(
        !reply.is_empty()
            && reply.len() < 400
            && !["sorry", "apolog", "cannot", "can't", "increase_volume", "{"]
                .iter()
                .any(|w| reply.contains(w)),
        "reply: {reply}"
    );

    // The conversation is listed in the sidebar and stays open across a visit to another
    // page and a reload of the window (as after a restart).
    let listed = app.wd.wait_until(
        "const t = document.querySelector('#conversations li[data-id] .title'); \
         return t ? t.textContent : '';",
        Duration::from_secs(10),
    );
    assert_eq!(listed, json!("Turn the volume up"));
    app.wd.click_on("#nav-tools");
    app.wd.click_on("#nav-chat");
    app.wd.wait_for(
        ".tool-card[data-tool=\"increase_volume\"]",
        Duration::from_secs(5),
    );
    app.wd.refresh();
    app.wd
        .wait_for(".shell[data-ready]", Duration::from_secs(30));
    let card = app.wd.wait_for(
        ".tool-card[data-tool=\"increase_volume\"][data-status=\"done\"]",
        Duration::from_secs(10),
    );
    let text = app.wd.execute(
        "return document.querySelector('#messages').innerText;",
        json!([]),
    );
    let reopened = text.as_str().unwrap_or_default();
    assert_eq!(
        reopened.matches("Volume 40% →").count(),
        1,
        "the conversation reopens with what happened, said once: {reopened} (card: {})",
        app.wd.text(&card)
    );
    // A new conversation empties the chat; the old one reopens from the list.
    app.wd.click_on("#chat-new");
    app.wd.wait_until(
        "return document.querySelectorAll('#messages .bubble, #messages .tool-card').length === 0;",
        Duration::from_secs(5),
    );
    app.wd.click_on("#conversations li[data-id] .open");
    app.wd.wait_for(
        ".tool-card[data-tool=\"increase_volume\"]",
        Duration::from_secs(10),
    );
    // Renamed in place (Enter saves), then deleted after a second click.
    app.wd.click_on("#conversations li[data-id] .rename");
    // The title is selected when the field opens: typing replaces it.
    let field = app
        .wd
        .wait_for("#conversations .rename-input", Duration::from_secs(10));
    app.wd.type_into(&field, "Louder\u{E007}");
    app.wd.wait_until(
        "const t = document.querySelector('#conversations li[data-id] .title'); \
         return t && t.textContent === 'Louder';",
        Duration::from_secs(10),
    );
    app.screenshot("conversations");

    // Stop really stops: asked to turn it down and stopped while the model is thinking,
    // the turn ends, says so, and nothing runs afterwards.
    let before = app.pulse.percent();
    app.type_into("#chat-input", "Turn the volume down");
    app.wd.click_on("#chat-send");
    app.wd.wait_for("#chat-thinking", Duration::from_secs(5));
    app.wd.click_on("#chat-stop");
    app.wd.wait_for("#chat-send", Duration::from_secs(10));
    let note = app.wd.execute(
        "const n = document.querySelectorAll('#messages .note'); \
         return n.length ? n[n.length - 1].innerText : '';",
        json!([]),
    );
    assert!(
        note.as_str().is_some_and(|n| n.contains("Stopped")),
        "{note}"
    );
    // Long enough for the model to have answered and the tool to have run.
    std::thread::sleep(Duration::from_secs(20));
    assert_eq!(app.pulse.percent(), before, "the volume stayed");
    let (_, audit) = app
        .api()
        .request("GET", "/api/v1/audit?tool=decrease_volume", None);
    assert_eq!(audit["total"], json!(0), "nothing ran: {audit}");
    app.screenshot("stopped");

    // Closed and opened again, the app lists the conversation and reopens it.
    app.restart();
    app.wd.wait_until(
        "const t = document.querySelector('#conversations li[data-id] .title'); \
         return t && t.textContent === 'Louder';",
        Duration::from_secs(20),
    );
    app.wd.wait_for(
        ".tool-card[data-tool=\"increase_volume\"][data-status=\"done\"]",
        Duration::from_secs(20),
    );
    app.screenshot("restarted");
    app.wd.click_on("#conversations li[data-id] .delete");
    app.wd
        .click_on("#conversations li[data-id] .confirm-delete");
    app.wd.wait_until(
        "return document.querySelectorAll('#conversations li[data-id]').length === 0 \
         && document.querySelectorAll('#messages .tool-card').length === 0;",
        Duration::from_secs(10),
    );
    let (status, listed) = app.api().request("GET", "/api/v1/conversations", None);
    assert_eq!((status, listed["list"].clone()), (200, json!([])));
}

/// The MCP page as a person uses it: server-everything (the reference MCP server, from
/// the test peers `scripts/common.sh` installs) is added by its command; its row turns
/// "running" with its tools listed, and its tools then answer through the API.
#[test]
fn an_mcp_server_is_added_on_the_mcp_page_and_its_tools_join() {
    let peers = std::env::var_os("DESKMATE_MCP_PEERS")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/deskmate/mcp")))
        .unwrap_or_default();
    let everything = peers.join("npm/node_modules/.bin/mcp-server-everything");
    assert!(
        everything.exists(),
        "the MCP peers are not installed: run scripts/test.sh"
    );
    let mut app = App::launch("mcp", Launch::default());
    app.wd.click_on("#nav-mcp");
    app.wd.wait_for("#mcp-servers", Duration::from_secs(10));
    app.type_into("#mcp-name", "everything");
    app.type_into("#mcp-command", &everything.display().to_string());
    app.type_into("#mcp-args", "stdio");
    app.screenshot("filled");
    app.wd.click_on("#mcp-add button[type=\"submit\"]");
    // The page looks again while the server starts, until it runs.
    let running = app.wd.wait_until(
        "const row = document.querySelector('tr[data-server=\"everything\"] .badge.running'); \
         return row ? row.innerText : null;",
        Duration::from_secs(30),
    );
    let badge = running.as_str().unwrap_or_default().to_string();
    assert!(
        badge.starts_with("Running:") && badge.contains("tools"),
        "{badge}"
    );
    app.wd
        .click_on("tr[data-server=\"everything\"] details summary");
    let listed = app.wd.text_of("tr[data-server=\"everything\"] details");
    assert!(listed.contains("everything.echo"), "{listed}");
    app.screenshot("running");
    let (status, echoed) = app.api().request(
        "POST",
        "/api/v1/tools/call",
        Some(&json!({"tool": "everything.echo", "arguments": {"message": "from the page"}})),
    );
    assert_eq!(status, 200, "{echoed}");
    assert_eq!(echoed["data"]["text"], "Echo: from the page", "{echoed}");
}

/// Journey: two conversations are had in the window with a scripted chat model (a
/// loopback server answering as an OpenAI-compatible one); "喝水" typed in the sidebar's
/// search finds the Chinese message it stands inside of, and a click on the hit opens
/// that conversation scrolled to that message, highlighted. The hits are shown in both
/// languages. Then the same conversations are edited, branched, regenerated, exported and
/// imported, and a conversation longer than the model's context shows its summary line
/// and the context meter.
#[test]
fn search_finds_a_chinese_word_inside_a_phrase_and_opens_that_message() {
    use deskmate_testkit::{Script, ScriptedServer, completion};

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let server = runtime.block_on(ScriptedServer::start(&["scripted"]));
    server.repeat(Script::Json(completion(Some("OK, noted."), &[])));
    let mut app = App::launch("search", Launch::default());
    let (status, created) = app.api().request(
        "POST",
        "/api/v1/models/llm",
        Some(
            &json!({"name": "Scripted", "base_url": server.base_url(), "model": "scripted",
                     "streaming": false, "is_default": true, "max_tokens": 100}),
        ),
    );
    assert_eq!(status, 201, "{created}");

    // Two conversations, as a person has them: the one with the words first.
    let phrase = "今天下午记得喝水和休息";
    for (i, message) in [phrase, "What is on my calendar tomorrow?"]
        .into_iter()
        .enumerate()
    {
        if i > 0 {
            app.wd.click_on("#chat-new");
        }
        app.type_into("#chat-input", message);
        app.wd.click_on("#chat-send");
        app.wd.wait_until(
            &format!(
                "return document.querySelectorAll('.bubble.assistant').length === 1 \
                 && !!document.querySelector('#chat-send') \
                 && document.querySelectorAll('#conversations li[data-id]').length === {};",
                i + 1
            ),
            Duration::from_secs(30),
        );
    }
    // The second conversation is open; the first is found by a word inside its message.
    let (status, found) =
        app.api()
            .request("GET", "/api/v1/conversations?q=%E5%96%9D%E6%B0%B4", None);
    assert_eq!(status, 200, "{found}");
    assert_eq!(found["total"], 2, "its title and its message: {found}");
    let message = found["list"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|hit| hit["kind"] == "user")
        .cloned()
        .unwrap_or_else(|| panic!("no message hit: {found}"));
    let (id, seq) = (
        message["conversation_id"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        message["seq"]
            .as_i64()
            .unwrap_or_else(|| panic!("{message}")),
    );

    app.type_into("#conversation-search", "喝水");
    let hit = format!("#search-hits li[data-id=\"{id}\"][data-seq=\"{seq}\"]");
    app.wd.wait_for(&hit, Duration::from_secs(10));
    assert_eq!(app.wd.find_all("#search-hits li").len(), 2);
    let shown = app.wd.text_of(&hit);
    assert!(shown.contains(phrase), "{shown}");
    let marked = app.wd.execute(
        &format!(
            "return [...document.querySelectorAll('{} mark')].map(m => m.textContent);",
            hit.replace('\'', "\\'")
        ),
        json!([]),
    );
    assert_eq!(marked, json!(["喝水"]), "the word is marked in the snippet");
    app.screenshot("hits-en");

    app.wd.click_on(&format!("{hit} button"));
    let entry = format!("#messages [data-seq=\"{seq}\"].hit");
    app.wd.wait_for(&entry, Duration::from_secs(10));
    let state = app.wd.execute(
        &format!(
            "const e = document.querySelector('{}'); \
             const box = document.querySelector('#messages').getBoundingClientRect(); \
             const r = e.getBoundingClientRect(); \
             return {{text: e.innerText, hits: document.querySelectorAll('#messages .hit').length, \
                      visible: r.bottom > box.top && r.top < box.bottom, \
                      stored: localStorage.getItem('deskmate.conversation')}};",
            entry.replace('\'', "\\'")
        ),
        json!([]),
    );
    assert!(
        state["text"].as_str().is_some_and(|t| t.contains(phrase)),
        "{state}"
    );
    assert_eq!(
        (
            state["hits"].clone(),
            state["visible"].clone(),
            state["stored"].clone()
        ),
        (json!(1), json!(true), json!(id)),
        "the hit's message is the one highlighted, in view, in the conversation opened"
    );
    assert_eq!(
        app.wd.find_all("#search-hits li.active").len(),
        2,
        "the hits of the open conversation are marked"
    );
    app.screenshot("opened-en");

    // The same search in Chinese.
    app.select("#language", "zh-CN");
    app.wd.wait_until(
        "return document.querySelector('#nav-chat').innerText === '对话';",
        Duration::from_secs(5),
    );
    let heading = app.wd.text_of("#conversations h2");
    assert_eq!(heading, "找到 2 处");
    app.screenshot("hits-zh");
    // Escape empties the box, which gives the conversation list back.
    let search = app
        .wd
        .wait_for("#conversation-search", Duration::from_secs(5));
    app.wd.type_into(&search, "\u{E00C}");
    app.wd.wait_until(
        "return !document.querySelector('#search-hits') \
         && document.querySelectorAll('#conversations li[data-id]').length === 2;",
        Duration::from_secs(5),
    );

    // The message edited: a second branch; back to the first; a new reply to it.
    let asked = "return [...document.querySelectorAll('#messages .bubble.user p[data-user]')].map(p => p.innerText);";
    app.wd.click_on("#messages .bubble.user .edit-message-open");
    app.type_into("#messages .bubble.user .edit-text", "明天上午记得喝水");
    app.wd.click_on("#messages .bubble.user .edit-send");
    app.wd.wait_until(
        "const nav = document.querySelector('#messages .bubble.user .branch-index'); \
         return !!nav && nav.innerText === '2/2' && !!document.querySelector('#chat-send');",
        Duration::from_secs(30),
    );
    assert_eq!(
        app.wd.execute(asked, json!([])),
        json!(["明天上午记得喝水"])
    );
    app.screenshot("edited-zh");
    app.wd.click_on("#messages .bubble.user .branch-prev");
    app.wd.wait_until(
        "const nav = document.querySelector('#messages .bubble.user .branch-index'); \
         return !!nav && nav.innerText === '1/2';",
        Duration::from_secs(10),
    );
    assert_eq!(app.wd.execute(asked, json!([])), json!([phrase]));
    app.wd.click_on("#chat-regenerate");
    app.wd.wait_until(
        "const nav = document.querySelector('#messages .bubble.assistant .branch-index'); \
         return !!nav && nav.innerText === '2/2' && !!document.querySelector('#chat-send');",
        Duration::from_secs(30),
    );
    app.screenshot("regenerated-zh");
    let (status, detail) = app
        .api()
        .request("GET", &format!("/api/v1/conversations/{id}"), None);
    assert_eq!(status, 200, "{detail}");
    assert_eq!(
        detail["branches"].as_array().map(Vec::len),
        Some(2),
        "the edit and the new reply: {detail}"
    );

    // The conversation saved as Markdown where the person chooses in the save dialog.
    let files = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let markdown = files.path().join("drink-water.md");
    app.wd.click_on("#chat-export summary");
    app.wd.click_on("#export-markdown");
    save_in_dialog(app.desktop.display(), "另存为 Markdown", &markdown);
    let status = app.wd.wait_until(
        "const s = document.querySelector('#export-status'); return s && s.innerText;",
        Duration::from_secs(20),
    );
    assert_eq!(
        status,
        json!(format!("已保存到 {}", markdown.display())),
        "the window says where it saved"
    );
    let text = std::fs::read_to_string(&markdown).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        text.starts_with("# ")
            && text.contains(&format!("**你:** {phrase}\n"))
            && text.contains("**Deskmate:** OK, noted.\n")
            && !text.contains("明天上午"),
        "the branch shown, labelled in the window's language: {text}"
    );
    app.screenshot("exported-zh");

    // A JSON export of every branch chosen with Import comes back as a third conversation
    // with both branches; a dropped file that is not an export changes nothing.
    let (status, export) = app.api().request(
        "GET",
        &format!("/api/v1/conversations/{id}/export?format=json&branches=all"),
        None,
    );
    assert_eq!(status, 200, "{export}");
    let exported = files.path().join("export.json");
    std::fs::write(&exported, export.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let input = app.wd.wait_for("#import-file", Duration::from_secs(5));
    app.wd.type_into(&input, &exported.display().to_string());
    app.wd.wait_until(
        "const s = document.querySelector('#import-status'); \
         return s && s.innerText.includes('export.json') \
         && document.querySelectorAll('#conversations li[data-id]').length === 3;",
        Duration::from_secs(20),
    );
    let imported = app.wd.execute(
        "return localStorage.getItem('deskmate.conversation');",
        json!([]),
    );
    let imported = imported.as_str().unwrap_or_default().to_string();
    assert!(
        !imported.is_empty() && imported != id,
        "the import is opened: {imported}"
    );
    let (status, copy) =
        app.api()
            .request("GET", &format!("/api/v1/conversations/{imported}"), None);
    assert_eq!(status, 200, "{copy}");
    let shape = |d: &Value| {
        d["branches"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|b| (b["index"].clone(), b["count"].clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        shape(&copy),
        shape(&detail),
        "both branches came back: {copy}"
    );
    let mut other = export.clone();
    other["format"] = json!("other");
    for (name, body, shown) in [
        (
            "broken.json",
            "{\"format\": ".to_string(),
            "不是对话的 JSON 导出文件",
        ),
        // Said in the window's language, where the problem is; the API's own words
        // are the detail one click away.
        (
            "other.json",
            other.to_string(),
            "文件中 /format 处的内容不符合对话导出文件的格式",
        ),
    ] {
        app.wd.execute(
            "const data = new DataTransfer(); \
             data.items.add(new File([arguments[1]], arguments[0], {type: 'application/json'})); \
             document.querySelector('#import-drop').dispatchEvent( \
               new DragEvent('drop', {dataTransfer: data, bubbles: true, cancelable: true}));",
            json!([name, body]),
        );
        let said = app.wd.wait_until(
            &format!(
                "const s = document.querySelector('#import-status'); \
                 return s && s.classList.contains('error') && s.innerText.includes('{name}') && s.innerText;"
            ),
            Duration::from_secs(10),
        );
        assert!(said.as_str().is_some_and(|s| s.contains(shown)), "{said}");
    }
    let detail = app.wd.execute(
        "const d = document.querySelector('#import-status details'); \
         d.open = true; return d.innerText;",
        json!([]),
    );
    assert!(
        detail
            .as_str()
            .is_some_and(|d| d.contains("详情") && d.contains("/format: format must be")),
        "{detail}"
    );
    assert_eq!(
        app.wd.find_all("#conversations li[data-id]").len(),
        3,
        "nothing was stored from the refused files"
    );
    app.screenshot("import-refused-zh");

    // A conversation longer than the model's context: its oldest turns are folded into the
    // summary the model writes, shown as one "此前：" line that opens to the whole text, and
    // the meter by the composer tells, on hover, how full the context is and that turns
    // were folded.
    const SUMMARY: &str = "The person's first number was 4711; then notes about folders.";
    server.respond_with(|request| {
        let first = request["messages"][0]["content"]
            .as_str()
            .unwrap_or_default();
        let text = if first.starts_with("You summarize a conversation") {
            SUMMARY
        } else {
            "OK, noted."
        };
        Script::Json(completion(Some(text), &[]))
    });
    app.wd.click_on("#chat-new");
    let say = |app: &mut App, message: &str, replies: usize| {
        app.type_into("#chat-input", message);
        app.wd.click_on("#chat-send");
        app.wd.wait_until(
            &format!(
                "return document.querySelectorAll('.bubble.assistant').length === {replies} \
                 && !!document.querySelector('#chat-send');"
            ),
            Duration::from_secs(30),
        );
    };
    say(&mut app, "The first number is 4711.", 1);
    // From the second turn on the catalog holds the tool that reads earlier turns too:
    // the room is measured there.
    say(&mut app, "Thanks.", 2);
    let long = open_conversation(&mut app);
    let (status, detail) = app
        .api()
        .request("GET", &format!("/api/v1/conversations/{long}"), None);
    assert_eq!(status, 200, "{detail}");
    let catalog = detail["context"]["catalog_tokens"]
        .as_u64()
        .unwrap_or_else(|| panic!("the second turn's context use: {detail}"));
    // Room for about two of the turns below besides the catalog, the new message and the
    // answer's reserve (an eighth of the context): the third folds.
    let n_ctx = (catalog + 500) * 8 / 7;
    let (status, set) = app.api().request(
        "PUT",
        "/api/v1/settings/chat.context_tokens",
        Some(&json!({"value": n_ctx})),
    );
    assert_eq!(status, 200, "{set}");
    let note = "please keep in mind that the blue folders for the audit arrive on Tuesday \
                morning and go to the second floor. "
        .repeat(3);
    for i in 3..=6 {
        say(&mut app, &format!("Note {i}: {note}"), i);
    }
    app.wd
        .wait_for("#messages .earlier-summary", Duration::from_secs(10));
    let line = app.wd.text_of("#messages .earlier-summary summary");
    assert!(
        line.starts_with("此前：") && line.contains("4711"),
        "the collapsed line: {line}"
    );
    app.wd.click_on("#messages .earlier-summary summary");
    let whole = app.wd.execute(
        "const d = document.querySelector('#messages .earlier-summary'); \
         return d.open && d.querySelector('p').innerText;",
        json!([]),
    );
    assert_eq!(whole, json!(SUMMARY), "opened, the summary is read whole");
    let meter = |app: &mut App| {
        app.wd.execute(
            "const m = document.querySelector('#context-meter'); \
             return m && {title: m.title, now: Number(m.getAttribute('aria-valuenow'))};",
            json!([]),
        )
    };
    let zh = meter(&mut app);
    let title = zh["title"].as_str().unwrap_or_default();
    assert!(
        title.starts_with("模型上下文：已用")
            && title.contains(&format!("/ {n_ctx} 个 token"))
            && title.contains(&format!("工具目录和说明：{catalog}"))
            && title.ends_with("最早的几轮已折叠成摘要。"),
        "{zh}"
    );
    assert!(
        zh["now"].as_u64().is_some_and(|n| (1..=100).contains(&n)),
        "{zh}"
    );
    app.screenshot("folded-zh");
    app.select("#language", "en");
    app.wd.wait_until(
        "const s = document.querySelector('#messages .earlier-summary summary'); \
         return !!s && s.innerText.startsWith('Earlier:');",
        Duration::from_secs(5),
    );
    let en = meter(&mut app);
    assert!(
        en["title"]
            .as_str()
            .is_some_and(|t| t.starts_with("Model context:")
                && t.ends_with("The oldest turns are folded into a summary.")),
        "{en}"
    );
    // The status lines follow the language too.
    let statuses = app.wd.execute(
        "return [document.querySelector('#export-status').innerText, \
                 document.querySelector('#import-status p').innerText];",
        json!([]),
    );
    assert_eq!(
        statuses,
        json!([
            format!("Saved to {}", markdown.display()),
            "other.json was not imported (nothing was stored): what the file holds at /format \
             is not what a conversation export holds there."
        ])
    );
    app.screenshot("folded-en");
    drop(runtime);
}

/// The conversation the chat page has open.
fn open_conversation(app: &mut App) -> String {
    app.wd
        .execute(
            "return localStorage.getItem('deskmate.conversation');",
            json!([]),
        )
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Answers the OS save dialog whose title has `title` in it (GTK's file chooser, a window of its own the
/// webview driver cannot reach) as a person would: the file's path typed into its name
/// field, then Enter.
fn save_in_dialog(display: &str, title: &str, path: &Path) {
    let xdotool = |args: &[&str]| {
        Command::new("xdotool")
            .args(args)
            .env("DISPLAY", display)
            .output()
            .unwrap_or_else(|e| panic!("xdotool (apt install xdotool): {e}"))
    };
    let text = |out: std::process::Output| String::from_utf8_lossy(&out.stdout).trim().to_string();
    let since = Instant::now();
    let window = loop {
        // `search --name` reads only the Latin-1 name; the title is read as UTF-8 here.
        let windows: Vec<(String, String)> =
            text(xdotool(&["search", "--onlyvisible", "--class", "."]))
                .lines()
                .map(|w| (w.to_string(), text(xdotool(&["getwindowname", w]))))
                .collect();
        if let Some((window, _)) = windows.iter().find(|(_, name)| name.contains(title)) {
            break window.clone();
        }
        assert!(
            since.elapsed() < Duration::from_secs(20),
            "no save dialog titled {title:?}; windows: {windows:?}"
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    // The dialog draws its widgets after it is mapped; the name field has the focus.
    std::thread::sleep(Duration::from_millis(500));
    let typed = path.display().to_string();
    for args in [
        vec!["windowfocus", "--sync", window.as_str()],
        vec!["key", "--clearmodifiers", "ctrl+a"],
        vec!["type", "--delay", "15", &typed],
        vec!["key", "Return"],
    ] {
        let done = xdotool(&args);
        assert!(done.status.success(), "xdotool {args:?}: {done:?}");
    }
}

/// Journey: a person's own model file. The SmolLM2 file of the models folder is listed
/// under "Model files found" (with a broken `.gguf` of the folder the `models.folder`
/// setting names, whose row says why it cannot be added); its Add button adds it, and the
/// LLM list shows the new model with its file, which its editor shows read-only with the
/// context size and threads. Deleted from the page, it is gone and the file can be added
/// again.
#[test]
fn a_model_file_found_is_added_from_the_models_page_and_deleted() {
    const NAME: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";
    let cache = std::env::var_os("DESKMATE_CACHE")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/deskmate")))
        .unwrap_or_default();
    let smollm = cache.join("models").join(NAME);
    assert!(
        smollm.is_file(),
        "{}: run scripts/setup-models.sh tests",
        smollm.display()
    );
    // The folder of the setting: the SmolLM2 file (a link to it: listed once) and a file
    // that is not a model.
    let folder = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink(&smollm, folder.path().join(NAME)).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(folder.path().join("broken.gguf"), b"not a model at all")
        .unwrap_or_else(|e| panic!("{e}"));
    let mut app = App::launch("model-file", Launch::default());
    let (status, set) = app.api().request(
        "PUT",
        "/api/v1/settings/models.folder",
        Some(&json!({"value": folder.path().display().to_string()})),
    );
    assert_eq!(status, 200, "{set}");
    app.wd.click_on("#nav-models");
    let found = format!("#model-files tr.model-file[data-path$=\"/{NAME}\"]");
    app.wd.wait_for(&found, Duration::from_secs(10));
    let row = app.wd.text_of(&found);
    assert!(row.contains("llama") && row.contains("MB"), "{row}");
    let listed = app.wd.execute(
        "return [...document.querySelectorAll('#model-files tr.model-file')].map(r => r.dataset.path);",
        json!([]),
    );
    let paths: Vec<&str> = listed
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(
        paths.iter().filter(|p| p.ends_with(NAME)).count(),
        1,
        "{listed}"
    );
    let broken = app.wd.text_of(
        "#model-files tr.model-file[data-path$=\"/broken.gguf\"] [id^=\"model-file-error-\"]",
    );
    assert!(!broken.is_empty(), "the broken file says why");
    app.screenshot("files");
    app.wd.click_on(&format!(
        "#model-files button[id^=\"model-file-add-\"][data-path$=\"/{NAME}\"]"
    ));
    // The new model is in the list with its file; the file's row says it is added.
    let added = app.wd.wait_until(
        "const p = document.querySelector('#model-file-added'); return p ? p.dataset.modelId : null;",
        Duration::from_secs(20),
    );
    let id = added.as_str().unwrap_or_default().to_string();
    assert!(!id.is_empty(), "{added}");
    let model_row = format!("#models-llm tr[data-model-id=\"{id}\"]");
    app.wd.wait_for(
        &format!("{model_row} code.model-file-path"),
        Duration::from_secs(10),
    );
    let shown = app.wd.text_of(&format!("{model_row} code.model-file-path"));
    assert!(shown.ends_with(NAME), "{shown}");
    assert!(
        app.wd
            .text_of(&model_row)
            .contains("SmolLM2-135M-Instruct.Q4_1"),
        "named after the file"
    );
    app.wd.wait_for(
        &format!("#model-files [data-model-id=\"{id}\"]"),
        Duration::from_secs(10),
    );
    let (status, model) = app
        .api()
        .request("GET", &format!("/api/v1/models/llm/{id}"), None);
    assert_eq!(status, 200, "{model}");
    assert!(
        model["file"]["path"]
            .as_str()
            .is_some_and(|p| p.ends_with(NAME)),
        "{model}"
    );
    // Its editor: the file read-only, its context size and threads.
    app.wd.click_on(&format!("{model_row} .model-edit"));
    app.wd.wait_for(
        "#model-editor-llm[data-file] #model-editor-file[readonly]",
        Duration::from_secs(10),
    );
    assert_eq!(
        app.wd.execute(
            "return [document.querySelector('#model-editor-file').value, \
             Number(document.querySelector('#model-editor-context').value), \
             Number(document.querySelector('#model-editor-threads').value)];",
            json!([])
        ),
        json!([
            model["file"]["path"],
            model["file"]["context_size"],
            model["file"]["threads"]
        ])
    );
    app.screenshot("added");
    // Deleted from the page: gone from the list and from the API, the file addable again.
    app.wd.execute("window.confirm = () => true;", json!([]));
    app.wd.click_on(&format!("{model_row} .model-delete"));
    app.wd.wait_until(
        &format!(
            "return !document.querySelector('{}');",
            model_row.replace('\'', "\\'")
        ),
        Duration::from_secs(10),
    );
    app.wd.wait_for(
        &format!("#model-files button[id^=\"model-file-add-\"][data-path$=\"/{NAME}\"]"),
        Duration::from_secs(10),
    );
    let (status, _) = app
        .api()
        .request("GET", &format!("/api/v1/models/llm/{id}"), None);
    assert_eq!(status, 404);
}
