//! One episode being played by a person: the environment, its last frame and the tallies
//! the play page shows. Input comes as presets (keys, buttons), actions in the
//! environment's text form, calls built with the form controls, or pointer gestures on
//! the frame; an environment with a clock plays in real time (`crate::realtime`).
//! Plain Rust, so it is tested natively; the page only draws it.

use envs::core::action::{ActionFn, ActionSpace};
use envs::core::clock::Clock;
use envs::core::env::RenderOptions;
use envs::core::input::{Gesture, PointerMode};
use envs::{Action, Env, EnvError, Frame};

use crate::pointer::no_action_message;
use crate::realtime::{Due, RealtimeDriver};
use crate::url::{LoadError, PlayRequest, ViewOptions};

/// The key that pauses and resumes real-time play (unless the environment binds it).
pub const PAUSE_KEY: &str = "p";

/// How the current episode stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Running,
    /// Terminated by the environment's success event (its `Signals::success`).
    Success,
    /// A board game that ended in a draw (its `Signals::draw`).
    Draw,
    /// Terminated some other way (a FrozenLake hole, CartPole's pole falling, …).
    Terminated,
    /// Cut off by the time limit.
    Truncated,
}

impl Outcome {
    pub fn is_over(self) -> bool {
        self != Self::Running
    }

    /// The one-word state: `running`, `success`, `terminated` or `truncated`.
    pub fn word(self) -> &'static str {
        match self {
            Self::Running => "running",
            Self::Success => "success",
            Self::Draw => "draw",
            Self::Terminated => "terminated",
            Self::Truncated => "truncated",
        }
    }
}

/// An action a person can take: its preset index, name and the keys that play it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Control {
    pub index: usize,
    pub name: String,
    /// `KeyboardEvent.key` values, in keymap order.
    pub keys: Vec<String>,
}

impl Control {
    /// The keys as shown on screen, e.g. `← / A`.
    pub fn keys_label(&self) -> String {
        self.keys
            .iter()
            .map(|k| key_label(k))
            .collect::<Vec<_>>()
            .join(" / ")
    }
}

/// A `KeyboardEvent.key` value as a person reads it.
pub fn key_label(key: &str) -> String {
    match key {
        "ArrowLeft" => "←".into(),
        "ArrowRight" => "→".into(),
        "ArrowUp" => "↑".into(),
        "ArrowDown" => "↓".into(),
        " " => "Space".into(),
        k if k.chars().count() == 1 => k.to_uppercase(),
        k => k.to_string(),
    }
}

/// What a key press did.
#[derive(Clone, Debug, PartialEq)]
pub enum KeyResult {
    /// The key plays no action here (the browser should handle it).
    Unbound,
    /// The key plays an action, but the episode is over: nothing happened.
    EpisodeOver,
    /// One step was played.
    Stepped { action: usize, reward: f64 },
    /// The environment refused the action.
    Refused(String),
    /// Real-time play: the key went to the clock (`steps` were played at once; in
    /// `Fixed` mode the action waits for the next tick).
    Queued { action: usize, steps: u32 },
    /// Real-time play was paused or resumed.
    Paused,
}

impl KeyResult {
    /// Whether the page handled the key (and so should keep the browser from scrolling).
    pub fn handled(&self) -> bool {
        !matches!(self, Self::Unbound)
    }
}

/// A running episode of one environment.
pub struct PlaySession {
    env: Box<dyn Env>,
    request: PlayRequest,
    max_episode_steps: Option<u32>,
    controls: Vec<Control>,
    frame: Frame,
    steps: u32,
    total_reward: f64,
    last_reward: Option<f64>,
    terminated: bool,
    truncated: bool,
    /// The last step was the environment's success event.
    succeeded: bool,
    /// The last step ended a game in a draw.
    drew: bool,
    last_error: Option<String>,
    /// The mission, for environments that state one (MiniGrid).
    mission: Option<String>,
    view: ViewOptions,
    /// The agent's-eye view, drawn while `view.agent_view` is on.
    agent_frame: Option<Frame>,
    /// The clock of a real-time environment (`None`: turn-based).
    realtime: Option<RealtimeDriver<Action>>,
}

impl PlaySession {
    /// Makes the environment the request names and resets it with the request's seed.
    pub fn new(request: PlayRequest) -> Result<Self, LoadError> {
        let spec = envs::spec(&request.env_id)
            .ok_or_else(|| LoadError::UnknownEnv(request.env_id.clone()))?;
        let env = envs::make(spec.id, &request.kwargs).map_err(|e| match e {
            EnvError::UnknownEnv(id) => LoadError::UnknownEnv(id),
            EnvError::BadKwargs(why) => LoadError::BadKwargs(why),
            EnvError::MissingAsset(why) => LoadError::MissingAsset(why),
            other => LoadError::BadKwargs(other.to_string()),
        })?;
        let request = PlayRequest {
            env_id: spec.id.to_string(),
            ..request
        };
        let session = Self::with_env(env, request, spec.max_episode_steps);
        match session.env.reset_failure() {
            Some(why) => Err(LoadError::ResetFailed(why)),
            None => Ok(session),
        }
    }

    /// A session of an environment made elsewhere (tests play unregistered ones).
    pub fn with_env(
        env: Box<dyn Env>,
        request: PlayRequest,
        max_episode_steps: Option<u32>,
    ) -> Self {
        let controls = controls_of(env.as_ref());
        let mut session = Self {
            env,
            request,
            max_episode_steps,
            controls,
            frame: Frame::default(),
            steps: 0,
            total_reward: 0.0,
            last_reward: None,
            terminated: false,
            truncated: false,
            succeeded: false,
            drew: false,
            last_error: None,
            mission: None,
            view: ViewOptions::default(),
            agent_frame: None,
            realtime: None,
        };
        let seed = session.request.seed;
        session.reset(seed);
        session
    }

