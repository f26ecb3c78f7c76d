//! Replaying shared episodes: the timeline, verification, comparison and forks.
//!
//! [`source`] reads an episode from a link, `localStorage` or a file (and documents the
//! `?stored=KEY` contract); [`timeline`] re-simulates it for the viewer; [`compare`]
//! pairs two episodes of one task; [`share`] decides between a link and a file and
//! builds the viewer's and forks' URLs; [`fork`] continues an episode from a decision.

pub mod compare;
pub mod episode_links;
pub mod fork;
pub mod share;
pub mod source;
pub mod timeline;

#[cfg(test)]
pub(crate) mod tests {
    use bench::share::{EpisodeFile, TaskRef};
    use bench::EpisodeRunner;
    use serde_json::json;

    use crate::task_text::tests::lake_task;

    /// The oracle's route across FrozenLake 4x4 (not slippery, seed 0).
    pub const LAKE_WIN: [&str; 6] = ["Down", "Down", "Right", "Right", "Down", "Right"];

    /// An episode of the FrozenLake test task played with `moves`, with a reply at each
    /// step (and a rejected one at the second), as an episode file with the task inline.
    pub fn lake_file(moves: &[&str]) -> EpisodeFile {
        let task = lake_task();
        let mut runner = EpisodeRunner::start(&task).unwrap();
        for (i, m) in moves.iter().enumerate() {
            let index = runner.action_index(m).unwrap();
            let rejected = if i == 1 {
                vec![format!("{m}?")]
            } else {
                vec![]
            };
            runner
                .apply(index, Some(format!("[Action: {m}]")), rejected)
                .unwrap();
        }
        let settings = json!({"note": "test"}).as_object().cloned();
        EpisodeFile::from_record(
            TaskRef::Inline(Box::new(task)),
            runner.finish("human"),
            settings,
        )
    }
}
