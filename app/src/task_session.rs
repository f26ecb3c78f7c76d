//! A person playing a benchmark task under exactly the agent's conditions: the episode
//! runs through `EpisodeRunner` (seed, init skip, prefix, frame skip, budget), the reward
//! stays hidden while the task hides it, and the end is scored by `finish()` as for any
//! agent. The played actions can be exported as a demonstration clip.
//!
//! Every action is recorded in the environment's text form through
//! `EpisodeRunner::apply_text` (presets by their task name, calls made with the form
//! controls or a pointer gesture as the environment writes them), and a real-time
//! environment's idle steps through `EpisodeRunner::idle`, so the recorded episode
//! replays and verifies exactly.

use bench::share::{EpisodeFile, TaskRef};
use bench::{Decision, DemoClip, EpisodeRecord, EpisodeRunner, FailureMode, Task};
use envs::core::action::{ActionFn, ActionSpace, Call};
use envs::core::clock::Clock;
use envs::core::input::{Gesture, PointerMode};
use envs::{Action, Env, Frame};

use crate::play_state::{control_for_key, Control, PAUSE_KEY};
use crate::pointer::no_action_message;
use crate::realtime::{Due, RealtimeDriver};
use crate::url::encode_component;

/// The agent name episodes played here are recorded under.
pub const HUMAN_AGENT: &str = "human";

/// What a key press did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TaskKey {
    /// The key plays none of the task's actions (the browser should handle it).
    Unbound,
    /// The key plays an action, but the episode is over.
    Over,
    /// One decision was played: the task's action index.
    Played(usize),
    /// The episode refused the action (its message).
    Refused(String),
    /// Real-time play: the key went to the clock.
    Queued(usize),
    /// Real-time play was paused or resumed.
    Paused,
}

impl TaskKey {
    pub fn handled(&self) -> bool {
        !matches!(self, Self::Unbound)
    }
}

/// The task's actions, in the task's order, each with the keys the environment's keymap
/// binds to the action of that name.
pub fn task_controls(task: &Task, env: &dyn Env) -> Vec<Control> {
    let names = env.action_names();
    let keymap = env.keymap();
    task.actions
        .iter()
        .enumerate()
        .map(|(index, name)| {
            let env_index = names.iter().position(|n| n == name);
            Control {
                index,
                name: name.clone(),
                keys: keymap
                    .iter()
                    .filter(|b| Some(b.action) == env_index)
                    .map(|b| b.key.to_string())
                    .collect(),
            }
        })
        .collect()
}

/// One episode of a task played by a person.
pub struct TaskSession {
    task: Task,
    /// The running episode; taken by `finish()` when it ends.
    runner: Option<EpisodeRunner>,
    record: Option<EpisodeRecord>,
    controls: Vec<Control>,
    frame: Frame,
    last_error: Option<String>,
    /// The clock of a real-time environment; input goes through it as text.
    realtime: Option<RealtimeDriver<String>>,
}

impl TaskSession {
    /// Starts the task as an agent would get it (`EpisodeRunner::start`).
    pub fn new(task: &Task) -> Result<Self, String> {
        let runner = EpisodeRunner::start(task).map_err(|e| e.to_string())?;
        Ok(Self::from_runner(task, runner))
    }

    /// The task on an episode started elsewhere (tests play unregistered environments).
    pub fn from_runner(task: &Task, runner: EpisodeRunner) -> Self {
        let mut frame = Frame::default();
        runner.env().render(&mut frame);
        let controls = task_controls(task, runner.env());
        let realtime = runner.clock().map(RealtimeDriver::new);
        Self {
            task: task.clone(),
            runner: Some(runner),
            record: None,
            controls,
            frame,
            last_error: None,
            realtime,
        }
    }

    /// Starts the same task over ("Play again").
    pub fn restart(&mut self) -> Result<(), String> {
        *self = Self::new(&self.task)?;
        Ok(())
    }

    pub fn task(&self) -> &Task {
        &self.task
    }

    pub fn controls(&self) -> &[Control] {
        &self.controls
    }

    /// What the player sees: the frame after the last decision.
    pub fn frame(&self) -> &Frame {
        &self.frame
    }

    pub fn is_done(&self) -> bool {
        self.record.is_some()
    }

    /// The scored episode, once it is over.
    pub fn record(&self) -> Option<&EpisodeRecord> {
        self.record.as_ref()
    }

    pub fn last_error(&self) -> Option<&str> {
        self.last_error.as_deref()
    }

    /// Shows a short message where refusals are shown (e.g. a press that made no
    /// gesture).
    pub fn note(&mut self, message: &str) {
        self.last_error = Some(message.to_string());
    }

    /// A call in the environment's text form (as it would be recorded).
    pub fn call_text(&self, call: &Call) -> String {
        match self.runner.as_ref() {
            Some(r) => r.env().action_text(&Action::Call(call.clone())),
            None => envs::core::action::call_text(
                &ActionSpace::Parametric {
                    functions: self.functions(),
                },
                call,
            ),
        }
    }

