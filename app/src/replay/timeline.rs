//! An episode re-simulated for the viewer: its verification, the environment after every
//! decision (to draw any step's frame on demand), what happened at each step (the agent's
//! replies, reward and flags, revealed even when the task hid them from the agent), the
//! claimed and recomputed pass and score, and a [`Scrubber`] over decisions `0..=N`.

use bench::demo::{caption_frame, CAPTION_HEIGHT};
use bench::latency::RecordReplay;
use bench::share::{resolve_task, verify, Divergence, EpisodeFile, ShareError, TaskRef};
use bench::{Decision, EpisodeRunner, FailureMode, Task};
use envs::{Env, Frame};
use serde_json::Value;

/// A shared episode, replayed once.
pub struct Replay {
    file: EpisodeFile,
    task: Task,
    divergence: Option<Divergence>,
    /// The environment after each replayed decision; `[0]` is the start state. Clones
    /// are small (states, not pixels), so any step draws at once without replaying.
    states: Vec<Box<dyn Env>>,
    /// What the re-simulation gave at each replayed decision.
    replayed: Vec<Decision>,
    /// Why the replay stops before the file's last decision.
    stopped: Option<String>,
    recomputed: Outcome,
}

/// Pass and score, as claimed or recomputed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub passed: bool,
    pub score: f64,
    pub failure: Option<FailureMode>,
}

/// One decision as the viewer shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct StepView {
    /// 1-based.
    pub number: usize,
    pub action: String,
    pub raw: Option<String>,
    pub rejected: Vec<String>,
    /// As re-simulated (the file's claim when the step could not be replayed).
    pub reward: f64,
    pub terminated: bool,
    pub truncated: bool,
    /// Reward summed over decisions `1..=number`.
    pub return_so_far: f64,
    /// Whether the re-simulation reached this step.
    pub replayed: bool,
    /// The fields where the file's claim differs from the re-simulation.
    pub mismatches: Vec<&'static str>,
}

impl Replay {
    /// Resolves the task, verifies the episode and replays it. Errors are episodes whose
    /// task cannot be found or started.
    pub fn open(file: EpisodeFile) -> Result<Self, ShareError> {
        let task = resolve_task(&file.task)?;
        let divergence = match verify(&file)? {
            bench::share::Verification::Verified { .. } => None,
            bench::share::Verification::Diverged(d) => Some(d),
        };
        let mut runner = EpisodeRunner::start(&task).map_err(ShareError::Task)?;
        // Played as verification plays it: a timed real-time record on its thinking
        // times, any other with its idle steps before each action (docs/gameverse.md,
        // "Snake's latency modes").
        let mut replay = RecordReplay::new(&runner, &file.record);
        let mut states = vec![runner.env().clone_box()];
        let mut stopped = None;
        for (i, d) in file.record.decisions.iter().enumerate() {
            let n = i + 1;
            // The clock may have recorded this decision already (an idle step ended the
            // game while the model thought); otherwise an ended game has no step n.
            let recorded = runner.decisions().len() > i;
            if runner.is_done() && !recorded {
                stopped = Some(format!("the episode had already ended before step {n}"));
                break;
            }
            // By its text form, as verification plays it (a model's reply under a
            // parametric action space is no preset's name).
            let played = replay.play(&mut runner, i, d, |r| {
                r.apply_text(&d.action, d.raw.clone(), d.rejected.clone())
                    .map(|_| ())
            });
            if let Err(e) = played {
                stopped = Some(format!("step {n} could not be played: {e}"));
                break;
            }
            states.push(runner.env().clone_box());
        }
        let replayed = runner.decisions().to_vec();
        // An agent-side ending (bad replies, context, transport) is replayed as claimed,
        // as `verify` does.
        if let Some(
            mode
            @ (FailureMode::InvalidAction | FailureMode::TokenOverflow | FailureMode::ApiError),
        ) = file.record.failure
        {
            runner.fail(mode, file.record.rejected.clone());
        }
        let rec = runner.finish(&file.record.agent);
        Ok(Self {
            recomputed: Outcome {
                passed: rec.passed,
                score: rec.score,
                failure: rec.failure,
            },
            file,
            task,
            divergence,
            states,
            replayed,
            stopped,
        })
    }

    pub fn file(&self) -> &EpisodeFile {
        &self.file
    }

    pub fn task(&self) -> &Task {
        &self.task
    }

    /// `None` when the re-simulation matches the file in every decision and total.
    pub fn divergence(&self) -> Option<&Divergence> {
        self.divergence.as_ref()
    }

