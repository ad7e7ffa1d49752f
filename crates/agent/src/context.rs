//! What of a conversation fits the model's context: a pure plan over the conversation so
//! far, its turns counted in the model's tokens, and the summaries made of it before.
//!
//! The budget for earlier turns is the context size minus the system prompt (instructions
//! and tool catalog), the new message and a reserve for the answer and this turn's calls.
//! When every earlier turn fits, all are sent. Otherwise the oldest turns are folded into
//! a summary the model writes (`agent/fold.rs`), sent before the recent turns; a summary
//! made before is reused while it and the turns after it fit, and a newer one folds it
//! with the next turns (its text, and the facts of those turns after it). Folding keeps
//! the recent turns to half of what is left beside the summary, so a fold is followed by
//! several turns that need none.
//!
//! Turns are cut only where a message of the person begins one (or after the last message
//! a summary covers, which was a turn's end when it was made): an assistant message with
//! calls and their results are in one turn, so they are folded or sent together.

use std::ops::Range;

use deskmate_llm::wire::Message;

/// Tokens a chat template adds around one message (role markers, separators).
pub(crate) const MESSAGE_OVERHEAD: u32 = 8;

/// A message of the conversation so far, with its stored seq.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Stored {
    /// The stored message's seq.
    pub seq: i64,
    /// The message as the model reads it.
    pub message: Message,
}

/// Consecutive messages from a message of the person up to the next one.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Turn {
    /// The seq of its first message.
    pub first_seq: i64,
    /// The seq of its last message.
    pub last_seq: i64,
    /// Its messages, in order.
    pub messages: Vec<Message>,
    /// Its size in the model's tokens (messages and their overhead), filled by the caller.
    pub tokens: u32,
}

impl Turn {
    /// What of the turn is sent to the model in a later turn: what was said — the
    /// person's message and the reply they read (which carries the results' lines) —, not
    /// the calls and results behind it. A small model copied the last turn's call into the
    /// next question ("Is 135 even or odd?" after "What is 128 * 3?" was called as 135*3,
    /// and every turn after it).
    pub(crate) fn sent(&self) -> impl Iterator<Item = &Message> {
        self.messages
            .iter()
            .filter(|m| m.role != "tool" && m.tool_calls.is_empty())
    }

    /// The text whose tokens stand for the turn as sent: each message as JSON, one a line.
    /// The JSON is at least what a template shows of a message, so the count errs on the
    /// full side.
    pub(crate) fn text(&self) -> String {
        self.sent()
            .map(|m| serde_json::to_string(m).unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Its sent messages' template overhead.
    pub(crate) fn overhead(&self) -> u32 {
        u32::try_from(self.sent().count())
            .unwrap_or(u32::MAX)
            .saturating_mul(MESSAGE_OVERHEAD)
    }
}

/// A summary of the conversation up to a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Folded {
    /// The seq of the last message it covers.
    pub until_seq: i64,
    /// The summary.
    pub text: String,
    /// Its tokens as sent (with its framing).
    pub tokens: u32,
}

/// What to send of the earlier turns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Plan {
    /// Every turn fits: send them all.
    Whole,
    /// Send the summary `summary` (an index into the summaries given), then the turns
    /// from `keep_from` on.
    Reuse { summary: usize, keep_from: usize },
    /// Fold the summary `base` (if any) and the turns `fold` into a new summary, then send
    /// it and the turns after `fold`.
    Fold {
        base: Option<usize>,
        fold: Range<usize>,
    },
}

/// The conversation so far as turns. A turn starts at a message of the person, or right
/// after a message whose seq is in `cuts` (the ends of summaries); messages before the
/// first such start form a turn of their own.
pub(crate) fn turns(stored: Vec<Stored>, cuts: &[i64]) -> Vec<Turn> {
    let mut out: Vec<Turn> = Vec::new();
    let mut cut_before = true;
    for Stored { seq, message } in stored {
        let starts = message.role == "user" || cut_before;
        cut_before = cuts.contains(&seq);
        match out.last_mut() {
            Some(turn) if !starts => {
                turn.last_seq = seq;
                turn.messages.push(message);
            }
            _ => out.push(Turn {
                first_seq: seq,
                last_seq: seq,
                messages: vec![message],
                tokens: 0,
            }),
        }
    }
    out
}

