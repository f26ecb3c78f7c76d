//! Two episodes of the same task side by side under one scrubber (e.g. a model and a
//! person): the pairing check, where each side stands at a shared position, and where
//! their choices first part.

use std::fmt;

use super::timeline::Replay;

/// Why two episodes cannot be shown side by side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairError {
    /// Their tasks differ (ids, or same id with other rules: another suite version).
    DifferentTasks { left: String, right: String },
}

impl fmt::Display for PairError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DifferentTasks { left, right } if left == right => write!(
                f,
                "Both episodes name task {left:?}, but with different rules (another suite \
                 version or an edited task): only episodes of the same task can be compared."
            ),
            Self::DifferentTasks { left, right } => write!(
                f,
                "These episodes are of different tasks ({left:?} and {right:?}): only \
                 episodes of the same task can be compared."
            ),
        }
    }
}

impl std::error::Error for PairError {}

/// Whether `left` and `right` played the same task (the full task, not just its id).
pub fn check_pair(left: &Replay, right: &Replay) -> Result<(), PairError> {
    if left.task() == right.task() {
        Ok(())
    } else {
        Err(PairError::DifferentTasks {
            left: left.task().id.clone(),
            right: right.task().id.clone(),
        })
    }
}

/// Positions of the shared scrubber: enough for the longer episode.
pub fn shared_positions(left: &Replay, right: &Replay) -> usize {
    left.positions().max(right.positions())
}

/// Where one side stands at a shared position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SidePos {
    /// The side's own position (its last once it has ended).
    pub pos: usize,
    /// The shared position is past this side's end.
    pub ended: bool,
}

pub fn side_pos(side: &Replay, shared: usize) -> SidePos {
    let last = side.positions().saturating_sub(1);
    SidePos {
        pos: shared.min(last),
        ended: shared > last,
    }
}

/// The first decision (1-based) where the two episodes chose different actions, or
/// where one of them had already ended.
pub fn first_difference(left: &Replay, right: &Replay) -> Option<usize> {
    let (a, b) = (
        &left.file().record.decisions,
        &right.file().record.decisions,
    );
    (0..a.len().max(b.len()))
        .find(|&i| a.get(i).map(|d| &d.action) != b.get(i).map(|d| &d.action))
        .map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::tests::{lake_file, LAKE_WIN};

    #[test]
    fn episodes_of_one_task_share_a_scrubber() {
        let win = Replay::open(lake_file(&LAKE_WIN)).unwrap();
        let hole = Replay::open(lake_file(&["Down", "Right"])).unwrap();
        assert_eq!(check_pair(&win, &hole), Ok(()));
        assert_eq!(shared_positions(&win, &hole), 7);
        assert_eq!(
            side_pos(&hole, 1),
            SidePos {
                pos: 1,
                ended: false
            }
        );
        assert_eq!(
            side_pos(&hole, 2),
            SidePos {
                pos: 2,
                ended: false
            }
        );
        assert_eq!(
            side_pos(&hole, 5),
            SidePos {
                pos: 2,
                ended: true
            }
        );
        assert_eq!(
            side_pos(&win, 6),
            SidePos {
                pos: 6,
                ended: false
            }
        );
        assert_eq!(first_difference(&win, &hole), Some(2));
        assert_eq!(first_difference(&win, &win), None);
        let short = Replay::open(lake_file(&LAKE_WIN[..3])).unwrap();
        assert_eq!(first_difference(&win, &short), Some(4));
    }

    #[test]
    fn different_tasks_are_refused() {
        let lake = Replay::open(lake_file(&["Down"])).unwrap();
        let mut other = lake_file(&["Down"]);
        if let bench::share::TaskRef::Inline(t) = &mut other.task {
            t.max_steps = 20;
        }
        let edited = Replay::open(other).unwrap();
        let e = check_pair(&lake, &edited).unwrap_err();
        assert!(e.to_string().contains("different rules"), "{e}");

        let mut cart = crate::task_text::tests::cart_task();
        cart.demos.truncate(1);
        let record = bench::EpisodeRunner::start(&cart).unwrap().finish("human");
        let cart = Replay::open(bench::share::EpisodeFile::from_record(
            bench::share::TaskRef::Inline(Box::new(cart)),
            record,
            None,
        ))
        .unwrap();
        let e = check_pair(&lake, &cart).unwrap_err();
        assert_eq!(
            e.to_string(),
            "These episodes are of different tasks (\"frozenlake-4x4-det-s0\" and \
             \"cartpole-s1\"): only episodes of the same task can be compared."
        );
    }
}
