//! A small W3C WebDriver client for end-to-end tests in the real webview
//! (WebKitWebDriver): one persistent keep-alive HTTP/1.1 connection (clients
//! that close the connection after each request are unreliable with these drivers), the
//! commands the tests need, and waiting helpers.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The W3C element reference key.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// One keep-alive HTTP/1.1 connection to `host:port`, JSON in and out.
#[derive(Debug)]
pub struct Http {
    address: String,
    reader: Option<BufReader<TcpStream>>,
    headers: Vec<(String, String)>,
}

impl Http {
    /// A client for `127.0.0.1:port` (the connection opens on the first request).
    pub fn new(address: impl Into<String>) -> Self {
        Self {
            address: address.into(),
            reader: None,
            headers: Vec::new(),
        }
    }

    /// Sends this header with every request.
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    fn connect(&mut self) -> std::io::Result<&mut BufReader<TcpStream>> {
        if self.reader.is_none() {
            let stream = TcpStream::connect(&self.address)?;
            stream.set_read_timeout(Some(Duration::from_secs(300)))?;
            stream.set_nodelay(true)?;
            self.reader = Some(BufReader::new(stream));
        }
        self.reader
            .as_mut()
            .ok_or_else(|| std::io::Error::other("no connection"))
    }

    /// One request; the status and the body as JSON (`Null` when empty or not JSON).
    pub fn request(&mut self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        match self.try_request(method, path, body) {
            Ok(answer) => answer,
            Err(first) => {
                // A keep-alive connection the server closed: once more on a new one.
                self.reader = None;
                self.try_request(method, path, body)
                    .unwrap_or_else(|e| panic!("{method} {path}: {e} (first try: {first})"))
            }
        }
    }

    fn try_request(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> std::io::Result<(u16, Value)> {
        let payload = body.map(Value::to_string).unwrap_or_default();
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: keep-alive\r\nAccept: application/json\r\nContent-Length: {}\r\n",
            self.address,
            payload.len()
        );
        if body.is_some() {
            head.push_str("Content-Type: application/json; charset=utf-8\r\n");
        }
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        let reader = self.connect()?;
        let stream = reader.get_mut();
        stream.write_all(head.as_bytes())?;
        stream.write_all(payload.as_bytes())?;
        stream.flush()?;
        let mut status_line = String::new();
        if reader.read_line(&mut status_line)? == 0 {
            return Err(std::io::Error::other("connection closed"));
        }
        let status: u16 = status_line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("bad status line {status_line:?}")))?;
        let mut length = None;
        let mut chunked = false;
        let mut close = false;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line)?;
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
                match name.as_str() {
                    "content-length" => length = value.parse::<usize>().ok(),
                    "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
                    "connection" => close = value.eq_ignore_ascii_case("close"),
                    _ => {}
                }
            }
        }
        let mut bytes = Vec::new();
        if chunked {
            loop {
                let mut size = String::new();
                reader.read_line(&mut size)?;
                let size = usize::from_str_radix(size.trim().split(';').next().unwrap_or("0"), 16)
                    .map_err(|e| std::io::Error::other(e.to_string()))?;
                let mut chunk = vec![0; size + 2];
                reader.read_exact(&mut chunk)?;
                if size == 0 {
                    break;
                }
                bytes.extend_from_slice(&chunk[..size]);
            }
        } else if let Some(length) = length {
            bytes.resize(length, 0);
            reader.read_exact(&mut bytes)?;
        } else {
            reader.read_to_end(&mut bytes)?;
            close = true;
        }
        if close {
            self.reader = None;
        }
        Ok((
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        ))
    }
}

/// A WebDriver session driving one app.
#[derive(Debug)]
pub struct WebDriver {
    http: Http,
    session: String,
}

/// An element of the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Element(pub String);

