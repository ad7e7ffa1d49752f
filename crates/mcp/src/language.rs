//! The language of the tools' titles Deskmate's MCP server gives (the server and the
//! conversion of specs both read it; it depends on neither).

/// The language of the tools' titles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// English.
    En,
    /// Simplified Chinese.
    Zh,
}

impl Language {
    /// From the locale of the environment (`LC_ALL`, `LC_MESSAGES`, `LANG`): Chinese for
    /// a `zh` locale, English otherwise.
    pub fn from_env() -> Self {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|k| std::env::var(k).ok())
            .find(|v| !v.is_empty())
            .unwrap_or_default();
        if locale.to_ascii_lowercase().starts_with("zh") {
            Self::Zh
        } else {
            Self::En
        }
    }
}