    pub fn is_verified(&self) -> bool {
        self.divergence.is_none()
    }

    /// "Verified", or where and how the episode diverges.
    pub fn verdict_text(&self) -> String {
        match &self.divergence {
            None => "Verified".to_string(),
            Some(d) => {
                let mut text = d.to_string();
                if let Some(first) = text.get(..1) {
                    text = first.to_uppercase() + &text[1..];
                }
                text
            }
        }
    }

    /// Why the replay could not show every step, if it could not.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    pub fn claimed(&self) -> Outcome {
        let r = &self.file.record;
        Outcome {
            passed: r.passed,
            score: r.score,
            failure: r.failure,
        }
    }

    pub fn recomputed(&self) -> Outcome {
        self.recomputed
    }

    /// Decisions in the file.
    pub fn decisions(&self) -> usize {
        self.file.record.decisions.len()
    }

    /// Timeline positions: the start and one per decision.
    pub fn positions(&self) -> usize {
        self.decisions() + 1
    }

    /// "Start State", then "Step t: Action: <name>" (the demonstrations' captions).
    pub fn caption(&self, pos: usize) -> String {
        match pos.checked_sub(1) {
            None => "Start State".to_string(),
            Some(i) => match self.file.record.decisions.get(i) {
                Some(d) => format!("Step {pos}: Action: {}", d.action),
                None => String::new(),
            },
        }
    }

    /// The frame after decision `pos` with its caption strip; `None` past the replay.
    pub fn frame(&self, pos: usize) -> Option<Frame> {
        let env = self.states.get(pos)?;
        let mut frame = Frame::default();
        env.render(&mut frame);
        Some(caption_frame(&frame, &self.caption(pos)))
    }

    /// The size of a captioned frame.
    pub fn frame_size(&self) -> (u32, u32) {
        self.states.first().map_or((0, 0), |e| {
            let (w, h) = e.frame_size();
            (w, h + CAPTION_HEIGHT)
        })
    }

    /// Decision `pos` (1-based); `None` for the start and past the end.
    pub fn step(&self, pos: usize) -> Option<StepView> {
        let i = pos.checked_sub(1)?;
        let claimed = self.file.record.decisions.get(i)?;
        let replayed = self.replayed.get(i);
        let shown = replayed.unwrap_or(claimed);
        let mut mismatches = Vec::new();
        if let Some(r) = replayed {
            if r.reward != claimed.reward {
                mismatches.push("reward");
            }
            if r.terminated != claimed.terminated {
                mismatches.push("terminated");
            }
            if r.truncated != claimed.truncated {
                mismatches.push("truncated");
            }
            if r.frame_hash != claimed.frame_hash {
                mismatches.push("frame");
            }
        }
        let return_so_far = (0..=i)
            .map(|k| {
                self.replayed
                    .get(k)
                    .unwrap_or(&self.file.record.decisions[k])
                    .reward
            })
            .sum();
        Some(StepView {
            number: pos,
            action: claimed.action.clone(),
            raw: claimed.raw.clone(),
            rejected: claimed.rejected.clone(),
            reward: shown.reward,
            terminated: shown.terminated,
            truncated: shown.truncated,
            return_so_far,
            replayed: replayed.is_some(),
            mismatches,
        })
    }

    /// Replies rejected after the last decision (the attempt that ended the episode).
    pub fn final_rejected(&self) -> &[String] {
        &self.file.record.rejected
    }

    /// The run's settings as label/value rows: who played, on what, with what.
    pub fn settings_rows(&self) -> Vec<(String, String)> {
        let f = &self.file;
        let mut rows = vec![
            ("Agent".to_string(), f.agent.clone()),
            (
                "Task".to_string(),
                match &f.task {
                    TaskRef::Suite(s) => {
                        format!("{} (suite {} v{})", s.task, s.suite, s.suite_version)
                    }
                    TaskRef::Inline(t) => format!("{} (included in the file)", t.id),
                },
            ),
            (
                "Environment".to_string(),
                format!("{} · seed {}", self.task.env, self.task.seed),
            ),
            (
                "Budget".to_string(),
                format!("{} decisions", self.task.max_steps),
            ),
            ("Built with".to_string(), format!("envs {}", f.envs_version)),
        ];
        if let Some(settings) = &f.settings {
            for (k, v) in settings {
                let value = match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                rows.push((setting_label(k), value));
            }
        }
        rows
    }
}