impl WebDriver {
    /// Waits for the driver on `127.0.0.1:port`, then starts a session that launches
    /// `binary` (WebKitGTK's `webkitgtk:browserOptions`).
    pub fn launch(port: u16, binary: &Path, timeout: Duration) -> Self {
        let address = format!("127.0.0.1:{port}");
        let started = Instant::now();
        while TcpStream::connect(&address).is_err() {
            assert!(
                started.elapsed() < timeout,
                "WebKitWebDriver did not listen on {address}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut http = Http::new(address);
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "webkitgtk:browserOptions": {"binary": binary.display().to_string(), "args": []}
        }}});
        let (status, answer) = http.request("POST", "/session", Some(&capabilities));
        assert_eq!(status, 200, "new session: {answer}");
        let session = answer["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session id: {answer}"))
            .to_string();
        Self { http, session }
    }

    fn command(&mut self, method: &str, path: &str, body: Option<Value>) -> Result<Value, Value> {
        let path = format!("/session/{}{path}", self.session);
        let (status, answer) = self.http.request(method, &path, body.as_ref());
        if status == 200 {
            Ok(answer["value"].clone())
        } else {
            Err(answer["value"].clone())
        }
    }

    fn must(&mut self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.command(method, path, body)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"))
    }

    /// The first element matching a CSS selector, if any.
    pub fn find(&mut self, css: &str) -> Option<Element> {
        let found = self
            .command(
                "POST",
                "/element",
                Some(json!({"using": "css selector", "value": css})),
            )
            .ok()?;
        found[ELEMENT].as_str().map(|id| Element(id.to_string()))
    }

    /// Every element matching a CSS selector.
    pub fn find_all(&mut self, css: &str) -> Vec<Element> {
        let found = self.must(
            "POST",
            "/elements",
            Some(json!({"using": "css selector", "value": css})),
        );
        found
            .as_array()
            .map(|list| {
                list.iter()
                    .filter_map(|e| e[ELEMENT].as_str().map(|id| Element(id.to_string())))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Waits until an element matches, and returns it.
    pub fn wait_for(&mut self, css: &str, timeout: Duration) -> Element {
        let started = Instant::now();
        loop {
            if let Some(element) = self.find(css) {
                return element;
            }
            assert!(
                started.elapsed() < timeout,
                "no element matched {css:?} within {timeout:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits until `script` (a function body) returns something truthy; returns it.
    pub fn wait_until(&mut self, script: &str, timeout: Duration) -> Value {
        let started = Instant::now();
        loop {
            let value = self.execute(script, json!([]));
            let truthy = match &value {
                Value::Null => false,
                Value::Bool(b) => *b,
                Value::Number(n) => n.as_f64().is_some_and(|n| n != 0.0),
                Value::String(s) => !s.is_empty(),
                _ => true,
            };
            if truthy {
                return value;
            }
            assert!(
                started.elapsed() < timeout,
                "not true within {timeout:?}: {script}"
            );
            std::thread::sleep(Duration::from_millis(150));
        }
    }

    /// Runs `script` (a function body) with `args`; its return value.
    pub fn execute(&mut self, script: &str, args: Value) -> Value {
        self.must(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// Clicks an element.
    pub fn click(&mut self, element: &Element) {
        self.must(
            "POST",
            &format!("/element/{}/click", element.0),
            Some(json!({})),
        );
    }

    /// Clicks the first element matching `css`, waiting for it.
    pub fn click_on(&mut self, css: &str) {
        let element = self.wait_for(css, Duration::from_secs(10));
        self.click(&element);
    }

    /// Types into an element.
    pub fn type_into(&mut self, element: &Element, text: &str) {
        self.must(
            "POST",
            &format!("/element/{}/value", element.0),
            Some(json!({"text": text})),
        );
    }

    /// Clears an input.
    pub fn clear(&mut self, element: &Element) {
        self.must(
            "POST",
            &format!("/element/{}/clear", element.0),
            Some(json!({})),
        );
    }

    /// An element's rendered text.
    pub fn text(&mut self, element: &Element) -> String {
        self.must("GET", &format!("/element/{}/text", element.0), None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// The text of the first element matching `css`, waiting for it.
    pub fn text_of(&mut self, css: &str) -> String {
        let element = self.wait_for(css, Duration::from_secs(10));
        self.text(&element)
    }

    /// Reloads the page.
    pub fn refresh(&mut self) {
        self.must("POST", "/refresh", Some(json!({})));
    }

    /// Ends the session (the driver closes the app).
    pub fn quit(&mut self) {
        let _ = self.command("DELETE", "", None);
    }
}
