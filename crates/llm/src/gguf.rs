//! What a GGUF model file says about itself, read from its header without loading the
//! model: whether it is GGUF at all, its architecture and name, the context it was
//! trained for, whether it carries a chat template, and the sizes that decide how much
//! memory its context needs. A person may pick any file, so every length and count read
//! is checked against the file's size and a bound before anything is allocated: a text
//! file renamed `.gguf`, a truncated download or a hostile header is an error that says
//! which, never a panic or a huge allocation.
//!
//! The format (little-endian): the magic `GGUF`, a version (2 or 3), the tensor count and
//! the metadata count (u64 each), then the metadata as key (a string: u64 length and
//! UTF-8 bytes), value type (u32) and value. Arrays (the tokenizer's vocabulary) are
//! skipped, not read.

use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;

/// Longest key or string value read (a chat template is a few kilobytes).
const MAX_STRING: u64 = 1 << 20;
/// Most metadata entries.
const MAX_ENTRIES: u64 = 1 << 16;

/// Why a file's header could not be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GgufError {
    /// The file could not be opened or read (missing, a directory, no permission).
    #[error("the file cannot be read: {0}")]
    Unreadable(String),
    /// The file does not start with `GGUF`.
    #[error("not a GGUF model file (it does not start with \"GGUF\")")]
    NotGguf,
    /// A GGUF version this reader does not know.
    #[error("GGUF version {0} is not supported (2 and 3 are)")]
    Version(u32),
    /// The header ends early, or states a length or count the file cannot hold.
    #[error("the GGUF header is damaged or cut short ({0})")]
    Damaged(String),
}

/// What the header says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GgufInfo {
    /// The format version.
    pub version: u32,
    /// The file's size in bytes (about what the weights need in memory).
    pub size_bytes: u64,
    /// `general.architecture` (`llama`, `qwen2`, …).
    pub architecture: Option<String>,
    /// `general.name`.
    pub name: Option<String>,
    /// `<arch>.context_length`: the context the model was trained for.
    pub context_length: Option<u64>,
    /// `<arch>.block_count`: its layers.
    pub block_count: Option<u64>,
    /// `<arch>.embedding_length`.
    pub embedding_length: Option<u64>,
    /// `<arch>.attention.head_count`.
    pub head_count: Option<u64>,
    /// `<arch>.attention.head_count_kv` (grouped-query attention), else the head count.
    pub head_count_kv: Option<u64>,
    /// Whether `tokenizer.chat_template` is present (the server's `--jinja` uses it).
    pub chat_template: bool,
}

impl GgufInfo {
    /// Bytes of key/value cache per token of context at 16 bits: layers × 2 (key, value)
    /// × KV heads × head size × 2 bytes; `None` when the header lacks a size.
    pub fn kv_bytes_per_token(&self) -> Option<u64> {
        let layers = self.block_count?;
        let heads = self.head_count.filter(|h| *h > 0)?;
        let kv_heads = self.head_count_kv.unwrap_or(heads);
        let head_size = self.embedding_length? / heads;
        layers
            .checked_mul(2)?
            .checked_mul(kv_heads)?
            .checked_mul(head_size)?
            .checked_mul(2)
    }
}

/// Smallest context a model is run with: a turn's first request (the instructions and
/// every tool's description) is about 2,500 tokens (2,464 measured with SmolLM2's
/// tokenizer), and the reply needs room after it.
pub const MIN_CONTEXT: u64 = 4096;

/// Why a model cannot be run here.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error(
    "the model needs about {needed_mib} MiB of memory with a {MIN_CONTEXT}-token context, and {free_mib} MiB are free"
)]
pub struct TooLarge {
    /// What the weights and the smallest context need.
    pub needed_mib: u64,
    /// What is free.
    pub free_mib: u64,
}

/// The context to run a model with: `wanted`, at most what it was trained for, and at
/// most what the memory left after its weights (with a quarter of `free_bytes` kept for
/// everything else) holds, in steps of 1,024 tokens; an error when not even
/// [`MIN_CONTEXT`] fits.
pub fn fitting_context(info: &GgufInfo, free_bytes: u64, wanted: u64) -> Result<u64, TooLarge> {
    let per_token = info.kv_bytes_per_token().unwrap_or(0);
    let usable = free_bytes - free_bytes / 4;
    let left = usable.saturating_sub(info.size_bytes);
    let by_memory = left.checked_div(per_token).unwrap_or(u64::MAX);
    let trained = info.context_length.unwrap_or(wanted);
    let context = wanted.min(trained).min(by_memory) / 1024 * 1024;
    if context < MIN_CONTEXT.min(trained) {
        let mib = 1024 * 1024;
        return Err(TooLarge {
            needed_mib: info
                .size_bytes
                .saturating_add(per_token.saturating_mul(MIN_CONTEXT))
                / mib,
            free_mib: free_bytes / mib,
        });
    }
    Ok(context)
}