    /// Starts a new episode from `seed` (the generator is rebuilt from it).
    pub fn reset(&mut self, seed: u64) {
        self.env.reset(Some(seed));
        self.mission = self.env.mission();
        self.request.seed = seed;
        self.steps = 0;
        self.total_reward = 0.0;
        self.last_reward = None;
        self.terminated = false;
        self.truncated = false;
        self.succeeded = false;
        self.drew = false;
        // An image environment out of pictures, or at one it cannot read, keeps its last
        // episode and says why.
        self.last_error = self.env.reset_failure();
        // A real-time game starts paused: the first input (or Resume) starts its clock.
        self.realtime = self.env.clock().map(RealtimeDriver::new);
        self.redraw();
    }

    /// Plays the action preset `index` at once (turn-based play, tests). Does nothing
    /// once the episode is over; returns the reward of the step taken.
    pub fn act(&mut self, index: usize) -> Result<Option<f64>, String> {
        let action = self.preset(index)?;
        self.step(action)
    }

    fn preset(&mut self, index: usize) -> Result<Action, String> {
        self.env.preset_action(index).ok_or_else(|| {
            let msg = format!("this environment has no action {index}");
            self.last_error = Some(msg.clone());
            msg
        })
    }

    /// A person's input at real time `real_ms` (ms, any origin): played at once when
    /// turn-based, through the clock when real-time.
    pub fn play(&mut self, action: Action, real_ms: f64) -> Result<(), String> {
        if self.outcome().is_over() {
            return Ok(());
        }
        match self.realtime.as_mut() {
            Some(driver) => {
                let due = driver.input(action, real_ms);
                self.play_due(due)
            }
            None => self.step(action).map(|_| ()),
        }
    }

    /// Preset `index` (a button) at `real_ms`.
    pub fn play_preset(&mut self, index: usize, real_ms: f64) -> Result<(), String> {
        let action = self.preset(index)?;
        self.play(action, real_ms)
    }

    /// An action typed in the environment's text form; a text that does not read is an
    /// `Err` with the reason (nothing is played).
    pub fn play_text(&mut self, text: &str, real_ms: f64) -> Result<(), String> {
        let action = self.env.parse_action(text).map_err(|e| e.to_string())?;
        self.play(action, real_ms)
    }

    /// A gesture on the frame; one that maps to no action leaves a short message.
    pub fn play_gesture(&mut self, gesture: Gesture, real_ms: f64) -> Result<(), String> {
        match self.env.pointer_action(gesture) {
            Some(action) => self.play(action, real_ms),
            None => {
                let msg = no_action_message(&gesture).to_string();
                self.last_error = Some(msg.clone());
                Err(msg)
            }
        }
    }