/// A recorded setting's key as a label: `base_url` → "Base URL", `video_fps` →
/// "Video FPS" (the file keeps the keys; the page shows words).
pub fn setting_label(key: &str) -> String {
    let words: Vec<String> = key
        .split(['_', '-'])
        .filter(|w| !w.is_empty())
        .map(|w| match w {
            "url" | "api" | "fps" | "id" | "jpeg" | "png" | "usd" => w.to_uppercase(),
            other => other.to_string(),
        })
        .collect();
    let mut label = words.join(" ");
    if let Some(first) = label.get(..1) {
        label = first.to_uppercase() + &label[1..];
    }
    label
}

/// A position on the timeline, `0..len` (0 is the start state, `t` follows decision `t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scrubber {
    len: usize,
    pos: usize,
}

impl Scrubber {
    /// At the start of `len` positions.
    pub fn new(len: usize) -> Self {
        Self { len, pos: 0 }
    }

    pub fn pos(&self) -> usize {
        self.pos
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The last position.
    pub fn last(&self) -> usize {
        self.len.saturating_sub(1)
    }

    /// Moves to `pos`, clamped; returns whether it moved.
    pub fn seek(&mut self, pos: usize) -> bool {
        let to = pos.min(self.last());
        let moved = to != self.pos;
        self.pos = to;
        moved
    }

    pub fn forward(&mut self) -> bool {
        self.seek(self.pos + 1)
    }

    pub fn back(&mut self) -> bool {
        self.seek(self.pos.saturating_sub(1))
    }

    /// ←/→ step, Home/End jump; returns whether the key is a timeline key.
    pub fn press_key(&mut self, key: &str) -> bool {
        match key {
            "ArrowLeft" => self.back(),
            "ArrowRight" => self.forward(),
            "Home" => self.seek(0),
            "End" => self.seek(self.last()),
            _ => return false,
        };
        true
    }

    /// "Start (0 of 6)", "Step 3 of 6".
    pub fn counter_text(&self) -> String {
        let n = self.last();
        match self.pos {
            0 => format!("Start (0 of {n})"),
            p => format!("Step {p} of {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::tests::{lake_file, LAKE_WIN};
    use bench::latency::LatencyClock;
    use serde_json::json;

    #[test]
    fn an_honest_episode_verifies_and_every_step_draws() {
        let replay = Replay::open(lake_file(&LAKE_WIN)).unwrap();
        assert!(replay.is_verified());
        assert_eq!(replay.verdict_text(), "Verified");
        assert_eq!(replay.positions(), 7);
        assert_eq!(replay.claimed(), replay.recomputed());
        assert_eq!(replay.recomputed().score, 100.0);
        assert_eq!(replay.caption(0), "Start State");
        assert_eq!(replay.caption(3), "Step 3: Action: Right");
        assert_eq!(replay.frame_size(), (256, 296));
        let start = replay.frame(0).unwrap();
        assert_eq!((start.width(), start.height()), (256, 296));
        assert_ne!(replay.frame(1), Some(start));
        assert!(replay.frame(7).is_none());
        assert!(replay.step(0).is_none());
        // The goal's reward is revealed though the task hides it from the agent.
        let last = replay.step(6).unwrap();
        assert!(replay.task().hide_reward);
        assert_eq!(
            (last.reward, last.terminated, last.truncated),
            (1.0, true, false)
        );
        assert_eq!(last.return_so_far, 1.0);
        assert!(last.replayed && last.mismatches.is_empty());
        assert_eq!(
            replay.step(2).unwrap().raw.as_deref(),
            Some("[Action: Down]")
        );
        assert_eq!(replay.step(2).unwrap().rejected, vec!["Down?".to_string()]);
        assert!(replay.stopped().is_none());
        let rows = replay.settings_rows();
        assert_eq!(rows[0], ("Agent".to_string(), "human".to_string()));
        assert!(rows.iter().any(|(k, v)| k == "Note" && v == "test"));
        assert_eq!(setting_label("base_url"), "Base URL");
        assert_eq!(setting_label("video_fps"), "Video FPS");
        assert_eq!(setting_label("max_output_tokens"), "Max output tokens");
        assert_eq!(setting_label(""), "");
    }

    #[test]
    fn a_tampered_episode_shows_where_it_diverges() {
        let mut file = lake_file(&LAKE_WIN);
        file.record.decisions[2].reward = 5.0;
        let replay = Replay::open(file).unwrap();
        assert!(!replay.is_verified());
        let d = replay.divergence().unwrap();
        assert_eq!(d.field, "reward");
        assert_eq!(
            replay.verdict_text(),
            "Diverged at step 3: reward expected 5.0, got 0.0"
        );
        assert_eq!(replay.step(3).unwrap().mismatches, vec!["reward"]);
        assert_eq!(
            replay.step(3).unwrap().reward,
            0.0,
            "the re-simulated value"
        );

        let mut file = lake_file(&LAKE_WIN);
        file.record.score = 42.0;
        let replay = Replay::open(file).unwrap();
        assert_eq!(replay.claimed().score, 42.0);
        assert_eq!(replay.recomputed().score, 100.0);
        assert!(replay
            .verdict_text()
            .starts_with("Diverged at the end: score"));
    }

    #[test]
    fn an_unplayable_step_stops_the_replay_there() {
        let mut file = lake_file(&LAKE_WIN);
        file.record.decisions[3].action = "Jump".into();
        let replay = Replay::open(file).unwrap();
        assert!(replay.stopped().is_some_and(|s| s.contains("Jump")));
        assert!(replay.frame(3).is_some());
        assert!(replay.frame(4).is_none());
        let step = replay.step(4).unwrap();
        assert!(!step.replayed);
        assert_eq!(step.action, "Jump");
        assert_eq!(replay.positions(), 7);
        assert!(!replay.recomputed().passed);
    }

    /// A Normal-mode Snake episode (GameVerse's 10 s timeout) whose model thought 4 s,
    /// 35 s, 12 s… per reply: the snake moved on its own while it thought, and an idle
    /// step may end the game before the last reply lands.
    fn timed_snake_file() -> EpisodeFile {
        let mut task = bench::suites::latest("gameverse")
            .unwrap()
            .task("snake")
            .unwrap()
            .clone();
        task.id = "snake-normal".into();
        task.kwargs.insert("latency".into(), json!("normal"));
        let mut runner = EpisodeRunner::start(&task).unwrap();
        let mut clock = LatencyClock::for_runner(&runner).unwrap();
        let moves = ["up", "right", "down", "left"];
        let latencies = [4_000, 35_000, 12_000, 1_000, 21_000];
        for i in 0..12 {
            if runner.is_done() {
                break;
            }
            clock
                .play(&mut runner, latencies[i % latencies.len()], |r| {
                    r.apply_text(moves[i % moves.len()], Some(format!("reply {i}")), vec![])
                        .map(|_| ())
                })
                .unwrap();
        }
        EpisodeFile::from_record(
            TaskRef::Inline(Box::new(task)),
            runner.finish("model"),
            None,
        )
    }

    #[test]
    fn a_timed_record_shows_the_frames_that_happened_while_the_model_thought() {
        let file = timed_snake_file();
        let decisions = file.record.decisions.clone();
        assert!(decisions.iter().all(|d| d.latency_ms.is_some()));
        assert!(
            decisions.iter().any(|d| d.idle_before > 0),
            "the snake moved on its own"
        );
        let replay = Replay::open(file).unwrap();
        assert_eq!(replay.verdict_text(), "Verified");
        assert!(replay.stopped().is_none());
        for (i, d) in decisions.iter().enumerate() {
            let mut frame = Frame::default();
            replay.states[i + 1].render(&mut frame);
            assert_eq!(
                format!("{:016x}", frame.hash()),
                d.frame_hash,
                "step {}",
                i + 1
            );
            assert!(replay.step(i + 1).unwrap().mismatches.is_empty());
        }
        assert_eq!(replay.claimed(), replay.recomputed());
    }

    #[test]
    fn unknown_tasks_are_errors() {
        let mut file = lake_file(&["Down"]);
        file.task = TaskRef::in_suite(crate::suite_data::suite().unwrap(), "no-such-task");
        assert!(matches!(
            Replay::open(file),
            Err(ShareError::UnknownTask { .. })
        ));
    }

    #[test]
    fn the_scrubber_steps_and_jumps_by_key() {
        let mut s = Scrubber::new(7);
        assert_eq!(s.counter_text(), "Start (0 of 6)");
        assert!(s.press_key("ArrowRight"));
        assert_eq!(s.pos(), 1);
        assert_eq!(s.counter_text(), "Step 1 of 6");
        assert!(s.press_key("End"));
        assert_eq!(s.pos(), 6);
        assert!(!s.forward(), "the end stays");
        assert!(s.press_key("ArrowLeft"));
        assert_eq!(s.pos(), 5);
        assert!(s.press_key("Home"));
        assert_eq!(s.pos(), 0);
        assert!(!s.back());
        assert!(!s.press_key("x"));
        assert!(s.seek(99));
        assert_eq!(s.pos(), 6);
        let mut empty = Scrubber::new(0);
        assert!(empty.is_empty());
        assert!(!empty.seek(3));
        assert_eq!((empty.pos(), empty.len()), (0, 0));
    }
}
