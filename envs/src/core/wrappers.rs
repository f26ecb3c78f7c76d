//! What `gym.make` adds around an environment: reset-before-step and the time limit.
//! It also reads text actions (`Action::Text`) for environments with named presets,
//! so each environment sees only actions of its own space.

use super::action::ActionSpace;
use super::clock::Clock;
use super::env::{
    Action, Env, KeyBinding, Observation, ProgressMeasure, RenderCaps, RenderOptions, Reset, Step,
    Words,
};
use super::error::EnvError;
use super::frame::Frame;
use super::input::{Gesture, PointerMode};
use super::oracle::{Control, Solver};

#[derive(Clone)]
pub struct Registered<E: Clone> {
    inner: E,
    max_episode_steps: Option<u32>,
    elapsed: u32,
    has_reset: bool,
}

impl<E: Env + Clone + 'static> Registered<E> {
    pub fn new(inner: E, max_episode_steps: Option<u32>) -> Self {
        Self {
            inner,
            max_episode_steps,
            elapsed: 0,
            has_reset: false,
        }
    }
}

impl<E: Env + Clone + 'static> Env for Registered<E> {
    fn id(&self) -> &str {
        self.inner.id()
    }
    fn action_space(&self) -> ActionSpace {
        self.inner.action_space()
    }
    fn action_names(&self) -> Vec<String> {
        self.inner.action_names()
    }
    fn preset_action(&self, index: usize) -> Option<Action> {
        self.inner.preset_action(index)
    }
    fn keymap(&self) -> Vec<KeyBinding> {
        self.inner.keymap()
    }
    fn noop(&self) -> Option<usize> {
        self.inner.noop()
    }
    fn action_text(&self, action: &Action) -> String {
        self.inner.action_text(action)
    }
    fn parse_action(&self, text: &str) -> Result<Action, super::action::ActionError> {
        self.inner.parse_action(text)
    }
    fn pointer_mode(&self) -> Option<PointerMode> {
        self.inner.pointer_mode()
    }
    fn pointer_action(&self, gesture: Gesture) -> Option<Action> {
        self.inner.pointer_action(gesture)
    }
    fn clock(&self) -> Option<Clock> {
        self.inner.clock()
    }
    fn observation_delay_ms(&self) -> u64 {
        self.inner.observation_delay_ms()
    }
    fn set_action_time(&mut self, at_ms: u64) {
        self.inner.set_action_time(at_ms)
    }
    fn render_fps(&self) -> u32 {
        self.inner.render_fps()
    }
    fn words(&self) -> Words {
        self.inner.words()
    }
    fn mission(&self) -> Option<String> {
        self.inner.mission()
    }
    fn own_step_limit(&self) -> Option<u32> {
        self.inner.own_step_limit()
    }
    fn status_note(&self) -> Option<String> {
        self.inner.status_note()
    }
    fn ending_note(&self) -> Option<String> {
        self.inner.ending_note()
    }
    fn reset_failure(&self) -> Option<String> {
        self.inner.reset_failure()
    }
    fn reset(&mut self, seed: Option<u64>) -> Reset {
        self.has_reset = true;
        self.elapsed = 0;
        self.inner.reset(seed)
    }
    fn step(&mut self, action: Action) -> Result<Step, EnvError> {
        if !self.has_reset {
            return Err(EnvError::NotReset);
        }
        let action = match action {
            Action::Text(text)
                if !matches!(self.inner.action_space(), ActionSpace::Parametric { .. }) =>
            {
                self.inner
                    .parse_action(&text)
                    .map_err(|e| EnvError::InvalidAction(e.0))?
            }
            other => other,
        };
        let mut step = self.inner.step(action)?;
        self.elapsed += 1;
        if let Some(max) = self.max_episode_steps {
            if self.elapsed >= max {
                step.truncated = true;
            }
        }
        Ok(step)
    }
    fn observation(&self) -> Observation {
        self.inner.observation()
    }
    fn physical_state(&self) -> Option<Vec<f64>> {
        self.inner.physical_state()
    }
    fn frame_size(&self) -> (u32, u32) {
        self.inner.frame_size()
    }
    fn render(&self, frame: &mut Frame) {
        self.inner.render(frame)
    }
    fn render_with(&self, frame: &mut Frame, options: RenderOptions) -> bool {
        self.inner.render_with(frame, options)
    }
    fn render_caps(&self) -> RenderCaps {
        self.inner.render_caps()
    }
    fn snapshot(&self) -> Option<serde_json::Value> {
        self.inner.snapshot()
    }
    fn snapshot_at_reset(&self) -> Option<serde_json::Value> {
        self.inner.snapshot_at_reset()
    }
    fn reply_fields(&self) -> serde_json::Map<String, serde_json::Value> {
        self.inner.reply_fields()
    }
    fn instructions(&self, text_mode: bool) -> Option<String> {
        self.inner.instructions(text_mode)
    }
    fn agent_prompts(&self) -> Option<crate::core::agent_prompts::AgentPrompts> {
        self.inner.agent_prompts()
    }
    fn render_text(&self) -> String {
        self.inner.render_text()
    }
    fn clone_box(&self) -> Box<dyn Env> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self.inner.as_any()
    }
    fn world_any(&self) -> Option<&dyn std::any::Any> {
        self.inner.world_any()
    }
    fn oracle(&self, control: Control) -> Option<Box<dyn Solver>> {
        self.inner.oracle(control)
    }
    fn solve_with(
        &self,
        kwargs: &serde_json::Map<String, serde_json::Value>,
    ) -> Option<Result<Vec<String>, String>> {
        self.inner.solve_with(kwargs)
    }
    fn distance_to_goal(&self) -> Option<u32> {
        self.inner.distance_to_goal()
    }
    fn progress(&self) -> Option<ProgressMeasure> {
        self.inner.progress()
    }
    fn normalized_score(&self) -> Option<f64> {
        self.inner.normalized_score()
    }
    fn milestones(&self) -> Option<&'static str> {
        self.inner.milestones()
    }
}