    /// The timer of a real-time game: plays what fell due by `real_ms`; whether
    /// anything changed.
    pub fn tick(&mut self, real_ms: f64) -> bool {
        if self.outcome().is_over() {
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
        if self.outcome().is_over() {
            return;
        }
        if let Some(driver) = self.realtime.as_mut() {
            let due = driver.toggle(real_ms);
            let _ = self.play_due(due);
        }
    }

    fn play_due(&mut self, due: Vec<Due<Action>>) -> Result<(), String> {
        for d in due {
            match d {
                Due::Idle(n) => {
                    let Some(idle) = self.clock().and_then(|c| self.env.preset_action(c.idle))
                    else {
                        continue;
                    };
                    for _ in 0..n {
                        self.step(idle.clone())?;
                    }
                }
                Due::Act(action) => {
                    if let Some(at) = self
                        .realtime
                        .as_ref()
                        .and_then(RealtimeDriver::action_time_ms)
                    {
                        self.env.set_action_time(at);
                    }
                    self.step(action)?;
                }
            }
        }
        Ok(())
    }

    /// One environment step (nothing once the episode is over).
    fn step(&mut self, action: Action) -> Result<Option<f64>, String> {
        if self.outcome().is_over() {
            return Ok(None);
        }
        match self.env.step(action) {
            Ok(step) => {
                self.steps += 1;
                self.total_reward += step.reward;
                self.last_reward = Some(step.reward);
                self.terminated = step.terminated;
                self.truncated = step.truncated;
                self.succeeded = step.signals.success;
                self.drew = step.signals.draw;
                self.last_error = None;
                self.redraw();
                Ok(Some(step.reward))
            }
            Err(e) => {
                let msg = e.to_string();
                self.last_error = Some(msg.clone());
                Err(msg)
            }
        }
    }

    /// Plays the action bound to a `KeyboardEvent.key` value (turn-based play). A single
    /// letter matches its binding whatever its case (Caps Lock, Shift).
    pub fn press_key(&mut self, key: &str) -> KeyResult {
        self.press_key_at(key, 0.0)
    }

    /// A key press at real time `real_ms`: in real-time play it goes through the clock
    /// (and P pauses, unless the environment binds it).
    pub fn press_key_at(&mut self, key: &str, real_ms: f64) -> KeyResult {
        let Some(index) = self.action_for_key(key) else {
            if self.realtime.is_some() && key.eq_ignore_ascii_case(PAUSE_KEY) {
                self.toggle_pause(real_ms);
                return KeyResult::Paused;
            }
            return KeyResult::Unbound;
        };
        if self.outcome().is_over() {
            return KeyResult::EpisodeOver;
        }
        if self.realtime.is_some() {
            let steps = self.steps;
            return match self.play_preset(index, real_ms) {
                Ok(()) => KeyResult::Queued {
                    action: index,
                    steps: self.steps - steps,
                },
                Err(msg) => KeyResult::Refused(msg),
            };
        }
        match self.act(index) {
            Ok(Some(reward)) => KeyResult::Stepped {
                action: index,
                reward,
            },
            Ok(None) => KeyResult::EpisodeOver,
            Err(msg) => KeyResult::Refused(msg),
        }
    }

    /// The action preset a key plays, if any.
    pub fn action_for_key(&self, key: &str) -> Option<usize> {
        control_for_key(&self.controls, key)
    }

    /// The same session shown with `view` (see [`Self::set_view`]).
    pub fn with_view(mut self, view: ViewOptions) -> Self {
        self.set_view(view);
        self
    }

    /// Changes how a MiniGrid level is shown and redraws; returns whether anything
    /// changed. Environments without views ignore it (and keep the default).
    pub fn set_view(&mut self, view: ViewOptions) -> bool {
        if !self.has_views() || view == self.view {
            return false;
        }
        self.view = view;
        self.redraw();
        true
    }

    fn redraw(&mut self) {
        if !self.has_views() {
            self.env.render(&mut self.frame);
            self.agent_frame = None;
            return;
        }
        let full = RenderOptions {
            highlight: self.view.highlight,
            agent_view: false,
            tile_size: 0,
        };
        self.env.render_with(&mut self.frame, full);
        if self.view.agent_view {
            let eye = RenderOptions {
                highlight: true,
                agent_view: true,
                tile_size: 0,
            };
            let frame = self.agent_frame.get_or_insert_with(Frame::default);
            if !self.env.render_with(frame, eye) {
                self.agent_frame = None;
            }
        } else {
            self.agent_frame = None;
        }
    }

    pub fn outcome(&self) -> Outcome {
        let over = self.terminated || self.truncated;
        if self.drew && over {
            Outcome::Draw
        } else if self.succeeded && over {
            Outcome::Success
        } else if self.terminated {
            Outcome::Terminated
        } else if self.truncated {
            Outcome::Truncated
        } else {
            Outcome::Running
        }
    }

    /// The status line: starts with the outcome's word (`success`, `running`, …).
    pub fn status_text(&self) -> String {
        let steps = self.steps;
        let step_word = if steps == 1 { "step" } else { "steps" };
        let words = self.env.words();
        match self.outcome() {
            Outcome::Running => match self.env.status_note() {
                Some(note) => format!("running — {note}"),
                None => "running".to_string(),
            },
            Outcome::Success => format!("success — {} in {steps} {step_word}", words.success),
            Outcome::Draw => format!("draw — the game ended in a draw after {steps} {step_word}"),
            Outcome::Terminated => {
                let why = self
                    .env
                    .ending_note()
                    .unwrap_or_else(|| words.failure.to_string());
                format!("terminated — {why} after {steps} {step_word}")
            }
            Outcome::Truncated => match self.max_episode_steps() {
                Some(max) => format!("truncated — time limit of {max} steps reached"),
                None => format!("truncated — after {steps} {step_word}"),
            },
        }
    }

    pub fn request(&self) -> &PlayRequest {
        &self.request
    }

    pub fn env_id(&self) -> &str {
        &self.request.env_id
    }

    pub fn seed(&self) -> u64 {
        self.request.seed
    }

    /// The step limit: the registration's time limit, or the one the environment
    /// applies itself (MiniGrid's `max_steps`), so every limited game shows it.
    pub fn max_episode_steps(&self) -> Option<u32> {
        self.max_episode_steps.or_else(|| self.env.own_step_limit())
    }

    pub fn steps(&self) -> u32 {
        self.steps
    }

    pub fn total_reward(&self) -> f64 {
        self.total_reward
    }

    pub fn last_reward(&self) -> Option<f64> {
        self.last_reward
    }

    pub fn terminated(&self) -> bool {
        self.terminated
    }

    pub fn truncated(&self) -> bool {
        self.truncated
    }

    pub fn last_error(&self) -> Option<&str> {
        self.last_error.as_deref()
    }

    /// Shows a short message where refusals are shown (e.g. a press that made no
    /// gesture).
    pub fn note(&mut self, message: &str) {
        self.last_error = Some(message.to_string());
    }

    pub fn controls(&self) -> &[Control] {
        &self.controls
    }

    /// The current frame (drawn after every reset and step).
    pub fn frame(&self) -> &Frame {
        &self.frame
    }

    pub fn render_text(&self) -> String {
        self.env.render_text()
    }

    /// Whether the environment offers the agent's-eye view and the highlight toggle.
    pub fn has_views(&self) -> bool {
        self.env.render_caps().agent_view
    }

    /// The level's mission, e.g. "use the key to open the door and then get to the goal".
    pub fn mission(&self) -> Option<&str> {
        self.mission.as_deref()
    }

    /// How the level is shown (the default for environments without views).
    pub fn view(&self) -> ViewOptions {
        self.view
    }

    /// The agent's-eye view (7×7 tiles), while it is switched on.
    pub fn agent_frame(&self) -> Option<&Frame> {
        self.agent_frame.as_ref()
    }

    /// What the frame does not show, e.g. "carrying a yellow key".
    pub fn status_note(&self) -> Option<String> {
        self.env.status_note()
    }

    /// The environment's action space (parametric spaces get form controls).
    pub fn action_space(&self) -> ActionSpace {
        self.env.action_space()
    }

    /// The functions of a parametric action space (none otherwise).
    pub fn functions(&self) -> Vec<ActionFn> {
        match self.env.action_space() {
            ActionSpace::Parametric { functions } => functions,
            _ => Vec::new(),
        }
    }

    /// An action in the environment's text form.
    pub fn action_text(&self, action: &Action) -> String {
        self.env.action_text(action)
    }

    /// What the pointer does on the frame, if anything.
    pub fn pointer_mode(&self) -> Option<PointerMode> {
        self.env.pointer_mode()
    }

    /// The real-time rule, for environments that have one.
    pub fn clock(&self) -> Option<Clock> {
        self.realtime.as_ref().map(RealtimeDriver::clock)
    }

    /// Whether a real-time game is paused (turn-based play never is).
    pub fn is_paused(&self) -> bool {
        self.realtime
            .as_ref()
            .is_some_and(RealtimeDriver::is_paused)
    }

    /// Virtual milliseconds played (real-time play).
    pub fn virtual_ms(&self) -> Option<u64> {
        self.realtime.as_ref().map(RealtimeDriver::virtual_ms)
    }

    /// How often the page's timer should tick (real-time play).
    pub fn poll_ms(&self) -> Option<u32> {
        self.realtime.as_ref().map(RealtimeDriver::poll_ms)
    }

    /// The play page's query: the episode's start, then the view options that differ
    /// from the default (for MiniGrid levels only).
    pub fn query(&self) -> String {
        let mut q = self.request.query();
        if self.has_views() {
            q.push_str(&self.view.query_suffix());
        }
        q
    }
}

/// The index of the control a `KeyboardEvent.key` value plays, if any. A single letter
/// matches its binding whatever its case (Caps Lock, Shift).
pub fn control_for_key(controls: &[Control], key: &str) -> Option<usize> {
    let exact = controls.iter().find(|c| c.keys.iter().any(|k| k == key));
    let folded = || {
        let single = key.chars().count() == 1;
        controls.iter().find(|c| {
            single
                && c.keys
                    .iter()
                    .any(|k| k.chars().count() == 1 && k.eq_ignore_ascii_case(key))
        })
    };
    exact.or_else(folded).map(|c| c.index)
}

/// The env's action presets with the keys bound to each.
pub fn controls_of(env: &dyn Env) -> Vec<Control> {
    let keymap = env.keymap();
    env.action_names()
        .into_iter()
        .enumerate()
        .map(|(index, name)| Control {
            index,
            name,
            keys: keymap
                .iter()
                .filter(|b| b.action == index)
                .map(|b| b.key.to_string())
                .collect(),
        })
        .collect()
}

/// How many times to enlarge a frame on the play page: the largest whole factor that
/// keeps it within `max` pixels both ways (whole factors keep pixel art crisp), at least 1.
pub fn display_scale(width: u32, height: u32, max: u32) -> u32 {
    match width.max(height) {
        0 => 1,
        longest => (max / longest).max(1),
    }
}

/// A reward as shown on the page: integers plainly, others with up to 3 decimals.
pub fn format_reward(r: f64) -> String {
    if r.fract() == 0.0 && r.abs() < 1e15 {
        format!("{r:.0}")
    } else {
        let s = format!("{r:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use envs::core::clock::ClockMode;
    use serde_json::{json, Map, Value};

    #[test]
    fn an_unreadable_picture_or_the_end_of_the_pictures_is_said_not_hidden() {
        use envs::visgym::images::{shelf, ImageFile, ImageSet, BUNDLED};
        playbench_tests::visgym::shelve_bundled_images().unwrap();
        playbench_cli::mujoco_node::install_on_demand();
        let good = shelf::get(BUNDLED).unwrap().files()[0].clone();
        let bad = ImageFile::new("bad.png", &b"not a picture"[..]);
        shelf::put("Broken", ImageSet::new(vec![good, bad]).unwrap());
        let mut kwargs = Map::new();
        kwargs.insert("sample_dir".into(), json!("Broken"));
        let (mut failed_at_start, mut failed_later) = (0, 0);
        for ctor_seed in 0..6 {
            kwargs.insert("seed".into(), json!(ctor_seed));
            match PlaySession::new(PlayRequest::new("jigsaw/easy", kwargs.clone(), 0)) {
                Err(e @ LoadError::ResetFailed(_)) => {
                    assert!(e.to_string().contains("bad.png"), "{e}");
                    failed_at_start += 1;
                }
                Ok(mut s) => {
                    assert_eq!(s.last_error(), None);
                    s.reset(1);
                    assert!(s.last_error().is_some_and(|e| e.contains("bad.png")));
                    s.reset(2);
                    assert!(s
                        .last_error()
                        .is_some_and(|e| e.contains("All samples exhausted")));
                    failed_later += 1;
                }
                Err(other) => panic!("{other:?}"),
            }
        }
        assert!(failed_at_start > 0 && failed_later > 0, "both orders occur");
    }

    fn request(id: &str, kwargs: Value, seed: u64) -> PlayRequest {
        PlayRequest::new(id, kwargs.as_object().cloned().unwrap(), seed)
    }

    fn lake() -> PlaySession {
        PlaySession::new(request("FrozenLake-v1", json!({"is_slippery": false}), 0)).unwrap()
    }

    fn key_for(s: &PlaySession, action: usize) -> String {
        s.controls()[action].keys[0].clone()
    }

    #[test]
    fn frozen_lake_by_keyboard_reaches_the_goal_in_six_steps() {
        let mut s = lake();
        assert_eq!(s.outcome(), Outcome::Running);
        assert_eq!(s.status_text(), "running");
        assert_eq!(s.steps(), 0);
        assert_eq!(s.last_reward(), None);
        // 0 left, 1 down, 2 right, 3 up: down, down, right, right, down, right.
        for (i, a) in [1, 1, 2, 2, 1, 2].into_iter().enumerate() {
            let key = key_for(&s, a);
            let reward = if i == 5 { 1.0 } else { 0.0 };
            assert_eq!(s.press_key(&key), KeyResult::Stepped { action: a, reward });
        }
        assert_eq!(s.steps(), 6);
        assert_eq!(s.outcome(), Outcome::Success);
        assert!(s.terminated());
        assert_eq!(s.total_reward(), 1.0);
        assert_eq!(s.status_text(), "success — reached the goal in 6 steps");
        // Once over, keys are handled but change nothing.
        let key = key_for(&s, 0);
        assert_eq!(s.press_key(&key), KeyResult::EpisodeOver);
        assert_eq!(s.act(0), Ok(None));
        assert_eq!(s.steps(), 6);
    }

    #[test]
    fn a_hole_terminates_without_success() {
        let mut s = lake();
        // Right then down from the start lands in the hole at (1, 1).
        s.act(2).unwrap();
        s.act(1).unwrap();
        assert_eq!(s.outcome(), Outcome::Terminated);
        assert!(s.status_text().starts_with("terminated — fell into a hole"));
    }

    #[test]
    fn reset_starts_over_and_keeps_the_seed() {
        let mut s = lake();
        let first = s.frame().clone();
        s.act(2).unwrap();
        assert_ne!(s.frame(), &first);
        s.reset(5);
        assert_eq!(s.seed(), 5);
        assert_eq!(s.request().seed, 5);
        assert_eq!(s.steps(), 0);
        assert_eq!(s.total_reward(), 0.0);
        assert_eq!(s.frame(), &first);
        assert_eq!(s.outcome(), Outcome::Running);
    }

    #[test]
    fn unbound_keys_are_left_to_the_browser() {
        let mut s = lake();
        assert_eq!(s.press_key("F5"), KeyResult::Unbound);
        assert!(!s.press_key("Tab").handled());
        assert_eq!(s.steps(), 0);
    }

    #[test]
    fn every_env_starts_with_a_frame_and_bound_keys() {
        // Atari ids need their ROMs (`tests/missing_roms.rs` covers them missing), VisGym's
        // image environments their pictures.
        playbench_tests::atari::shelve_test_roms().unwrap();
        playbench_tests::visgym::shelve_bundled_images().unwrap();
        playbench_cli::mujoco_node::install_on_demand();
        for spec in envs::specs() {
            let s = PlaySession::new(PlayRequest::new(spec.id, Map::new(), 0)).unwrap();
            let (w, h) = (s.frame().width(), s.frame().height());
            assert!(w > 0 && h > 0, "{}", spec.id);
            assert!(!s.controls().is_empty(), "{}", spec.id);
            assert!(
                s.controls().iter().any(|c| !c.keys.is_empty()),
                "{}: no key plays anything",
                spec.id
            );
            for c in s.controls() {
                for k in &c.keys {
                    assert_eq!(s.action_for_key(k), Some(c.index), "{} key {k:?}", spec.id);
                }
            }
            assert!(!s.render_text().is_empty(), "{}", spec.id);
        }
    }

    #[test]
    fn one_key_press_is_one_step_or_one_input_to_the_clock_everywhere() {
        // Atari ids need their ROMs (`tests/missing_roms.rs` covers them missing), VisGym's
        // image environments their pictures.
        playbench_tests::atari::shelve_test_roms().unwrap();
        playbench_tests::visgym::shelve_bundled_images().unwrap();
        playbench_cli::mujoco_node::install_on_demand();
        for spec in envs::specs() {
            let mut s = PlaySession::new(PlayRequest::new(spec.id, Map::new(), 1)).unwrap();
            let c = s
                .controls()
                .iter()
                .find(|c| !c.keys.is_empty())
                .cloned()
                .unwrap();
            let Some(clock) = s.clock() else {
                let r = s.press_key(&c.keys[0]);
                assert!(matches!(r, KeyResult::Stepped { .. }), "{}: {r:?}", spec.id);
                assert_eq!(s.steps(), 1, "{}", spec.id);
                continue;
            };
            // Real time: the press goes to the clock — at once on an idle timeout, at
            // the next tick on fixed ticks.
            let r = s.press_key_at(&c.keys[0], 0.0);
            let at_once = u32::from(clock.mode == ClockMode::IdleTimeout);
            assert_eq!(
                r,
                KeyResult::Queued {
                    action: c.index,
                    steps: at_once
                },
                "{}",
                spec.id
            );
            if at_once == 0 {
                assert!(s.tick(f64::from(clock.tick_ms)), "{}", spec.id);
            }
            assert_eq!(s.steps(), 1, "{}", spec.id);
            assert_eq!(
                s.virtual_ms(),
                Some(u64::from(clock.tick_ms) * u64::from(1 - at_once))
            );
        }
    }

    #[test]
    fn breakout_plays_in_real_time_at_60_frames_a_second_with_ale_action_names() {
        playbench_tests::atari::shelve_test_roms().unwrap();
        let mut s = PlaySession::new(request("ALE/Breakout-v5", json!({}), 0)).unwrap();
        let names: Vec<&str> = s.controls().iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["NOOP", "FIRE", "RIGHT", "LEFT"]);
        let key = |s: &PlaySession, name: &str| {
            let c = s.controls().iter().find(|c| c.name == name).unwrap();
            c.keys[0].clone()
        };
        assert_eq!(key(&s, "FIRE"), " ");
        assert_eq!(key(&s, "LEFT"), "ArrowLeft");
        // Four frames a step at 60 Hz: 67 ms ticks, NOOP between presses.
        let clock = s.clock().unwrap();
        assert_eq!(
            (clock.mode, clock.tick_ms, clock.idle),
            (ClockMode::Fixed, 67, 0)
        );
        assert!(s.is_paused());
        let frames = |s: &PlaySession| -> u64 {
            let text = s.render_text();
            let line = text.lines().next().unwrap_or_default();
            line.rsplit(' ').next().unwrap().parse().unwrap()
        };
        let at_reset = frames(&s);
        let fire = key(&s, "FIRE");
        assert!(matches!(
            s.press_key_at(&fire, 0.0),
            KeyResult::Queued { action: 1, .. }
        ));
        s.tick(1000.0);
        // One second of play: 14 whole ticks (the 15th falls due at 1005 ms).
        assert_eq!(s.steps(), 14);
        assert_eq!(s.virtual_ms(), Some(1000));
        assert_eq!(frames(&s), at_reset + 14 * 4);
    }

    #[test]
    fn bad_kwargs_and_unknown_ids_are_load_errors() {
        let e = PlaySession::new(request("FrozenLake-v1", json!({"map_name": "5x5"}), 0)).err();
        assert!(matches!(e, Some(LoadError::BadKwargs(m)) if m.contains("map_name")));
        let e = PlaySession::new(request("Nope-v0", json!({}), 0)).err();
        assert_eq!(e, Some(LoadError::UnknownEnv("Nope-v0".into())));
    }

    #[test]
    fn aliases_resolve_to_the_canonical_id() {
        let s = PlaySession::new(request("CliffWalking-v0", json!({}), 0)).unwrap();
        assert_eq!(s.env_id(), "CliffWalking-v1");
        assert_eq!(s.request().href(), "/play?env=CliffWalking-v1&seed=0");
    }

    #[test]
    fn an_episode_ended_in_lava_says_so() {
        // LavaGapS5: walk every turn-then-forward pattern until one ends the episode;
        // in this level every ending that is not the goal is a step into lava.
        let request = || request("MiniGrid-LavaGapS5-v0", json!({}), 0);
        let mut lava = None;
        'search: for turns in 0..4 {
            for forwards in 1..5 {
                let mut s = PlaySession::new(request()).unwrap();
                for _ in 0..turns {
                    s.act(1).unwrap();
                }
                for _ in 0..forwards {
                    s.act(2).unwrap();
                }
                if s.terminated() && s.outcome() != Outcome::Success {
                    lava = Some(s);
                    break 'search;
                }
            }
        }
        let s = lava.expect("some pattern walks into the lava");
        assert!(
            s.status_text()
                .starts_with("terminated — stepped into lava after "),
            "{}",
            s.status_text()
        );
    }

    fn door_key() -> PlaySession {
        PlaySession::new(request("MiniGrid-DoorKey-5x5-v0", json!({}), 1)).unwrap()
    }

    #[test]
    fn door_key_by_keyboard_picks_up_the_key_opens_the_door_and_reaches_the_goal() {
        // Seed 1: the agent at (1, 2) faces down at the key; the locked door is to its
        // right, the goal in the bottom-right corner (checked against minigrid 3.2.0).
        let mut s = door_key();
        assert_eq!(
            s.mission(),
            Some("use the key to open the door and then get to the goal")
        );
        assert_eq!(s.status_text(), "running");
        assert_eq!(s.status_note(), None);
        assert_eq!(
            s.press_key("p"),
            KeyResult::Stepped {
                action: 3,
                reward: 0.0
            }
        );
        assert_eq!(s.status_note().as_deref(), Some("carrying a yellow key"));
        assert_eq!(s.status_text(), "running — carrying a yellow key");
        for (key, action) in [
            ("ArrowLeft", 0),
            (" ", 5),
            ("ArrowUp", 2),
            ("ArrowUp", 2),
            ("ArrowRight", 1),
        ] {
            assert_eq!(
                s.press_key(key),
                KeyResult::Stepped {
                    action,
                    reward: 0.0
                }
            );
        }
        let r = s.press_key("ArrowUp");
        assert!(matches!(r, KeyResult::Stepped { action: 2, reward } if reward > 0.97));
        assert_eq!(s.outcome(), Outcome::Success);
        assert_eq!(s.steps(), 7);
        assert_eq!(format_reward(s.total_reward()), "0.975");
        assert_eq!(s.status_text(), "success — reached the goal in 7 steps");
    }

    #[test]
    fn minigrid_keys_and_names() {
        let s = door_key();
        let shown: Vec<(String, String)> = s
            .controls()
            .iter()
            .map(|c| (c.name.clone(), c.keys_label()))
            .collect();
        let expected = [
            ("turn left", "←"),
            ("turn right", "→"),
            ("move forward", "↑"),
            ("pickup", "P"),
            ("drop", "D"),
            ("toggle", "Space"),
            ("done", "Enter"),
        ];
        assert_eq!(shown, expected.map(|(n, k)| (n.to_string(), k.to_string())));
        // DoorKey limits its own steps (10 × size², 250 on 5×5): the page shows it.
        assert_eq!(s.max_episode_steps(), Some(250));
    }

    #[test]
    fn view_options_redraw_a_minigrid_level() {
        let mut s = door_key();
        assert!(s.has_views());
        assert_eq!(s.view(), ViewOptions::default());
        assert_eq!(s.agent_frame(), None);
        assert_eq!(s.query(), "env=MiniGrid-DoorKey-5x5-v0&seed=1");
        let highlighted = s.frame().clone();
        assert_eq!((highlighted.width(), highlighted.height()), (160, 160));

        // Highlight off: the same size, other pixels; the URL says so.
        assert!(s.set_view(ViewOptions::default().with_highlight(false)));
        assert!(!s.set_view(ViewOptions::default().with_highlight(false)));
        let plain = s.frame().clone();
        assert_eq!((plain.width(), plain.height()), (160, 160));
        assert_ne!(plain, highlighted);
        assert_eq!(s.query(), "env=MiniGrid-DoorKey-5x5-v0&seed=1&highlight=0");

        // The agent's-eye view: 7×7 tiles of 32 pixels, kept up to date by steps.
        let both = ViewOptions {
            highlight: false,
            agent_view: true,
        };
        assert!(s.set_view(both));
        let eye = s.agent_frame().cloned().unwrap();
        assert_eq!((eye.width(), eye.height()), (224, 224));
        assert_eq!(s.frame(), &plain);
        assert_eq!(
            s.query(),
            "env=MiniGrid-DoorKey-5x5-v0&seed=1&highlight=0&view=1"
        );
        s.press_key("ArrowLeft");
        assert_ne!(s.agent_frame(), Some(&eye));

        // A reset keeps the view; turning things back gives the reference picture.
        s.reset(1);
        assert_eq!(s.agent_frame(), Some(&eye));
        assert!(s.set_view(ViewOptions::default()));
        assert_eq!(s.frame(), &highlighted);
        assert_eq!(s.agent_frame(), None);
        // The default picture is the env's own `render`.
        let mut env = envs::make("MiniGrid-DoorKey-5x5-v0", &Map::new()).unwrap();
        env.reset(Some(1));
        let mut own = Frame::default();
        env.render(&mut own);
        assert_eq!(own, highlighted);
    }

    #[test]
    fn environments_without_views_ignore_them() {
        let mut s = lake().with_view(ViewOptions {
            highlight: false,
            agent_view: true,
        });
        assert!(!s.has_views());
        assert_eq!(s.mission(), None);
        assert_eq!(s.status_note(), None);
        assert_eq!(s.view(), ViewOptions::default());
        assert_eq!(s.agent_frame(), None);
        assert!(!s.set_view(ViewOptions::default().with_agent_view(true)));
        assert_eq!(s.query(), s.request().query());
    }

    #[test]
    fn every_minigrid_level_has_a_mission_and_an_agent_view() {
        for spec in envs::minigrid::FAMILY.specs {
            let s = PlaySession::new(PlayRequest::new(spec.id, Map::new(), 0))
                .unwrap()
                .with_view(ViewOptions::default().with_agent_view(true));
            assert!(!s.mission().unwrap_or("").is_empty(), "{}", spec.id);
            let eye = s.agent_frame().unwrap();
            assert_eq!((eye.width(), eye.height()), (224, 224), "{}", spec.id);
        }
    }

    #[test]
    fn mountain_car_at_the_flag_is_a_success_as_in_task_play() {
        // One success rule everywhere: the environment's own signal.
        let mut s = PlaySession::new(PlayRequest::new("MountainCar-v0", Map::new(), 0)).unwrap();
        let mut oracle = s.env.oracle(Default::default()).unwrap();
        while !s.outcome().is_over() {
            let a = oracle.act(s.env.as_ref()).unwrap();
            s.act(a).unwrap();
        }
        assert_eq!(s.outcome(), Outcome::Success);
        assert!(
            s.status_text()
                .starts_with("success — the car reached the flag in "),
            "{}",
            s.status_text()
        );
        assert_eq!(Outcome::Success.word(), "success");
        assert!(!Outcome::Running.is_over());
    }

    fn fake(env: Box<dyn Env>) -> PlaySession {
        let id = env.id().to_string();
        PlaySession::with_env(env, PlayRequest::new(&id, Map::new(), 0), None)
    }

    #[test]
    fn parametric_actions_by_text_by_form_by_key_and_by_pointer() {
        use crate::action_form::ActionForms;
        use crate::test_envs::{Picker, PICKER_GRID};
        let mut s = fake(Box::new(Picker::default()));
        assert_eq!(s.functions().len(), 4);
        assert_eq!(s.pointer_mode(), Some(PointerMode::ClickOrDrag));
        assert_eq!(s.clock(), None);
        // The text form, as models write it; what does not read plays nothing.
        s.play_text("light((1, 1))", 0.0).unwrap();
        assert_eq!(s.steps(), 1);
        let e = s.play_text("light((3, 0))", 0.0).unwrap_err();
        assert!(e.contains("row 0-2"), "{e}");
        let e = s.play_text("fly(1)", 0.0).unwrap_err();
        assert!(e.contains("unknown action"), "{e}");
        assert_eq!(s.steps(), 1);
        // The form controls.
        let mut forms = ActionForms::new(s.functions());
        forms.choose("order");
        let form = forms.current_mut().unwrap();
        form.set(0, 0, "3 1 1");
        assert!(form.call().is_err());
        form.set(0, 0, "3 1 2");
        let call = form.call().unwrap();
        assert_eq!(
            s.action_text(&Action::Call(call.clone())),
            "order([3, 1, 2])"
        );
        s.play(Action::Call(call), 0.0).unwrap();
        assert_eq!(s.steps(), 2);
        // A preset by its key.
        assert!(matches!(
            s.press_key("L"),
            KeyResult::Stepped { action: 0, .. }
        ));
        // The pointer: a click lights a cell, a drag swaps two, a click off the board
        // says so and plays nothing.
        let (x, y) = PICKER_GRID.centre(2, 2);
        s.play_gesture(Gesture::Click { x, y }, 0.0).unwrap();
        let e = s.play_gesture(Gesture::Click { x: 1.0, y: 1.0 }, 0.0);
        assert_eq!(e, Err("That click is not an action here.".into()));
        assert_eq!(s.last_error(), Some("That click is not an action here."));
        assert_eq!(s.steps(), 4);
        let drag = Gesture::Drag {
            from: PICKER_GRID.centre(2, 2),
            to: PICKER_GRID.centre(1, 0),
        };
        s.play_gesture(drag, 0.0).unwrap();
        assert_eq!(s.last_error(), None);
        for (r, c) in [(2, 0), (2, 1), (2, 2), (1, 2)] {
            assert_eq!(s.outcome(), Outcome::Running);
            s.play_text(&format!("light(({r}, {c}))"), 0.0).unwrap();
        }
        assert_eq!(s.outcome(), Outcome::Success);
        assert_eq!(s.steps(), 9);
    }

    #[test]
    fn a_clocked_environment_plays_in_real_time() {
        use crate::test_envs::Runner;
        // Idle timeout: keys step at once, the idle action after each second without one.
        let mut s = fake(Box::new(Runner::new(ClockMode::IdleTimeout, 1000)));
        assert!(s.is_paused(), "a real-time game waits for its player");
        assert_eq!(s.poll_ms(), Some(50));
        assert!(!s.tick(5_000.0));
        assert_eq!(
            s.press_key_at("ArrowRight", 5_000.0),
            KeyResult::Queued {
                action: 2,
                steps: 1
            }
        );
        assert!(!s.is_paused());
        assert!(!s.tick(5_999.0));
        assert!(s.tick(6_500.0));
        assert!(s.tick(7_000.0));
        assert_eq!(s.steps(), 3, "one move, two idle steps");
        assert_eq!(s.virtual_ms(), Some(2_000));
        // P pauses: time stops.
        assert_eq!(s.press_key_at("P", 7_100.0), KeyResult::Paused);
        assert!(s.is_paused());
        assert!(!s.tick(60_000.0));
        s.toggle_pause(60_000.0);
        assert!(s.tick(61_000.0));
        assert_eq!(s.virtual_ms(), Some(3_100));
        // Buttons go through the clock as keys do.
        for i in 0..8 {
            s.play_preset(2, 61_000.0 + f64::from(i)).unwrap();
        }
        assert_eq!(s.outcome(), Outcome::Success);
        assert!(!s.tick(100_000.0));
        // A reset starts a paused game again.
        s.reset(0);
        assert!(s.is_paused() && s.virtual_ms() == Some(0));

        // Fixed ticks: a key waits for the next tick; every tick is a step.
        let mut s = fake(Box::new(Runner::new(ClockMode::Fixed, 100)));
        assert_eq!(
            s.press_key_at("ArrowLeft", 0.0),
            KeyResult::Queued {
                action: 1,
                steps: 0
            }
        );
        assert_eq!(s.steps(), 0);
        assert!(s.tick(100.0));
        assert!(s.tick(350.0));
        assert_eq!(s.steps(), 3);
        assert_eq!(s.render_text(), "pos 9");
        // Turn-based environments ignore the clock entirely.
        let mut lake = lake();
        assert_eq!(lake.clock(), None);
        assert!(!lake.tick(1e9));
        assert_eq!(lake.press_key_at("p", 0.0), KeyResult::Unbound);
    }

    #[test]
    fn a_drawn_game_is_a_draw() {
        // Tic-Tac-Toe's oracle against its minimax opponent: a draw.
        let mut s =
            PlaySession::new(PlayRequest::new("GameVerse/TicTacToe", Map::new(), 0)).unwrap();
        let mut oracle = s.env.oracle(Default::default()).unwrap();
        while !s.outcome().is_over() {
            let a = oracle.next_action(s.env.as_ref()).unwrap();
            s.play(a, 0.0).unwrap();
        }
        assert_eq!(s.outcome(), Outcome::Draw);
        assert_eq!(Outcome::Draw.word(), "draw");
        assert!(
            s.status_text().starts_with("draw — "),
            "{}",
            s.status_text()
        );
    }

    #[test]
    fn labels() {
        assert_eq!(key_label("ArrowLeft"), "←");
        assert_eq!(key_label("a"), "A");
        assert_eq!(key_label(" "), "Space");
        assert_eq!(key_label("Enter"), "Enter");
        let c = Control {
            index: 0,
            name: "left".into(),
            keys: vec!["ArrowLeft".into(), "a".into()],
        };
        assert_eq!(c.keys_label(), "← / A");
        assert_eq!(display_scale(256, 256, 560), 2);
        assert_eq!(display_scale(512, 512, 560), 1);
        assert_eq!(display_scale(600, 400, 560), 1);
        assert_eq!(display_scale(0, 0, 560), 1);
        assert_eq!(format_reward(1.0), "1");
        assert_eq!(format_reward(-100.0), "-100");
        assert_eq!(format_reward(-0.5), "-0.5");
        assert_eq!(format_reward(-1.234_567), "-1.235");
    }
}
