//! Server-sent events, parsed incrementally from bytes split anywhere (inside a line,
//! inside a UTF-8 character, between `\r` and `\n`).

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, when given.
    pub event: Option<String>,
    /// The `data:` lines joined with `\n`.
    pub data: String,
}

/// An incremental parser (the WHATWG event-stream rules: `data`, `event`, comments,
/// `\n`, `\r\n` and `\r` line ends, a blank line dispatches).
#[derive(Debug, Default)]
pub struct SseParser {
    pending: Vec<u8>,
    /// A `\r` ended the last line; a `\n` right after it belongs to that line end.
    after_cr: bool,
    event: Option<String>,
    data: Option<String>,
}

impl SseParser {
    /// A parser at the start of a stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds bytes; returns the events they complete.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<SseEvent> {
        let mut events = Vec::new();
        for &byte in bytes {
            if self.after_cr {
                self.after_cr = false;
                if byte == b'\n' {
                    continue;
                }
            }
            match byte {
                b'\n' | b'\r' => {
                    self.after_cr = byte == b'\r';
                    let line = std::mem::take(&mut self.pending);
                    if let Some(event) = self.line(&line) {
                        events.push(event);
                    }
                }
                _ => self.pending.push(byte),
            }
        }
        events
    }

    /// Bytes of an unfinished line are pending (the stream stopped mid-line).
    pub fn has_partial(&self) -> bool {
        !self.pending.is_empty() || self.data.is_some()
    }

    fn line(&mut self, line: &[u8]) -> Option<SseEvent> {
        if line.is_empty() {
            let data = self.data.take()?;
            return Some(SseEvent {
                event: self.event.take(),
                data,
            });
        }
        if line[0] == b':' {
            return None; // a comment or keep-alive
        }
        let text = String::from_utf8_lossy(line);
        let (field, value) = match text.find(':') {
            Some(i) => {
                let value = &text[i + 1..];
                (&text[..i], value.strip_prefix(' ').unwrap_or(value))
            }
            None => (&text[..], ""),
        };
        match field {
            "data" => match &mut self.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some(value.to_string()),
            },
            "event" => self.event = Some(value.to_string()),
            _ => {} // id, retry and unknown fields change nothing here
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(chunks: &[&[u8]]) -> Vec<SseEvent> {
        let mut parser = SseParser::new();
        chunks.iter().flat_map(|c| parser.feed(c)).collect()
    }

    fn data(text: &str) -> SseEvent {
        SseEvent {
            event: None,
            data: text.into(),
        }
    }

    #[test]
    fn events_comments_line_ends_and_multiline_data() {
        let cases: &[(&[&[u8]], Vec<SseEvent>)] = &[
            (&[b"data: a\n\n"], vec![data("a")]),
            (&[b"data: a\r\n\r\n"], vec![data("a")]),
            (&[b"data: a\r\r"], vec![data("a")]),
            (&[b"data: a\r", b"\n\r\n"], vec![data("a")]),
            (&[b": keep-alive\n\n", b"data: a\n\n"], vec![data("a")]),
            (&[b"data:no-space\n\n"], vec![data("no-space")]),
            (&[b"data: one\ndata: two\n\n"], vec![data("one\ntwo")]),
            (
                &[b"event: error\ndata: {}\n\n"],
                vec![SseEvent {
                    event: Some("error".into()),
                    data: "{}".into(),
                }],
            ),
            (&[b"id: 7\nretry: 10\n\n"], vec![]),
            (&[b"data: [DONE]\n\n"], vec![data("[DONE]")]),
            (
                &[b"data: \xe4\xbd", b"\xa0\xe5\xa5\xbd\n\n"],
                vec![data("你好")],
            ),
            (&[b"data: unfinished"], vec![]),
        ];
        for (chunks, expected) in cases {
            assert_eq!(&all(chunks), expected, "{chunks:?}");
        }
    }

    #[test]
    fn a_stream_cut_mid_event_is_seen() {
        let mut parser = SseParser::new();
        assert!(parser.feed(b"data: {\"a\"").is_empty());
        assert!(parser.has_partial());
        let mut parser = SseParser::new();
        parser.feed(b"data: x\n\n");
        assert!(!parser.has_partial());
    }
}