    pub fn decisions(&self) -> &[Decision] {
        match (&self.runner, &self.record) {
            (Some(r), _) => r.decisions(),
            (None, Some(rec)) => &rec.decisions,
            (None, None) => &[],
        }
    }

    /// Decisions of the budget used: every recorded decision and, in fixed-clock real
    /// time, every idle tick (each uses a decision of the budget, as the agent's would).
    pub fn decisions_used(&self) -> u32 {
        match (&self.runner, &self.record) {
            (Some(r), _) => r.progress().decisions,
            (None, Some(rec)) => rec.progress.decisions,
            (None, None) => 0,
        }
    }

    pub fn max_steps(&self) -> u32 {
        self.task.max_steps
    }

    /// The decision about to be made (1-based; the last one once the episode is over).
    pub fn decision_number(&self) -> u32 {
        if self.is_done() {
            self.decisions_used()
        } else {
            (self.decisions_used() + 1).min(self.max_steps())
        }
    }

    /// "Decision 3 of 16", then "6 of 16 decisions used".
    pub fn decision_text(&self) -> String {
        if self.is_done() {
            format!(
                "{} of {} decisions used",
                self.decisions_used(),
                self.max_steps()
            )
        } else {
            format!(
                "Decision {} of {}",
                self.decision_number(),
                self.max_steps()
            )
        }
    }

    /// The reward collected so far, `None` while the task hides it (it is revealed once
    /// the episode is over).
    pub fn visible_reward(&self) -> Option<f64> {
        (!self.task.hide_reward || self.is_done())
            .then(|| self.decisions().iter().map(|d| d.reward).sum())
    }

    /// Plays the task's action `index` for one decision at once (turn-based play,
    /// tests); `Ok(false)` once the episode is over. The episode is scored as soon as
    /// it ends.
    pub fn act(&mut self, index: usize) -> Result<bool, String> {
        let Some(name) = self.task.actions.get(index).cloned() else {
            let msg = format!("this task has no action {index}");
            self.last_error = Some(msg.clone());
            return Err(msg);
        };
        self.apply_text(&name)
    }

    /// One decision in the environment's text form, recorded as such.
    fn apply_text(&mut self, text: &str) -> Result<bool, String> {
        let Some(runner) = self.runner.as_mut() else {
            return Ok(false);
        };
        if let Err(e) = runner.apply_text(text, None, Vec::new()) {
            let msg = e.to_string();
            self.last_error = Some(msg.clone());
            return Err(msg);
        }
        self.last_error = None;
        self.after_step();
        Ok(true)
    }

    /// Redraws and scores the episode once it ended.
    fn after_step(&mut self) {
        let Some(runner) = self.runner.as_mut() else {
            return;
        };
        runner.env().render(&mut self.frame);
        if runner.is_done() {
            if let Some(runner) = self.runner.take() {
                self.record = Some(runner.finish(HUMAN_AGENT));
            }
        }
    }

    /// A person's input (an action's text form) at real time `real_ms`: one decision
    /// at once when turn-based, through the clock when real-time; `Ok(false)` once
    /// the episode is over.
    pub fn play(&mut self, text: String, real_ms: f64) -> Result<bool, String> {
        if self.runner.is_none() {
            return Ok(false);
        }
        match self.realtime.as_mut() {
            Some(driver) => {
                let due = driver.input(text, real_ms);
                self.play_due(due).map(|()| true)
            }
            None => self.apply_text(&text),
        }
    }

    /// The task's action `index` (a button) at `real_ms`.
    pub fn play_preset(&mut self, index: usize, real_ms: f64) -> Result<bool, String> {
        let name = self
            .task
            .actions
            .get(index)
            .cloned()
            .ok_or_else(|| format!("this task has no action {index}"))?;
        self.play(name, real_ms)
    }

    /// An action typed in the environment's text form. Text that does not read is an
    /// `Err` with the reason and nothing is played (a person gets the parser's word;
    /// a model's malformed reply is judged by the environment instead).
    pub fn play_text(&mut self, text: &str, real_ms: f64) -> Result<bool, String> {
        let Some(runner) = self.runner.as_ref() else {
            return Ok(false);
        };
        let action = runner.env().parse_action(text).map_err(|e| e.to_string())?;
        let text = runner.env().action_text(&action);
        self.play(text, real_ms)
    }

    /// A call made with the form controls, recorded in its text form.
    pub fn play_call(&mut self, call: Call, real_ms: f64) -> Result<bool, String> {
        let Some(runner) = self.runner.as_ref() else {
            return Ok(false);
        };
        let text = runner.env().action_text(&Action::Call(call));
        self.play(text, real_ms)
    }