/// What to send of `turns` within `budget` tokens, given the summaries made before
/// (`summaries`, any order) and the tokens a fold may add to the summary it folds into
/// (`allowance`: a new summary is the one before it and the new turns' facts).
pub(crate) fn plan(turns: &[Turn], summaries: &[Folded], budget: u32, allowance: u32) -> Plan {
    let sum = |turns: &[Turn]| turns.iter().map(|t| u64::from(t.tokens)).sum::<u64>();
    let budget = u64::from(budget);
    if sum(turns) <= budget {
        return Plan::Whole;
    }
    // The summary that covers most of what is still in the conversation, ending where a
    // turn ends.
    let base = summaries
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            turns
                .iter()
                .position(|t| t.last_seq == s.until_seq)
                .map(|end| (i, end))
        })
        .max_by_key(|&(_, end)| end);
    let rest_from = base.map_or(0, |(_, end)| end + 1);
    let rest = &turns[rest_from..];
    if let Some((i, _)) = base
        && u64::from(summaries[i].tokens) + sum(rest) <= budget
    {
        return Plan::Reuse {
            summary: i,
            keep_from: rest_from,
        };
    }
    // Keep the recent turns within half of what the new summary leaves, the last one
    // even alone if it fits beside the summary.
    let grown = u64::from(allowance) + base.map_or(0, |(i, _)| u64::from(summaries[i].tokens));
    let room = budget.saturating_sub(grown);
    let target = room / 2;
    let mut kept = 0u64;
    let mut keep_from = turns.len();
    for (i, turn) in turns.iter().enumerate().skip(rest_from).rev() {
        let next = kept + u64::from(turn.tokens);
        let last_alone = i + 1 == turns.len() && next <= room;
        if next > target && !last_alone {
            break;
        }
        kept = next;
        keep_from = i;
    }
    if keep_from == rest_from {
        // Only the summary was too long: fold its first turn after it with it.
        if rest_from == turns.len() {
            return match base {
                Some((i, _)) => Plan::Reuse {
                    summary: i,
                    keep_from: rest_from,
                },
                None => Plan::Whole,
            };
        }
        keep_from = rest_from + 1;
    }
    Plan::Fold {
        base: base.map(|(i, _)| i),
        fold: rest_from..keep_from,
    }
}

