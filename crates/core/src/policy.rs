//! Guard steps 5 and 6 as data: what a plausibility check decides and what a tool's policy is.

use serde::{Deserialize, Serialize};

use crate::spec::{Localized, SideEffect};

/// A plausibility check's verdict on one call's arguments (guard step 5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Nothing unusual.
    Allow,
    /// Unusual enough that a person should confirm; the reason is shown to them, in
    /// their language.
    Ask {
        /// Why the call needs a look.
        reason: Localized,
    },
    /// Never allowed, whoever asks.
    Deny {
        /// Why it is refused.
        reason: String,
    },
}

/// What happens when a tool is called (guard step 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// Run without asking.
    Always,
    /// Ask the person first; no answer before the timeout means no.
    Ask,
    /// Never run.
    Never,
}

impl Policy {
    /// The default for a side effect: reads and (enabled, built-in) writes run, irreversible
    /// calls ask.
    pub fn default_for(side_effect: SideEffect) -> Self {
        match side_effect {
            SideEffect::Read | SideEffect::Write => Self::Always,
            SideEffect::Irreversible => Self::Ask,
        }
    }

    /// The stricter of a policy and a plausibility decision.
    pub fn combine(self, decision: &Decision) -> Decision {
        match (self, decision) {
            (_, Decision::Deny { reason }) => Decision::Deny {
                reason: reason.clone(),
            },
            (Self::Never, _) => Decision::Deny {
                reason: "the tool's policy is 'never'".into(),
            },
            (_, Decision::Ask { reason }) => Decision::Ask {
                reason: reason.clone(),
            },
            (Self::Ask, Decision::Allow) => Decision::Ask {
                reason: Localized::new("这个工具的策略是“先询问”", "the tool's policy is 'ask'"),
            },
            (Self::Always, Decision::Allow) => Decision::Allow,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_combination() {
        assert_eq!(Policy::default_for(SideEffect::Read), Policy::Always);
        assert_eq!(Policy::default_for(SideEffect::Irreversible), Policy::Ask);
        let ask = Decision::Ask {
            reason: Localized::new("第 100 步", "step 100"),
        };
        assert_eq!(Policy::Always.combine(&ask), ask);
        assert!(matches!(
            Policy::Never.combine(&Decision::Allow),
            Decision::Deny { .. }
        ));
        assert!(matches!(
            Policy::Ask.combine(&Decision::Allow),
            Decision::Ask { .. }
        ));
        assert_eq!(Policy::Always.combine(&Decision::Allow), Decision::Allow);
    }
}