/// The memory free for a new process now (`MemAvailable` of `/proc/meminfo`), in bytes;
/// `None` where it cannot be read.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// A metadata value, kept only where it is read.
enum Value {
    Unsigned(u64),
    Text(String),
    Other,
}

struct Reader<R> {
    inner: R,
    size: u64,
    at: u64,
}

impl<R: Read + Seek> Reader<R> {
    fn bytes<const N: usize>(&mut self, what: &str) -> Result<[u8; N], GgufError> {
        let mut buf = [0u8; N];
        self.inner
            .read_exact(&mut buf)
            .map_err(|_| GgufError::Damaged(format!("the file ends in {what}")))?;
        self.at += N as u64;
        Ok(buf)
    }

    fn u32(&mut self, what: &str) -> Result<u32, GgufError> {
        Ok(u32::from_le_bytes(self.bytes(what)?))
    }

    fn u64(&mut self, what: &str) -> Result<u64, GgufError> {
        Ok(u64::from_le_bytes(self.bytes(what)?))
    }

    /// Moves past `n` bytes the file must still hold.
    fn skip(&mut self, n: u64, what: &str) -> Result<(), GgufError> {
        if n > self.size.saturating_sub(self.at) {
            return Err(GgufError::Damaged(format!("{what} runs past the end")));
        }
        let to = i64::try_from(n).map_err(|_| GgufError::Damaged(format!("{what} is too long")))?;
        self.inner
            .seek(SeekFrom::Current(to))
            .map_err(|e| GgufError::Unreadable(e.to_string()))?;
        self.at += n;
        Ok(())
    }

    fn string(&mut self, what: &str) -> Result<String, GgufError> {
        let len = self.u64(what)?;
        if len > MAX_STRING || len > self.size.saturating_sub(self.at) {
            return Err(GgufError::Damaged(format!("{what} states {len} bytes")));
        }
        let mut buf = vec![0u8; usize::try_from(len).unwrap_or(0)];
        self.inner
            .read_exact(&mut buf)
            .map_err(|_| GgufError::Damaged(format!("the file ends in {what}")))?;
        self.at += len;
        String::from_utf8(buf).map_err(|_| GgufError::Damaged(format!("{what} is not UTF-8")))
    }

    /// Bytes of one value of a fixed-size type; `None` for a string or an array.
    fn fixed(kind: u32) -> Option<u64> {
        match kind {
            0 | 1 | 7 => Some(1),
            2 | 3 => Some(2),
            4..=6 => Some(4),
            10..=12 => Some(8),
            _ => None,
        }
    }

    fn value(&mut self, kind: u32, key: &str) -> Result<Value, GgufError> {
        match kind {
            4 => Ok(Value::Unsigned(u64::from(self.u32(key)?))),
            10 => Ok(Value::Unsigned(self.u64(key)?)),
            5 => {
                let v = i32::from_le_bytes(self.bytes(key)?);
                Ok(u64::try_from(v).map_or(Value::Other, Value::Unsigned))
            }
            11 => {
                let v = i64::from_le_bytes(self.bytes(key)?);
                Ok(u64::try_from(v).map_or(Value::Other, Value::Unsigned))
            }
            8 => Ok(Value::Text(self.string(key)?)),
            9 => {
                let item = self.u32(key)?;
                let count = self.u64(key)?;
                if let Some(size) = Self::fixed(item) {
                    let bytes = count
                        .checked_mul(size)
                        .ok_or_else(|| GgufError::Damaged(format!("{key} states {count} items")))?;
                    self.skip(bytes, key)?;
                } else if item == 8 {
                    // Each string at least its 8-byte length: a count the rest of the
                    // file cannot hold is refused before the loop.
                    if count > self.size.saturating_sub(self.at) / 8 {
                        return Err(GgufError::Damaged(format!("{key} states {count} items")));
                    }
                    for _ in 0..count {
                        let len = self.u64(key)?;
                        self.skip(len, key)?;
                    }
                } else {
                    return Err(GgufError::Damaged(format!(
                        "{key} is an array of type {item}"
                    )));
                }
                Ok(Value::Other)
            }
            _ => match Self::fixed(kind) {
                Some(size) => {
                    self.skip(size, key)?;
                    Ok(Value::Other)
                }
                None => Err(GgufError::Damaged(format!("{key} has value type {kind}"))),
            },
        }
    }
}

