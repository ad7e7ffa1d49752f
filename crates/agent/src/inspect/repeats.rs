//! A call whose result the turn already has is not run again: one identical to a call
//! that succeeded in an earlier step (same tool, same arguments after the guard's
//! normalization) gets that result — a read only while no write of its own reply runs
//! before it (a write of an earlier step already made the reads before it stale) —; in
//! one reply, an identical call gets its twin's when a second run changes nothing (a
//! read, or an idempotent tool) and no write came between — "turn it up twice" runs twice.
//! A write repeated in a later step is not run again whatever its idempotence: the
//! person's "twice" is two calls of one reply, and a model calling a done write again in
//! the next step is going round in circles.

use async_trait::async_trait;

use super::Inspector;
use crate::outcome::Succeeded;
use crate::plan::{Calls, Planned, Reuse, Verdict};

/// Reuses results the turn already has.
pub(crate) struct Repeats<'a> {
    /// The results of the turn's calls that succeeded in earlier steps, by key.
    pub succeeded: &'a Succeeded,
}

#[async_trait]
impl<'c> Inspector<Calls<'c>> for Repeats<'_> {
    fn name(&self) -> &'static str {
        "repeats"
    }

    async fn inspect(&self, calls: &mut Calls<'c>) {
        for i in 0..calls.planned.len() {
            if calls.verdicts[i].refused() {
                continue;
            }
            if let Some(reuse) = self.reuse(calls, i) {
                calls.verdicts[i] = Verdict::Reused(reuse);
            }
        }
    }
}

impl Repeats<'_> {
    /// Where call `i`'s result comes from, if it is not run.
    fn reuse(&self, calls: &Calls<'_>, i: usize) -> Option<Reuse> {
        let planned = &calls.planned;
        let p = &planned[i];
        // An earlier step's result, unless it is a read and a write of this reply runs
        // before it: then what it read may have changed.
        if let Some((earlier, read)) = self.succeeded.get(&p.key) {
            let written_before = (0..i).any(|j| calls.runs(j) && !planned[j].is_read());
            if !(*read && written_before) {
                return Some(Reuse::Earlier(earlier.clone()));
            }
        }
        // The same call twice in one reply is asked for twice unless a second run changes
        // nothing — and a read after a write reads again.
        if !p.repeatable() {
            return None;
        }
        planned[..i]
            .iter()
            .position(|q| q.key == p.key)
            .filter(|&j| !calls.verdicts[j].refused())
            .filter(|&j| planned[j + 1..i].iter().all(Planned::is_read))
            .map(Reuse::Twin)
    }
}

#[cfg(test)]
mod tests {
    use deskmate_core::{SideEffect, ToolError, ToolResult};
    use serde_json::json;

    use super::*;
    use crate::plan::fixtures::{call, planned};
    use crate::types::CallStatus;

    /// The verdicts `Repeats` gives calls of (tool, side effect, idempotent), with
    /// `succeeded` from earlier steps and call `refused` refused before it looked.
    async fn verdicts(
        calls: &[(&str, SideEffect, bool)],
        succeeded: &Succeeded,
        refused: Option<usize>,
    ) -> Vec<String> {
        let made: Vec<_> = calls
            .iter()
            .enumerate()
            .map(|(i, (tool, ..))| call(&format!("c{i}"), tool, r#"{"a": 1}"#))
            .collect();
        let plans = made
            .iter()
            .zip(calls)
            .map(|(c, (_, effect, idempotent))| planned(c, *effect, *idempotent))
            .collect();
        let mut plan = Calls::new(&made, plans);
        if let Some(i) = refused {
            plan.verdicts[i] = Verdict::Refused(CallStatus::NotAsked, ToolError::internal("no"));
        }
        Repeats { succeeded }.inspect(&mut plan).await;
        plan.verdicts
            .iter()
            .map(|v| match v {
                Verdict::Run => "run".to_string(),
                Verdict::Refused(..) => "refused".into(),
                Verdict::Reused(Reuse::Earlier(_)) => "earlier".into(),
                Verdict::Reused(Reuse::Twin(j)) => format!("twin {j}"),
            })
            .collect()
    }

    #[tokio::test]
    async fn a_call_is_run_again_only_when_a_second_run_may_differ() {
        use SideEffect::{Read, Write};
        let none = Succeeded::new();
        // A read twice in one reply: the second is the first's twin.
        assert_eq!(
            verdicts(&[("clock", Read, true), ("clock", Read, true)], &none, None).await,
            ["run", "twin 0"]
        );
        // "Turn it up twice": a write that is not idempotent runs twice.
        assert_eq!(
            verdicts(&[("up", Write, false), ("up", Write, false)], &none, None).await,
            ["run", "run"]
        );
        // An idempotent write twice: once.
        assert_eq!(
            verdicts(&[("mute", Write, true), ("mute", Write, true)], &none, None).await,
            ["run", "twin 0"]
        );
        // A read after a write reads again.
        assert_eq!(
            verdicts(
                &[
                    ("level", Read, true),
                    ("up", Write, false),
                    ("level", Read, true)
                ],
                &none,
                None
            )
            .await,
            ["run", "run", "run"]
        );
        // The twin of a refused call runs.
        assert_eq!(
            verdicts(
                &[("clock", Read, true), ("clock", Read, true)],
                &none,
                Some(0)
            )
            .await,
            ["refused", "run"]
        );
        // What an earlier step already did is reused, even a write.
        let mut earlier = Succeeded::new();
        earlier.insert(
            "up\n{\"a\":1}".into(),
            (ToolResult::success(json!({"level": 60})), false),
        );
        assert_eq!(
            verdicts(
                &[("up", Write, false), ("clock", Read, true)],
                &earlier,
                None
            )
            .await,
            ["earlier", "run"]
        );
    }

    /// A read an earlier step made is read again when a write runs before it in this
    /// reply; before any write (or with none) the earlier result still holds.
    #[tokio::test]
    async fn a_read_after_a_write_in_this_reply_reads_again() {
        use SideEffect::{Read, Write};
        let mut earlier = Succeeded::new();
        earlier.insert(
            "level\n{\"a\":1}".into(),
            (ToolResult::success(json!({"level": 50})), true),
        );
        assert_eq!(
            verdicts(
                &[("up", Write, false), ("level", Read, true)],
                &earlier,
                None
            )
            .await,
            ["run", "run"]
        );
        assert_eq!(
            verdicts(
                &[("level", Read, true), ("up", Write, false)],
                &earlier,
                None
            )
            .await,
            ["earlier", "run"]
        );
        // A write that does not run (refused) changes nothing.
        assert_eq!(
            verdicts(
                &[("up", Write, false), ("level", Read, true)],
                &earlier,
                Some(0)
            )
            .await,
            ["refused", "earlier"]
        );
    }
}
