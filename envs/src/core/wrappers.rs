//! What `gym.make` adds around an environment: reset-before-step and the time limit.

use super::env::{Action, ActionSpace, Env, KeyBinding, Observation, RenderOptions, Reset, Step};
use super::error::EnvError;
use super::frame::Frame;

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
    fn reset(&mut self, seed: Option<u64>) -> Reset {
        self.has_reset = true;
        self.elapsed = 0;
        self.inner.reset(seed)
    }
    fn step(&mut self, action: Action) -> Result<Step, EnvError> {
        if !self.has_reset {
            return Err(EnvError::NotReset);
        }
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
    fn snapshot(&self) -> Option<serde_json::Value> {
        self.inner.snapshot()
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
    fn grid_world(&self) -> Option<&crate::minigrid::world::World> {
        self.inner.grid_world()
    }
}