/// The folded turns cut into groups whose tokens each stay within `limit` (a turn larger
/// than the limit is a group of its own): one summary request per group.
pub(crate) fn groups(turns: &[Turn], limit: u32) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut start = 0;
    let mut size = 0u64;
    for (i, turn) in turns.iter().enumerate() {
        let tokens = u64::from(turn.tokens);
        if i > start && size + tokens > u64::from(limit) {
            out.push(start..i);
            start = i;
            size = 0;
        }
        size += tokens;
    }
    if start < turns.len() {
        out.push(start..turns.len());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use deskmate_llm::wire::{FunctionCall, ToolCall};

    fn call(id: &str) -> ToolCall {
        ToolCall {
            id: id.into(),
            kind: "function".into(),
            function: FunctionCall {
                name: "calculator".into(),
                arguments: "{}".into(),
            },
        }
    }

    /// A conversation of `n` turns: a question, a call and its result, an answer.
    fn conversation(n: i64) -> Vec<Stored> {
        let mut out = Vec::new();
        for t in 0..n {
            let seq = t * 4 + 1;
            out.push(Stored {
                seq,
                message: Message::user(format!("question {t}")),
            });
            out.push(Stored {
                seq: seq + 1,
                message: Message::assistant(None, vec![call(&format!("c{t}"))]),
            });
            out.push(Stored {
                seq: seq + 2,
                message: Message::tool(format!("c{t}"), "42".to_string()),
            });
            out.push(Stored {
                seq: seq + 3,
                message: Message::assistant(Some(format!("answer {t}")), Vec::new()),
            });
        }
        out
    }

    fn counted(stored: Vec<Stored>, cuts: &[i64], each: u32) -> Vec<Turn> {
        let mut turns = turns(stored, cuts);
        for t in &mut turns {
            t.tokens = each;
        }
        turns
    }

    /// A turn counts as what is sent of it — the person's message and the reply they read
    /// — not the calls and results behind it, which the model never reads again.
    #[test]
    fn a_turn_counts_what_is_sent_of_it() {
        let mut stored = conversation(1);
        stored[2].message = Message::tool("c0", "x".repeat(5_000));
        let turn = &turns(stored, &[])[0];
        let text = turn.text();
        assert!(
            text.contains("question 0") && text.contains("answer 0"),
            "{text}"
        );
        assert!(
            text.len() < 200,
            "the result is counted: {} bytes",
            text.len()
        );
        assert_eq!(turn.overhead(), 2 * MESSAGE_OVERHEAD);
        let sent: Vec<&str> = turn.sent().map(|m| m.role.as_str()).collect();
        assert_eq!(sent, ["user", "assistant"]);
    }

    #[test]
    fn turns_begin_at_the_persons_messages_and_keep_calls_with_results() {
        let turns = turns(conversation(3), &[]);
        assert_eq!(turns.len(), 3);
        assert_eq!((turns[1].first_seq, turns[1].last_seq), (5, 8));
        assert!(turns.iter().all(|t| t.messages[0].role == "user"));
        // A reminder before the first question is a turn of its own; a summary's end cuts.
        let mut stored = vec![Stored {
            seq: 0,
            message: Message::assistant(Some("drink water".into()), Vec::new()),
        }];
        stored.extend(conversation(2));
        stored.push(Stored {
            seq: 20,
            message: Message::assistant(Some("reminder".into()), Vec::new()),
        });
        let turns = super::turns(stored, &[8]);
        let bounds: Vec<(i64, i64)> = turns.iter().map(|t| (t.first_seq, t.last_seq)).collect();
        assert_eq!(bounds, [(0, 0), (1, 4), (5, 8), (20, 20)]);
    }

    #[test]
    fn a_conversation_that_fits_is_sent_whole() {
        let turns = counted(conversation(5), &[], 10);
        assert_eq!(plan(&turns, &[], 50, 20), Plan::Whole);
    }

    #[test]
    fn the_oldest_turns_fold_and_the_recent_ones_fill_half_the_room() {
        let turns = counted(conversation(20), &[], 10);
        // 200 tokens, 100 of budget, 20 for the summary: keep 40 (4 turns), fold 16.
        assert_eq!(
            plan(&turns, &[], 100, 20),
            Plan::Fold {
                base: None,
                fold: 0..16
            }
        );
    }

    #[test]
    fn a_summary_is_reused_while_it_fits_and_folded_into_the_next() {
        let stored = conversation(20);
        let summary = Folded {
            until_seq: 64, // the end of turn 15
            text: "s".into(),
            tokens: 20,
        };
        let turns = counted(stored.clone(), &[64], 10);
        assert_eq!(
            plan(&turns, std::slice::from_ref(&summary), 100, 20),
            Plan::Reuse {
                summary: 0,
                keep_from: 16
            }
        );
        // Nine turns after it no longer fit beside it: the oldest six are folded into it
        // (the recent ones keep half of what the grown summary leaves).
        let mut longer = stored;
        longer.extend(conversation(25).into_iter().skip(80).collect::<Vec<_>>());
        let turns = counted(longer, &[64], 10);
        assert_eq!(turns.len(), 25);
        assert_eq!(
            plan(&turns, &[summary], 100, 20),
            Plan::Fold {
                base: Some(0),
                fold: 16..22
            }
        );
    }

    #[test]
    fn a_summary_whose_end_is_gone_is_not_used() {
        let turns = counted(conversation(20), &[], 10);
        let stale = Folded {
            until_seq: 999,
            text: "s".into(),
            tokens: 20,
        };
        assert!(matches!(
            plan(&turns, &[stale], 100, 20),
            Plan::Fold { base: None, .. }
        ));
    }

    #[test]
    fn a_last_turn_larger_than_half_is_still_kept_when_it_fits() {
        let mut turns = counted(conversation(4), &[], 10);
        turns[3].tokens = 60;
        assert_eq!(
            plan(&turns, &[], 80, 10),
            Plan::Fold {
                base: None,
                fold: 0..3
            }
        );
        // Too large even beside the summary: everything folds.
        turns[3].tokens = 75;
        assert_eq!(
            plan(&turns, &[], 80, 10),
            Plan::Fold {
                base: None,
                fold: 0..4
            }
        );
    }

    #[test]
    fn folded_turns_are_grouped_within_a_limit() {
        let mut turns = counted(conversation(6), &[], 10);
        turns[2].tokens = 50;
        assert_eq!(groups(&turns, 25), [0..2, 2..3, 3..5, 5..6]);
        assert_eq!(groups(&turns, 1000), vec![Range { start: 0, end: 6 }]);
    }
}
