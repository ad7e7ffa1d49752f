//! Why an expression is not a rule.

/// What was wrong with an expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RuleErrorKind {
    /// Nothing but spaces and punctuation.
    Empty,
    /// Longer than [`MAX_EXPR_CHARS`](crate::MAX_EXPR_CHARS) characters.
    TooLong,
    /// A word or form that is not part of the grammar, or parts that do not fit together.
    NotUnderstood,
    /// A day that does not exist (2027-02-29, 2026-13-01).
    InvalidDate,
    /// A time of day that does not exist (25:00, 13pm).
    InvalidTime,
    /// A day without a time of day ("tomorrow", "every monday").
    MissingTime,
    /// A one-time rule whose time is not after now.
    InPast,
    /// An interval under one minute ("every 0 minutes", "every 30 seconds").
    IntervalTooShort,
    /// A duration or interval under 1 second or over 366 days.
    OutOfRange,
    /// An RRULE that RFC 5545 or this crate does not accept.
    InvalidRRule,
    /// An RRULE with no occurrence after now.
    NeverFires,
}

/// An expression that is not a rule: a kind and an English message that says what was not
/// accepted and which forms are (it goes back to a model so it can fix its call).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RuleError {
    kind: RuleErrorKind,
    message: String,
}

impl RuleError {
    pub(crate) fn new(kind: RuleErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }

    /// What was wrong.
    #[must_use]
    pub fn kind(&self) -> RuleErrorKind {
        self.kind
    }

    /// The message (also the `Display` form).
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// An error that ends with the short list of accepted forms.
    pub(crate) fn with_forms(kind: RuleErrorKind, what: impl std::fmt::Display) -> Self {
        Self::new(kind, format!("{what}. {ACCEPTED}"))
    }
}

/// The accepted forms, briefly, for error messages.
pub(crate) const ACCEPTED: &str = "Accepted forms: 'in 10 minutes', 'in 1 hour 30 minutes', \
'at 17:30', '5:30 pm', 'tomorrow 9:00', 'on friday at 10', 'next monday 8:15', \
'2026-12-24 18:00', 'every day at 8', 'every weekday at 9', 'every mon, wed, fri at 7pm', \
'every 15 minutes', 'hourly', '10分钟后', '明天早上9点', '周五10点', '每天8点', '每个工作日9点', \
'每周一、三 19:30', '每15分钟', or an RFC 5545 rule like \
'RRULE:FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0'.";
