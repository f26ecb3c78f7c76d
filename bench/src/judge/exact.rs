//! Exact milestone completion (`docs/judge.md`, "Exact milestones"): the episode record
//! is replayed through the environment from the task's seed, and a milestone is
//! completed when the environment reported its predicate's event on any step (the
//! tracker gathers `Step.signals.events`, idle ticks of real-time games included).

use super::milestones::MilestoneList;
use crate::episode::{EpisodeRecord, EpisodeRunner};
use crate::latency::RecordReplay;
use crate::Task;

/// Per milestone, the decision (1-based) after which its event had first occurred, or
/// `None` when it never did. Errors: a milestone without a predicate, a record that
/// does not replay.
pub fn exact_completion(
    task: &Task,
    record: &EpisodeRecord,
    list: &MilestoneList,
) -> Result<Vec<Option<u32>>, String> {
    let events = list
        .milestones
        .iter()
        .enumerate()
        .map(|(i, m)| {
            m.exact
                .as_ref()
                .map(|p| p.event.clone())
                .ok_or_else(|| format!("milestone {i} ({:?}) has no exact predicate", m.title))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut runner = EpisodeRunner::start(task).map_err(|e| e.to_string())?;
    let mut first: Vec<Option<u32>> = vec![None; events.len()];
    let mut note = |runner: &EpisodeRunner, step: u32| {
        let seen = &runner.progress().events;
        for (f, e) in first.iter_mut().zip(&events) {
            if f.is_none() && seen.contains(e) {
                *f = Some(step);
            }
        }
    };
    // Played as it was played (a timed real-time record on its thinking times,
    // `crate::latency::RecordReplay`), so its frames and events are the episode's.
    let mut replay = RecordReplay::new(&runner, record);
    for (i, d) in record.decisions.iter().enumerate() {
        let step = i as u32 + 1;
        let replay_error = |e: &dyn std::fmt::Display| {
            format!("the record does not replay at decision {step}: {e}")
        };
        if runner.is_done() && runner.decisions().len() <= i {
            break;
        }
        replay
            .play(&mut runner, i, d, |r| {
                r.apply_text(&d.action, None, Vec::new()).map(|_| ())
            })
            .map_err(|e| replay_error(&e))?;
        let same = runner
            .decisions()
            .get(i)
            .is_some_and(|got| got.frame_hash == d.frame_hash);
        if !same {
            return Err(replay_error(&"its frame differs from the record's"));
        }
        note(&runner, step);
    }
    Ok(first)
}
