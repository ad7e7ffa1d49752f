//! A tool the turn did not offer is not run, whatever the registry has: the call fails
//! with the resolver's error (the names it could have meant).

use async_trait::async_trait;

use super::Inspector;
use crate::plan::{Calls, Verdict};
use crate::types::CallStatus;

/// Refuses calls of tools outside the turn's offer.
pub(crate) struct Offered<'a> {
    /// Only these tools may run (every enabled tool when absent).
    pub offered: Option<&'a [String]>,
}

#[async_trait]
impl<'c> Inspector<Calls<'c>> for Offered<'_> {
    fn name(&self) -> &'static str {
        "offered"
    }

    async fn inspect(&self, calls: &mut Calls<'c>) {
        let Some(ids) = self.offered else {
            return;
        };
        for (i, call) in calls.calls.iter().enumerate() {
            if let Err(error) = deskmate_core::resolve::resolve_name(
                &call.function.name,
                ids.iter().map(String::as_str),
            ) {
                calls.verdicts[i] = Verdict::Refused(CallStatus::Failed, error);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use deskmate_core::SideEffect;

    use super::*;
    use crate::plan::fixtures::{call, planned};

    #[tokio::test]
    async fn only_the_tools_the_turn_offers_run() {
        let made = [
            call("a", "calculator", "{}"),
            call("b", "increase_volume", "{}"),
        ];
        let plans = made
            .iter()
            .map(|c| planned(c, SideEffect::Read, true))
            .collect();
        let mut plan = Calls::new(&made, plans);
        let offered = ["calculator".to_string()];
        Offered {
            offered: Some(&offered),
        }
        .inspect(&mut plan)
        .await;
        assert!(plan.runs(0));
        assert!(
            matches!(
                &plan.verdicts[1],
                Verdict::Refused(CallStatus::Failed, e) if e.error_type == deskmate_core::ErrorType::NotFound
            ),
            "{:?}",
            plan.verdicts[1]
        );

        // With no limit named, every call runs.
        let mut all = Calls::new(
            &made,
            made.iter()
                .map(|c| planned(c, SideEffect::Read, true))
                .collect(),
        );
        Offered { offered: None }.inspect(&mut all).await;
        assert!(all.runs(0) && all.runs(1));
    }
}