    /// A gesture on the frame; one that maps to no action leaves a short message.
    pub fn play_gesture(&mut self, gesture: Gesture, real_ms: f64) -> Result<bool, String> {
        let Some(runner) = self.runner.as_ref() else {
            return Ok(false);
        };
        match runner.env().pointer_action(gesture) {
            Some(action) => {
                let text = runner.env().action_text(&action);
                self.play(text, real_ms)
            }
            None => {
                let msg = no_action_message(&gesture).to_string();
                self.last_error = Some(msg.clone());
                Err(msg)
            }
        }
    }

    /// The timer of a real-time game: plays (and records) what fell due by `real_ms`;
    /// whether anything changed.
    pub fn tick(&mut self, real_ms: f64) -> bool {
        if self.runner.is_none() {
            return false;
        }
        let Some(driver) = self.realtime.as_mut() else {
            return false;
        };
        let due = driver.advance(real_ms);
        let changed = !due.is_empty();
        let _ = self.play_due(due);
        changed
    }

    /// Pauses a running real-time game or resumes a paused one.
    pub fn toggle_pause(&mut self, real_ms: f64) {
        if self.runner.is_none() {
            return;
        }
        if let Some(driver) = self.realtime.as_mut() {
            let due = driver.toggle(real_ms);
            let _ = self.play_due(due);
        }
    }

    fn play_due(&mut self, due: Vec<Due<String>>) -> Result<(), String> {
        for d in due {
            let Some(runner) = self.runner.as_mut() else {
                return Ok(());
            };
            match d {
                Due::Idle(n) => {
                    if let Err(e) = runner.idle(n) {
                        let msg = e.to_string();
                        self.last_error = Some(msg.clone());
                        return Err(msg);
                    }
                    self.after_step();
                }
                Due::Act(text) => {
                    // The game's time of the input, kept with the decision so the
                    // replay ends the game when this one did (`Decision::at_ms`).
                    if let Some(at) = self
                        .realtime
                        .as_ref()
                        .and_then(RealtimeDriver::action_time_ms)
                    {
                        runner.record_action_time(at);
                    }
                    self.apply_text(&text)?;
                }
            }
        }
        Ok(())
    }

    /// Plays the action bound to a `KeyboardEvent.key` value (turn-based play).
    pub fn press_key(&mut self, key: &str) -> TaskKey {
        self.press_key_at(key, 0.0)
    }

    /// A key press at real time `real_ms`: in real-time play it goes through the clock
    /// (and P pauses, unless the environment binds it).
    pub fn press_key_at(&mut self, key: &str, real_ms: f64) -> TaskKey {
        let Some(index) = control_for_key(&self.controls, key) else {
            if self.realtime.is_some() && key.eq_ignore_ascii_case(PAUSE_KEY) {
                self.toggle_pause(real_ms);
                return TaskKey::Paused;
            }
            return TaskKey::Unbound;
        };
        let realtime = self.realtime.is_some();
        match self.play_preset(index, real_ms) {
            Ok(true) if realtime => TaskKey::Queued(index),
            Ok(true) => TaskKey::Played(index),
            Ok(false) => TaskKey::Over,
            Err(e) => TaskKey::Refused(e),
        }
    }

    /// The functions of a parametric action space (none otherwise).
    pub fn functions(&self) -> Vec<ActionFn> {
        match self.runner.as_ref().map(|r| r.env().action_space()) {
            Some(ActionSpace::Parametric { functions }) => functions,
            _ => Vec::new(),
        }
    }

    /// What the pointer does on the frame, if anything (nothing once over).
    pub fn pointer_mode(&self) -> Option<PointerMode> {
        self.runner.as_ref().and_then(|r| r.env().pointer_mode())
    }

    /// The real-time rule, for environments that have one.
    pub fn clock(&self) -> Option<Clock> {
        self.realtime.as_ref().map(RealtimeDriver::clock)
    }

    pub fn is_paused(&self) -> bool {
        self.realtime
            .as_ref()
            .is_some_and(RealtimeDriver::is_paused)
    }

    /// Virtual milliseconds played (real-time play).
    pub fn virtual_ms(&self) -> Option<u64> {
        self.realtime.as_ref().map(RealtimeDriver::virtual_ms)
    }

    pub fn poll_ms(&self) -> Option<u32> {
        self.realtime.as_ref().map(RealtimeDriver::poll_ms)
    }

    /// The names of the actions played so far.
    pub fn played_actions(&self) -> Vec<String> {
        self.decisions().iter().map(|d| d.action.clone()).collect()
    }

    /// A label for a clip of this play: what happened.
    pub fn default_demo_label(&self) -> String {
        match &self.record {
            None => "a person playing".into(),
            Some(r) if r.passed => "a person succeeding".into(),
            Some(r) => match r.failure {
                Some(FailureMode::EarlyTermination) => "a person failing".into(),
                Some(FailureMode::Timeout) => "a person running out of time".into(),
                _ => "a person playing".into(),
            },
        }
    }

