//! What a real-time run shows beside its score (the GameVerse spec's §8: "Report the
//! mode and the L_i distribution with every real-time score"; `docs/gameverse.md`,
//! "Snake's latency modes"): the latency mode of a task whose environment's clock waits
//! for actions, where the thinking times come from, and their distribution as
//! `bench::latency::LatencyStats` gives it — the figures `playbench run` prints.

use bench::latency::LatencyStats;
use bench::{Decision, Task};
use envs::core::clock::ClockMode;

/// The mode and the thinking times of one real-time episode, as sentences.
#[derive(Clone, Debug, PartialEq)]
pub struct LatencyView {
    /// `Latency mode normal: the game moves on by itself after 10.0 s without an
    /// action; thinking time measured`.
    pub mode: String,
    /// `latency min 3.0 s · median 12.0 s · max 35.0 s (40 replies)`, or that no reply
    /// has come yet.
    pub distribution: String,
}

impl LatencyView {
    /// For an episode of `task` whose decisions so far are `decisions`, the thinking
    /// times coming from `source` (a `LatencySource`'s name; `None` for a record, which
    /// does not say); `None` when the task plays no thinking time as game time and no
    /// decision carries one.
    pub fn of(task: &Task, source: Option<&str>, decisions: &[Decision]) -> Option<Self> {
        let stats = LatencyStats::of(decisions);
        let timeout_ms = task
            .make_env()
            .ok()
            .and_then(|env| env.clock())
            .filter(|c| c.mode == ClockMode::IdleTimeout)
            .map(|c| c.tick_ms);
        if timeout_ms.is_none() && stats.is_none() {
            return None;
        }
        let name = task
            .kwargs
            .get("latency")
            .and_then(|v| v.as_str())
            .unwrap_or("real time");
        let mut mode = format!("Latency mode {name}");
        if let Some(ms) = timeout_ms {
            mode.push_str(&format!(
                ": the game moves on by itself after {:.1} s without an action",
                f64::from(ms) / 1000.0
            ));
        }
        if let Some(source) = source {
            mode.push_str(&format!("; thinking time {source}"));
        }
        let distribution = stats.map_or_else(|| "no reply yet".to_string(), |s| s.summary());
        Some(Self { mode, distribution })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench::latency::LatencyClock;
    use bench::EpisodeRunner;

    fn snake(latency: Option<&str>) -> Task {
        let mut task = bench::suites::latest("gameverse")
            .unwrap()
            .task("snake")
            .unwrap()
            .clone();
        if let Some(l) = latency {
            task.kwargs.insert("latency".into(), serde_json::json!(l));
        }
        task
    }

    #[test]
    fn a_real_time_task_shows_its_mode_and_the_cli_figures() {
        let task = snake(Some("normal"));
        let view = LatencyView::of(&task, Some("measured"), &[]).unwrap();
        assert_eq!(
            view.mode,
            "Latency mode normal: the game moves on by itself after 10.0 s without an action; thinking time measured"
        );
        assert_eq!(view.distribution, "no reply yet");

        let mut runner = EpisodeRunner::start(&task).unwrap();
        let mut clock = LatencyClock::for_runner(&runner).unwrap();
        // The longest thinking time last: the snake may crash while it thinks, and the
        // idle step that ended the game carries that latency.
        for latency in [3_000, 12_000, 35_000] {
            assert!(!runner.is_done());
            clock
                .play(&mut runner, latency, |r| {
                    r.apply_text("up", None, vec![]).map(|_| ())
                })
                .unwrap();
        }
        let decisions = runner.decisions().to_vec();
        let view = LatencyView::of(&snake(Some("slow")), None, &decisions).unwrap();
        assert_eq!(
            view.mode,
            "Latency mode slow: the game moves on by itself after 20.0 s without an action"
        );
        assert_eq!(
            view.distribution,
            LatencyStats::of(&decisions).unwrap().summary()
        );
        assert_eq!(
            view.distribution,
            "latency min 3.0 s · median 12.0 s · max 35.0 s (3 replies)"
        );
    }

    #[test]
    fn a_turn_based_task_shows_nothing() {
        assert_eq!(LatencyView::of(&snake(None), Some("measured"), &[]), None);
        assert_eq!(LatencyView::of(&snake(Some("stop")), None, &[]), None);
    }
}