/// Reads the header of the GGUF file at `path`.
pub fn read_info(path: &Path) -> Result<GgufInfo, GgufError> {
    let file = File::open(path).map_err(|e| GgufError::Unreadable(e.to_string()))?;
    let meta = file
        .metadata()
        .map_err(|e| GgufError::Unreadable(e.to_string()))?;
    if !meta.is_file() {
        return Err(GgufError::Unreadable("not a regular file".into()));
    }
    read_from(BufReader::new(file), meta.len())
}

/// Reads a GGUF header from `inner`, a file of `size` bytes.
pub fn read_from<R: Read + Seek>(inner: R, size: u64) -> Result<GgufInfo, GgufError> {
    let mut r = Reader { inner, size, at: 0 };
    let mut magic = [0u8; 4];
    if r.inner.read_exact(&mut magic).is_err() || &magic != b"GGUF" {
        return Err(GgufError::NotGguf);
    }
    r.at = 4;
    let version = r.u32("the version")?;
    if !(2..=3).contains(&version) {
        return Err(GgufError::Version(version));
    }
    let _tensors = r.u64("the tensor count")?;
    let entries = r.u64("the metadata count")?;
    if entries > MAX_ENTRIES {
        return Err(GgufError::Damaged(format!("{entries} metadata entries")));
    }
    let mut info = GgufInfo {
        version,
        size_bytes: size,
        ..GgufInfo::default()
    };
    let mut numbers: Vec<(String, u64)> = Vec::new();
    for _ in 0..entries {
        let key = r.string("a metadata key")?;
        let kind = r.u32(&key)?;
        match r.value(kind, &key)? {
            Value::Unsigned(n) => numbers.push((key, n)),
            Value::Text(text) => match key.as_str() {
                "general.architecture" => info.architecture = Some(text),
                "general.name" => info.name = Some(text),
                "tokenizer.chat_template" => info.chat_template = true,
                _ => {}
            },
            Value::Other => {}
        }
    }
    if let Some(arch) = &info.architecture {
        let number = |suffix: &str| {
            let key = format!("{arch}.{suffix}");
            numbers.iter().find(|(k, _)| *k == key).map(|(_, n)| *n)
        };
        info.context_length = number("context_length");
        info.block_count = number("block_count");
        info.embedding_length = number("embedding_length");
        info.head_count = number("attention.head_count");
        info.head_count_kv = number("attention.head_count_kv");
    }
    Ok(info)
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    /// A header with these metadata entries, each as key, type and value bytes.
    fn header(entries: &[(&str, u32, Vec<u8>)]) -> Vec<u8> {
        let mut out = b"GGUF".to_vec();
        out.extend(3u32.to_le_bytes());
        out.extend(0u64.to_le_bytes());
        out.extend((entries.len() as u64).to_le_bytes());
        for (key, kind, value) in entries {
            out.extend((key.len() as u64).to_le_bytes());
            out.extend(key.as_bytes());
            out.extend(kind.to_le_bytes());
            out.extend(value);
        }
        out
    }

    fn text(s: &str) -> Vec<u8> {
        let mut out = (s.len() as u64).to_le_bytes().to_vec();
        out.extend(s.as_bytes());
        out
    }

    fn read(bytes: &[u8]) -> Result<GgufInfo, GgufError> {
        read_from(Cursor::new(bytes.to_vec()), bytes.len() as u64)
    }

    #[test]
    fn a_header_gives_its_architecture_context_and_sizes() {
        let mut vocab = 8u32.to_le_bytes().to_vec();
        vocab.extend(2u64.to_le_bytes());
        vocab.extend(text("<s>"));
        vocab.extend(text("</s>"));
        let bytes = header(&[
            ("general.architecture", 8, text("qwen2")),
            ("general.name", 8, text("Tiny 名字")),
            ("qwen2.context_length", 4, 32768u32.to_le_bytes().to_vec()),
            ("qwen2.block_count", 4, 28u32.to_le_bytes().to_vec()),
            ("qwen2.embedding_length", 4, 1536u32.to_le_bytes().to_vec()),
            (
                "qwen2.attention.head_count",
                4,
                12u32.to_le_bytes().to_vec(),
            ),
            (
                "qwen2.attention.head_count_kv",
                4,
                2u32.to_le_bytes().to_vec(),
            ),
            (
                "qwen2.rope.freq_base",
                6,
                1_000_000f32.to_le_bytes().to_vec(),
            ),
            ("tokenizer.ggml.tokens", 9, vocab),
            ("tokenizer.chat_template", 8, text("{{ messages }}")),
        ]);
        let info = read(&bytes).expect("a header");
        assert_eq!(info.architecture.as_deref(), Some("qwen2"));
        assert_eq!(info.name.as_deref(), Some("Tiny 名字"));
        assert_eq!(info.context_length, Some(32768));
        assert!(info.chat_template);
        // 28 layers × 2 × 2 KV heads × 128 × 2 bytes.
        assert_eq!(info.kv_bytes_per_token(), Some(28 * 2 * 2 * 128 * 2));
    }

    #[test]
    fn files_that_are_not_gguf_or_are_damaged_say_which() {
        assert_eq!(read(b"hello, I am a text file"), Err(GgufError::NotGguf));
        assert_eq!(read(b""), Err(GgufError::NotGguf));
        let mut old = b"GGUF".to_vec();
        old.extend(1u32.to_le_bytes());
        assert_eq!(read(&old), Err(GgufError::Version(1)));
        let whole = header(&[("general.architecture", 8, text("llama"))]);
        for cut in [6, 12, 30, whole.len() - 1] {
            assert!(
                matches!(read(&whole[..cut]), Err(GgufError::Damaged(_))),
                "cut at {cut}: {:?}",
                read(&whole[..cut])
            );
        }
        // Lengths and counts the file cannot hold are refused before anything is
        // allocated or looped over.
        let mut huge = 8u32.to_le_bytes().to_vec();
        huge.extend(u64::MAX.to_le_bytes());
        for entry in [
            ("general.name", 8, u64::MAX.to_le_bytes().to_vec()),
            ("tokenizer.ggml.tokens", 9, huge),
            ("x", 99, Vec::new()),
        ] {
            let bytes = header(&[entry]);
            assert!(
                matches!(read(&bytes), Err(GgufError::Damaged(_))),
                "{:?}",
                read(&bytes)
            );
        }
        let mut many = b"GGUF".to_vec();
        many.extend(3u32.to_le_bytes());
        many.extend(0u64.to_le_bytes());
        many.extend(u64::MAX.to_le_bytes());
        assert!(matches!(read(&many), Err(GgufError::Damaged(_))));
    }

    #[test]
    fn the_context_is_what_was_asked_trained_for_and_fits_in_memory() {
        let gib = 1024 * 1024 * 1024;
        let info = GgufInfo {
            size_bytes: gib,
            context_length: Some(32768),
            block_count: Some(28),
            embedding_length: Some(1536),
            head_count: Some(12),
            head_count_kv: Some(2),
            ..GgufInfo::default()
        };
        // Plenty of memory: what was asked, at most what it was trained for.
        assert_eq!(fitting_context(&info, 16 * gib, 8192), Ok(8192));
        assert_eq!(fitting_context(&info, 16 * gib, 65536), Ok(32768));
        // 2 GiB free: 1.5 usable, 0.5 after the weights, 28,672 bytes a token.
        assert_eq!(fitting_context(&info, 2 * gib, 65536), Ok(18432));
        // Not even the weights fit.
        let err = fitting_context(&info, gib, 8192).expect_err("too large");
        assert_eq!(err.free_mib, 1024);
        assert!(err.needed_mib > 1024, "{err}");
        // A model trained for less than the smallest context runs with what it has.
        let short = GgufInfo {
            context_length: Some(1024),
            ..info.clone()
        };
        assert_eq!(fitting_context(&short, 16 * gib, 8192), Ok(1024));
        assert!(available_memory().is_some_and(|b| b > 0));
    }

    #[test]
    fn a_missing_file_or_a_directory_is_unreadable() {
        let dir = std::env::temp_dir();
        assert!(matches!(read_info(&dir), Err(GgufError::Unreadable(_))));
        assert!(matches!(
            read_info(&dir.join("no such model 模型.gguf")),
            Err(GgufError::Unreadable(_))
        ));
    }
}