    /// The play so far as a demonstration clip from the task's start (its seed and
    /// prefix); `None` before the first action.
    pub fn demo_clip(&self, label: &str) -> Option<DemoClip> {
        let actions = self.played_actions();
        (!actions.is_empty()).then(|| DemoClip {
            label: label.trim().to_string(),
            kwargs: None,
            seed: self.task.seed,
            init_skip: None,
            prefix: self.task.prefix.clone(),
            actions,
        })
    }

    pub fn demo_json(&self, label: &str) -> Option<String> {
        self.demo_clip(label)
            .and_then(|c| serde_json::to_string_pretty(&c).ok())
    }

    /// The scored episode as the episode file `/episode` opens (once over): the
    /// download beside the share link.
    pub fn episode_json(
        &self,
        task: TaskRef,
        settings: Option<serde_json::Map<String, serde_json::Value>>,
    ) -> Option<String> {
        self.episode_file(task, settings).map(|f| f.to_json())
    }

    /// The scored episode as a shareable episode file (once over); `task` is how the
    /// file names the task (the suite's id, or the task itself for a fork).
    pub fn episode_file(
        &self,
        task: TaskRef,
        settings: Option<serde_json::Map<String, serde_json::Value>>,
    ) -> Option<EpisodeFile> {
        self.record
            .clone()
            .map(|r| EpisodeFile::from_record(task, r, settings))
    }

    pub fn episode_filename(&self) -> String {
        format!("{}-episode.json", self.task.id)
    }

    pub fn demo_filename(&self) -> String {
        format!("{}-demo.json", self.task.id)
    }
}

/// A failure mode in words.
pub fn failure_text(mode: Option<FailureMode>) -> &'static str {
    match mode {
        None => "none",
        Some(FailureMode::Timeout) => "time out: the decision budget ran out",
        Some(FailureMode::EarlyTermination) => "early termination: the episode ended before a pass",
        Some(FailureMode::InvalidAction) => "invalid action",
        Some(FailureMode::TokenOverflow) => "context overflow",
        Some(FailureMode::ApiError) => "API error",
    }
}

/// The failure mode as it is serialized (`timeout`, `early_termination`, …; `none`).
pub fn failure_key(mode: Option<FailureMode>) -> String {
    mode.and_then(|m| serde_json::to_value(m).ok())
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| "none".into())
}

/// A 0-100 score as shown: whole numbers plainly, else one decimal.
pub fn score_text(score: f64) -> String {
    crate::task_text::number(score)
}

/// A `data:` URL holding JSON, for a download link.
pub fn json_data_url(json: &str) -> String {
    format!(
        "data:application/json;charset=utf-8,{}",
        encode_component(json)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task_text::tests::{cart_task, lake_task};
    use crate::url::decode_component;
    use bench::demo::play_clip;
    use envs::core::input::{Gesture, PointerMode};

    const WIN: [&str; 6] = [
        "ArrowDown",
        "ArrowDown",
        "ArrowRight",
        "ArrowRight",
        "ArrowDown",
        "ArrowRight",
    ];

    #[test]
    fn every_builtin_task_starts_with_a_way_to_play_each_action_and_its_demos_replay() {
        // The vical suite's Atari tasks play on ROMs the user supplies, the visgym
        // suite's image puzzles on the bundled sets the page fetches, its Fetch tasks on
        // MuJoCo the page loads (here MuJoCo under Node, as the command line runs it).
        playbench_tests::atari::shelve_test_roms().unwrap();
        playbench_tests::visgym::shelve_bundled_images().unwrap();
        playbench_cli::mujoco_node::install_on_demand();
        let tasks: Vec<&Task> = bench::suites::ids()
            .into_iter()
            .flat_map(|id| {
                &bench::suites::latest(id)
                    .expect("a built-in suite parses")
                    .tasks
            })
            .collect();
        assert!(tasks.len() > 20, "{} tasks", tasks.len());
        let mut drawn = std::collections::BTreeSet::new();
        for task in tasks {
            let s = TaskSession::new(task).unwrap_or_else(|e| panic!("{}: {e}", task.id));
            assert!(s.frame().width() > 0, "{}", task.id);
            assert_eq!(
                s.decision_text(),
                format!("Decision 1 of {}", task.max_steps)
            );
            // A key for every action, or (parametric spaces) the form and the text box;
            // in real time the clock's idle action is what waiting plays (and its button).
            let parametric = !s.functions().is_empty();
            let names = envs::make(&task.env, &task.kwargs)
                .map(|e| e.action_names())
                .unwrap_or_default();
            let idle = s.clock().and_then(|c| names.get(c.idle).cloned());
            for c in s.controls() {
                assert!(
                    parametric || !c.keys.is_empty() || idle.as_ref() == Some(&c.name),
                    "{}: no key plays {:?}",
                    task.id,
                    c.name
                );
            }
            // A Fetch frame is tens of milliseconds of rasterising: the first task of each
            // Fetch environment draws its clips, the others replay them without drawing.
            let draw = !envs::visgym::runs_physics(&task.env) || drawn.insert(task.env.clone());
            for clip in &task.demos {
                let n = if draw {
                    let frames = crate::demo_player::ClipFrames::new(task, clip)
                        .unwrap_or_else(|e| panic!("{} {:?}: {e}", task.id, clip.label));
                    assert_eq!(frames.caption(0), Some("Start State"), "{}", task.id);
                    frames.len()
                } else {
                    bench::demo::clip_frame_count(task, clip)
                        .unwrap_or_else(|e| panic!("{} {:?}: {e}", task.id, clip.label))
                };
                assert!(n >= 3, "{}", task.id);
            }
        }
    }

    #[test]
    fn controls_carry_the_env_keys_by_name() {
        let s = TaskSession::new(&lake_task()).unwrap();
        let shown: Vec<(String, String)> = s
            .controls()
            .iter()
            .map(|c| (c.name.clone(), c.keys_label()))
            .collect();
        assert_eq!(
            shown,
            [("Left", "←"), ("Down", "↓"), ("Right", "→"), ("Up", "↑")]
                .map(|(a, b)| (a.to_string(), b.to_string()))
        );
        // A task offering a subset, in another order: indices are the task's.
        let mut t = lake_task();
        t.actions = vec!["Right".into(), "Down".into()];
        t.demos[1].actions = vec!["Right".into()];
        let s = TaskSession::new(&t).unwrap();
        assert_eq!(s.controls()[0].keys, ["ArrowRight"]);
        assert_eq!(s.controls()[1].index, 1);
        assert_eq!(control_for_key(s.controls(), "ArrowLeft"), None);
    }

    #[test]
    fn a_person_passes_with_the_agents_score() {
        let task = lake_task();
        let mut s = TaskSession::new(&task).unwrap();
        assert_eq!(s.decision_text(), "Decision 1 of 16");
        assert_eq!(s.visible_reward(), None, "the task hides the reward");
        assert!(s.demo_clip("x").is_none());
        for (i, key) in WIN.iter().enumerate() {
            assert_eq!(s.visible_reward(), None);
            assert!(matches!(s.press_key(key), TaskKey::Played(_)), "{key}");
            assert_eq!(s.decisions_used(), i as u32 + 1);
        }
        assert!(s.is_done());
        assert_eq!(s.decision_text(), "6 of 16 decisions used");
        let r = s.record().unwrap();
        assert!(r.passed);
        assert_eq!(r.score, 100.0);
        assert_eq!(r.failure, None);
        assert_eq!(r.agent, HUMAN_AGENT);
        assert_eq!(s.visible_reward(), Some(1.0), "revealed at the end");
        assert_eq!(failure_key(r.failure), "none");
        assert_eq!(s.press_key("ArrowLeft"), TaskKey::Over);
        assert_eq!(s.press_key("F5"), TaskKey::Unbound);
        assert!(!TaskKey::Unbound.handled());

        // The same actions through the runner as an agent give the same record.
        let mut runner = EpisodeRunner::start(&task).unwrap();
        for a in [1, 1, 2, 2, 1, 2] {
            runner.apply(a, None, Vec::new()).unwrap();
        }
        assert_eq!(s.record(), Some(&runner.finish(HUMAN_AGENT)));
        assert_eq!(s.episode_filename(), "frozenlake-4x4-det-s0-episode.json");
        let task_ref = TaskRef::in_suite(crate::suite_data::suite().unwrap(), &task.id);
        let file = s.episode_file(task_ref.clone(), None).unwrap();
        assert_eq!(&file.record, s.record().unwrap());
        // The download opens in the replay viewer: it reads and verifies.
        let json = s.episode_json(task_ref, None).unwrap();
        let back = bench::share::EpisodeFile::from_json(&json).unwrap();
        assert_eq!(back, file);
        assert!(matches!(
            bench::share::verify(&back).unwrap(),
            bench::share::Verification::Verified { .. }
        ));
        assert_eq!(file.agent, HUMAN_AGENT);
        assert_eq!(s.default_demo_label(), "a person succeeding");
    }

    #[test]
    fn a_hole_is_an_early_termination_and_play_again_starts_over() {
        let mut s = TaskSession::new(&lake_task()).unwrap();
        let start = s.frame().clone();
        s.act(2).unwrap();
        assert_ne!(s.frame(), &start);
        s.act(1).unwrap();
        let r = s.record().unwrap();
        assert!(!r.passed);
        assert_eq!(r.failure, Some(FailureMode::EarlyTermination));
        assert_eq!(failure_key(r.failure), "early_termination");
        assert!(failure_text(r.failure).starts_with("early termination"));
        assert_eq!(s.default_demo_label(), "a person failing");
        assert_eq!(s.act(0), Ok(false));
        s.restart().unwrap();
        assert!(!s.is_done());
        assert_eq!(s.decisions_used(), 0);
        assert_eq!(s.frame(), &start);
    }

    #[test]
    fn the_budget_times_out() {
        let mut task = lake_task();
        task.max_steps = 3;
        let mut s = TaskSession::new(&task).unwrap();
        for _ in 0..3 {
            assert_eq!(s.decision_text().split(' ').nth(3), Some("3"));
            s.act(0).unwrap(); // Left into the wall: nothing happens.
        }
        let r = s.record().unwrap();
        assert_eq!(r.failure, Some(FailureMode::Timeout));
        assert_eq!(s.default_demo_label(), "a person running out of time");
        assert_eq!(s.decision_number(), 3);
    }

    #[test]
    fn a_visible_reward_is_shown_while_playing() {
        let mut task = cart_task();
        task.hide_reward = false;
        let mut s = TaskSession::new(&task).unwrap();
        assert_eq!(s.visible_reward(), Some(0.0));
        s.act(0).unwrap();
        assert_eq!(s.visible_reward(), Some(1.0));
        assert!(s.act(7).is_err());
        assert!(s.last_error().is_some_and(|e| e.contains('7')));
    }

    /// Replays a record on a fresh environment the way verification does (idle steps,
    /// then the decision's text at its game time) and checks every frame hash and the
    /// score.
    fn replays(task: &Task, env: Box<dyn Env>, record: &EpisodeRecord) {
        let mut runner = EpisodeRunner::start_on(task, env, task.seed, &task.prefix).unwrap();
        for d in &record.decisions {
            runner.idle(d.idle_before).unwrap();
            if let Some(at) = d.at_ms {
                runner.record_action_time(at);
            }
            if runner.decisions().len() < record.decisions.len() {
                runner.apply_text(&d.action, None, Vec::new()).unwrap();
            }
            let last = runner.decisions().last().unwrap();
            assert_eq!(last.frame_hash, d.frame_hash, "{d:?}");
        }
        let again = runner.finish(HUMAN_AGENT);
        assert_eq!(&again, record);
    }

    /// A task on a test environment (parsed without the registry check).
    fn runner_task(max_steps: u32) -> Task {
        serde_json::from_str(&format!(
            r#"{{
            "id": "runner-s0", "title": "Runner", "env": "Runner-v0", "seed": 0,
            "max_steps": {max_steps}, "actions": ["stay", "left", "right"],
            "demos": [{{"label": "x", "seed": 0, "actions": ["right"]}}],
            "pass": {{"kind": "reach_goal"}},
            "score": {{"kind": "capped_ratio", "value": "steps_survived", "floor": 0, "reference": 5}},
            "tags": {{"family": "Runner", "memory": "single", "dynamics": "dynamic"}}
        }}"#
        ))
        .unwrap()
    }

    #[test]
    fn real_time_play_records_idle_steps_that_replay_exactly() {
        use crate::test_envs::Runner;
        use envs::core::clock::ClockMode;
        for mode in [ClockMode::IdleTimeout, ClockMode::Fixed] {
            let task = runner_task(40);
            let env = || Box::new(Runner::new(mode, 100));
            let runner = EpisodeRunner::start_on(&task, env(), 0, &[]).unwrap();
            let mut s = TaskSession::from_runner(&task, runner);
            assert!(s.is_paused());
            assert_eq!(s.press_key_at("ArrowRight", 1000.0), TaskKey::Queued(2));
            let mut t = 1000.0;
            for (at, key) in [
                (1130.0, "ArrowRight"),
                (1410.0, "ArrowLeft"),
                (1800.0, "ArrowRight"),
            ] {
                while t + 40.0 < at {
                    t += 40.0;
                    s.tick(t);
                }
                s.press_key_at(key, at);
            }
            assert_eq!(s.press_key_at("p", 1900.0), TaskKey::Paused);
            assert!(s.is_paused() && !s.tick(5000.0));
            s.toggle_pause(5000.0);
            // Hold right until the goal: nine more moves.
            let mut t = 5000.0;
            while !s.is_done() {
                t += 100.0;
                s.press_key_at("ArrowRight", t);
                s.tick(t + 50.0);
            }
            let record = s.record().unwrap().clone();
            assert!(record.passed, "{mode:?}: {record:?}");
            assert!(
                record.decisions.iter().any(|d| d.idle_before > 0),
                "{mode:?}: idle steps were played"
            );
            replays(&task, env(), &record);
        }
    }

    /// Whether the snake survives the key `h` and the auto-move after it, with a
    /// heading that survives the same `depth` more times.
    fn survives(
        game: &envs::gameverse::snake::Snake,
        h: envs::gameverse::snake::Heading,
        depth: u32,
    ) -> bool {
        use envs::gameverse::snake::Heading;
        let mut sim = game.clone();
        sim.step_realtime(Some(h));
        sim.auto_advance();
        !sim.game_over()
            && (depth == 0
                || Heading::ALL
                    .into_iter()
                    .any(|n| survives(&sim, n, depth - 1)))
    }

    #[test]
    fn a_persons_real_time_snake_ends_at_max_duration_and_replays_so() {
        use bench::share::{verify, EpisodeFile, TaskRef, Verification};
        use envs::gameverse::snake::{best_move, Heading, SnakeEnv};
        let mut task = bench::suites::latest("gameverse")
            .unwrap()
            .task("snake")
            .unwrap()
            .clone();
        task.id = "snake-normal".into();
        task.kwargs
            .insert("latency".into(), serde_json::json!("normal"));
        let mut s = TaskSession::new(&task).unwrap();
        let game = |s: &TaskSession| {
            s.runner
                .as_ref()
                .unwrap()
                .env()
                .as_any()
                .downcast_ref::<SnakeEnv>()
                .unwrap()
                .game()
                .clone()
        };
        // A key every 12.5 s (the snake moves on by itself 10 s after each), the
        // timer every 0.5 s: 96 keys by 1200 s, under the 100 replies.
        let mut t = 0.0;
        let mut keys = 0;
        while !s.is_done() {
            let g = game(&s);
            let expert = best_move(&g);
            let h = std::iter::once(expert)
                .chain(Heading::ALL)
                .find(|&h| survives(&g, h, 3))
                .unwrap_or(expert);
            s.play(h.letter().to_string(), t).unwrap();
            keys += 1;
            for _ in 0..25 {
                t += 500.0;
                s.tick(t);
            }
        }
        let record = s.record().unwrap().clone();
        // The game at the end, as a replay of the record finds it.
        let mut runner = EpisodeRunner::start(&task).unwrap();
        let mut replay = bench::latency::RecordReplay::new(&runner, &record);
        for (i, d) in record.decisions.iter().enumerate() {
            replay
                .play(&mut runner, i, d, |r| {
                    r.apply_text(&d.action, None, vec![]).map(|_| ())
                })
                .unwrap();
        }
        let g = runner
            .env()
            .as_any()
            .downcast_ref::<SnakeEnv>()
            .unwrap()
            .game()
            .clone();
        assert!(
            g.time_up(),
            "the game ended on time, not by a collision ({keys} keys)"
        );
        assert!(
            (1_200_000..1_210_000).contains(&g.elapsed_ms()),
            "right after the first move at or after 1200 s: {}",
            g.elapsed_ms()
        );
        assert!(keys < 100);
        assert!(record.decisions.last().unwrap().terminated);
        assert!(record.decisions.iter().all(|d| d.latency_ms.is_none()));
        let timed: Vec<u64> = record.decisions.iter().filter_map(|d| d.at_ms).collect();
        assert_eq!(timed.len(), keys, "every key's game time is kept");
        assert!(timed.windows(2).all(|w| w[1] - w[0] == 12_500), "{timed:?}");
        // The replay tells the environment the same times: the game ends alike.
        let file = EpisodeFile::from_record(
            TaskRef::Inline(Box::new(task.clone())),
            record.clone(),
            None,
        );
        assert!(matches!(
            verify(&file).unwrap(),
            Verification::Verified { .. }
        ));
        // Without them the game never ends on time: the record does not verify.
        let mut untimed = file.clone();
        for d in &mut untimed.record.decisions {
            d.at_ms = None;
        }
        assert!(matches!(
            verify(&untimed).unwrap(),
            Verification::Diverged(_)
        ));
    }

    #[test]
    fn idle_ticks_of_a_frame_skipped_task_use_the_budget_the_player_sees() {
        // FlappyBird with a frame skip of 3: a tick is a decision, 99 ms.
        let task = bench::suites::latest("vical")
            .unwrap()
            .task("flappybird-s1")
            .unwrap()
            .clone();
        let mut s = TaskSession::new(&task).unwrap();
        assert_eq!(s.clock().map(|c| c.tick_ms), Some(99));
        assert_eq!(s.press_key_at(" ", 0.0), TaskKey::Queued(1));
        s.tick(99.0);
        assert_eq!(s.decisions_used(), 1, "the flap");
        // Four ticks without a key: four idle decisions of the budget.
        s.tick(99.0 * 5.0);
        assert_eq!(s.decisions().len(), 1);
        assert_eq!(s.decisions_used(), 5);
        assert_eq!(
            s.decision_text(),
            format!("Decision 6 of {}", task.max_steps)
        );
        assert_eq!(s.virtual_ms(), Some(495));
        // Without flapping the bird falls: the episode ends on an idle tick.
        let mut t = 495.0;
        while !s.is_done() {
            t += 99.0;
            s.tick(t);
        }
        let record = s.record().unwrap().clone();
        let recorded = record.decisions.len() as u32;
        let idle: u32 = record.decisions.iter().map(|d| d.idle_before).sum();
        assert_eq!(record.progress.decisions, recorded + idle);
        assert_eq!(s.decisions_used(), record.progress.decisions);
        assert_eq!(
            record.decisions.last().map(|d| d.action.as_str()),
            Some("IDLE")
        );
        replays(&task, envs::make(&task.env, &task.kwargs).unwrap(), &record);
    }

    fn picker_task() -> Task {
        serde_json::from_str(
            r#"{
            "id": "picker-s0", "title": "Picker", "env": "Picker-v0", "seed": 0,
            "max_steps": 12, "actions": ["light((0, 0))"],
            "demos": [{"label": "x", "seed": 0, "actions": ["light((0, 0))"]}],
            "pass": {"kind": "reach_goal"},
            "score": {"kind": "capped_ratio", "value": "steps_survived", "floor": 0, "reference": 5},
            "tags": {"family": "Picker", "memory": "single", "dynamics": "static"}
        }"#,
        )
        .unwrap()
    }

    #[test]
    fn text_form_and_pointer_actions_are_recorded_as_text_and_verify() {
        use crate::action_form::ActionForms;
        use crate::test_envs::{Picker, PICKER_GRID};
        let task = picker_task();
        let runner = EpisodeRunner::start_on(&task, Box::new(Picker::default()), 0, &[]).unwrap();
        let mut s = TaskSession::from_runner(&task, runner);
        assert_eq!(s.functions().len(), 4);
        assert_eq!(s.pointer_mode(), Some(PointerMode::ClickOrDrag));
        assert_eq!(s.press_key("l"), TaskKey::Played(0));
        // Typed: spaces as the person likes them; recorded in the canonical form.
        s.play_text(" light( (1,1) )", 0.0).unwrap();
        let e = s.play_text("light((1, 9))", 0.0).unwrap_err();
        assert!(e.contains("column 0-2"), "{e}");
        assert_eq!(s.decisions_used(), 2);
        let mut forms = ActionForms::new(s.functions());
        forms.choose("order");
        s.play_call(forms.current().unwrap().call().unwrap(), 0.0)
            .unwrap();
        let (x, y) = PICKER_GRID.centre(2, 1);
        s.play_gesture(Gesture::Click { x, y }, 0.0).unwrap();
        assert!(s
            .play_gesture(Gesture::Click { x: 0.0, y: 0.0 }, 0.0)
            .is_err());
        assert_eq!(s.last_error(), Some("That click is not an action here."));
        let drag = Gesture::Drag {
            from: PICKER_GRID.centre(2, 1),
            to: PICKER_GRID.centre(2, 0),
        };
        s.play_gesture(drag, 0.0).unwrap();
        for cell in ["(1, 0)", "(1, 2)", "(2, 1)", "(2, 2)"] {
            s.play_text(&format!("light({cell})"), 0.0).unwrap();
        }
        let record = s.record().unwrap().clone();
        assert!(record.passed);
        let actions: Vec<&str> = record.decisions.iter().map(|d| d.action.as_str()).collect();
        assert_eq!(
            actions,
            [
                "light((0, 0))",
                "light((1, 1))",
                "order([1, 2, 3])",
                "light((2, 1))",
                "swap((2, 1), (2, 0))",
                "light((1, 0))",
                "light((1, 2))",
                "light((2, 1))",
                "light((2, 2))"
            ]
        );
        replays(&task, Box::new(Picker::default()), &record);
    }

    #[test]
    fn a_recorded_demo_replays_the_play() {
        let mut task = lake_task();
        task.prefix = vec!["Down".into()];
        let mut s = TaskSession::new(&task).unwrap();
        for key in &WIN[1..3] {
            s.press_key(key);
        }
        let clip = s.demo_clip("  my try ").unwrap();
        assert_eq!(clip.label, "my try");
        assert_eq!(clip.seed, 0);
        assert_eq!(clip.prefix, ["Down"]);
        assert_eq!(clip.actions, ["Down", "Right"]);
        let play = play_clip(&task, &clip).unwrap();
        assert_eq!(
            play.frames[2],
            *s.frame(),
            "the clip ends where the play is"
        );
        let json = s.demo_json("my try").unwrap();
        assert_eq!(serde_json::from_str::<DemoClip>(&json).unwrap(), clip);
        let url = json_data_url(&json);
        let body = url
            .strip_prefix("data:application/json;charset=utf-8,")
            .unwrap();
        assert_eq!(decode_component(body), json);
        assert_eq!(s.demo_filename(), "frozenlake-4x4-det-s0-demo.json");
        assert_eq!(score_text(85.26), "85.3");
    }
}
