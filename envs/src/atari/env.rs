//! The Arcade Learning Environment's semantics on top of the emulator, as ale-py's
//! `AtariEnv` (Gymnasium `ALE/<Game>-v5`) runs them:
//!
//! * `reset(seed)` reloads the ROM (a fresh console, whose power-on state comes from a
//!   fixed emulator seed), seeds ALE's sticky-action generator with the second word of
//!   numpy's `SeedSequence(seed).generate_state(2)`, and performs ALE's game reset twice
//!   (once on load, once for the reset call); `reset(None)` performs it once on the
//!   running console.
//! * ALE's game reset: console reset, 60 NOOP frames, RESET held 4 frames, the game's
//!   settings reset, its default mode selected, RESET again, then its starting actions.
//! * `step(a)` plays the action `frameskip` times through ALE's `act`: per frame two
//!   coins are drawn (player A, player B); the previous action is repeated unless the
//!   coin is at least the repeat probability. Once the game is over or truncated no
//!   frame is emulated. Rewards are summed; `terminated` is the game's own end,
//!   `truncated` the episode frame limit.

use super::actions::{self, Action, PLAYER_B_NOOP, RESET};
use super::games::{Game, Rules, GAMES};
use super::machine::{Input, Machine, FIRE, LEFT, RIGHT};
use super::md5::md5_hex;
use super::mt19937::Mt19937;
use super::palette::Palette;
use super::props::RomProperties;
use super::AtariError;
use crate::rng::SeedSequence;
use crate::Frame;
use std::sync::Arc;

pub const SCREEN_WIDTH: usize = 160;
pub const SCREEN_HEIGHT: usize = 210;

const PADDLE_MIN: i32 = 27_450;
const PADDLE_MAX: i32 = 790_196;
const PADDLE_DELTA: i32 = 23_000;
/// NOOP frames ALE plays after the console reset.
const RESET_NOOP_FRAMES: usize = 60;
/// Frames ALE holds the console's RESET switch.
const SOFT_RESET_FRAMES: usize = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObsType {
    Rgb,
    Grayscale,
    Ram,
}

/// The `ALE/<Game>-v5` defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AtariConfig {
    pub frameskip: u32,
    /// ALE keeps this as a 32-bit float and compares it with a double draw.
    pub repeat_action_probability: f32,
    /// 0 disables the limit.
    pub max_num_frames_per_episode: u32,
    pub full_action_space: bool,
    pub obs_type: ObsType,
}

impl Default for AtariConfig {
    fn default() -> Self {
        AtariConfig {
            frameskip: 4,
            repeat_action_probability: 0.25,
            max_num_frames_per_episode: 108_000,
            full_action_space: false,
            obs_type: ObsType::Rgb,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AtariStep {
    pub reward: f64,
    pub terminated: bool,
    pub truncated: bool,
}

/// An ALE game on our emulator.
#[derive(Clone)]
pub struct AtariEnv {
    /// The console right after ALE loads the ROM: its power-on state comes from a fixed
    /// emulator seed, so every load starts from this same machine.
    pristine: Arc<Machine>,
    props: RomProperties,
    game: &'static Game,
    config: AtariConfig,
    action_set: Vec<Action>,
    palette: Palette,
    core: Core,
    rules: Box<dyn Rules>,
}

/// The emulator plus ALE's environment state (everything but the game's rules).
#[derive(Clone)]
struct Core {
    machine: Machine,
    sticky: Mt19937,
    input: Input,
    uses_paddles: bool,
    paddles: [i32; 2],
    player_a_action: Action,
    player_b_action: Action,
    frame_number: u32,
    episode_frame_number: u32,
    repeat_action_probability: f32,
    max_num_frames_per_episode: u32,
}

impl AtariEnv {
    /// Recognises the ROM by MD5 and loads it as with seed 0 (ale-py seeds a new
    /// environment from OS entropy instead; call `reset(Some(seed))` to pick a seed).
    pub fn new(rom: &[u8], config: AtariConfig) -> Result<Self, AtariError> {
        let md5 = md5_hex(rom);
        let game = GAMES
            .iter()
            .copied()
            .find(|g| g.md5 == md5)
            .ok_or(AtariError::UnknownRom(md5.clone()))?;
        if config.frameskip == 0 {
            return Err(AtariError::InvalidConfig("frameskip must be positive"));
        }
        let props = RomProperties::for_md5(&md5);
        let pristine = Arc::new(Machine::new(rom, props)?);
        let action_set = if config.full_action_space {
            actions::ALL.to_vec()
        } else {
            game.minimal_actions.to_vec()
        };
        let mut env = AtariEnv {
            core: Core::new(Machine::clone(&pristine), props, 0, &config),
            pristine,
            props,
            game,
            config,
            action_set,
            palette: Palette::ntsc(),
            rules: (game.new_rules)(),
        };
        env.load(0);
        Ok(env)
    }

    /// The game by its Gymnasium name ("Breakout") or ALE id ("breakout").
    pub fn game_by_name(name: &str) -> Option<&'static Game> {
        GAMES
            .iter()
            .copied()
            .find(|g| g.name == name || g.id == name)
    }

    pub fn supported_games() -> impl Iterator<Item = &'static Game> {
        GAMES.iter().copied()
    }

    pub fn game(&self) -> &'static Game {
        self.game
    }

    pub fn config(&self) -> &AtariConfig {
        &self.config
    }

    /// A fresh console and generator for `seed`, then ALE's load-time reset.
    fn load(&mut self, seed: u64) {
        let words = SeedSequence::new(seed as u128).generate_u32(2);
        let ale_seed = words.get(1).copied().unwrap_or(0);
        self.core = Core::new(
            Machine::clone(&self.pristine),
            self.props,
            ale_seed,
            &self.config,
        );
        self.rules = (self.game.new_rules)();
        self.core.reset_game(self.game, self.rules.as_mut());
    }

    /// Starts an episode. With a seed the console is rebuilt and reseeded, as ale-py's
    /// `reset(seed=...)` does.
    pub fn reset(&mut self, seed: Option<u64>) {
        if let Some(seed) = seed {
            self.load(seed);
        }
        self.core.reset_game(self.game, self.rules.as_mut());
    }

    /// Plays action `index` of the action set for `frameskip` frames.
    pub fn step(&mut self, index: usize) -> Result<AtariStep, AtariError> {
        let action = *self
            .action_set
            .get(index)
            .ok_or(AtariError::InvalidAction(index))?;
        let mut reward = 0.0;
        for _ in 0..self.config.frameskip {
            reward += self.core.act(action, self.rules.as_mut()) as f64;
        }
        Ok(AtariStep {
            reward,
            terminated: self.rules.terminal(),
            truncated: self.core.truncated(),
        })
    }

    /// The actions the step indices refer to (ALE action numbers).
    pub fn action_set(&self) -> &[Action] {
        &self.action_set
    }

    pub fn minimal_action_set(&self) -> &'static [Action] {
        self.game.minimal_actions
    }

    /// ALE's names of the action set ("NOOP", "FIRE", ...).
    pub fn action_names(&self) -> Vec<&'static str> {
        self.action_set.iter().map(|&a| actions::name(a)).collect()
    }

    pub fn ram(&self) -> &[u8; 128] {
        self.core.machine.ram()
    }

    /// Writes a RAM byte (ALE's `setRAM`; `index` 0..127).
    pub fn set_ram(&mut self, index: usize, value: u8) {
        self.core.machine.set_ram(index, value);
    }

    pub fn lives(&self) -> i32 {
        self.rules.lives()
    }

    pub fn frame_number(&self) -> u32 {
        self.core.frame_number
    }

    pub fn episode_frame_number(&self) -> u32 {
        self.core.episode_frame_number
    }

    pub fn terminated(&self) -> bool {
        self.rules.terminal()
    }

    pub fn truncated(&self) -> bool {
        self.core.truncated()
    }

    /// The screen's palette indices, 210 rows of 160.
    pub fn screen_indices(&self) -> &[u8] {
        self.core.machine.frame()
    }

    /// The screen as RGB bytes (210 x 160 x 3, row-major) into `out`, which must hold
    /// exactly that many (a 160x210 [`Frame`]'s data); other lengths are filled as far
    /// as both go.
    pub fn screen_rgb_into(&self, out: &mut [u8]) {
        self.palette.rgb_into(self.screen_indices(), out);
    }

    /// The screen as RGB into a 160x210 frame.
    pub fn screen_rgb(&self, frame: &mut Frame) -> Result<(), AtariError> {
        if frame.width() as usize != SCREEN_WIDTH || frame.height() as usize != SCREEN_HEIGHT {
            return Err(AtariError::InvalidConfig("the frame must be 160x210"));
        }
        self.screen_rgb_into(frame.data_mut());
        Ok(())
    }

    /// The screen as RGB bytes (210 x 160 x 3, row-major).
    pub fn screen_rgb_bytes(&self, out: &mut Vec<u8>) {
        out.resize(self.screen_indices().len() * 3, 0);
        self.screen_rgb_into(out);
    }

    /// The screen in ALE's grayscale (210 x 160 bytes).
    pub fn screen_grayscale(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend(self.screen_indices().iter().map(|&i| self.palette.gray(i)));
    }

    /// The observation of the configured `obs_type`, as bytes.
    pub fn observation(&self, out: &mut Vec<u8>) {
        match self.config.obs_type {
            ObsType::Rgb => self.screen_rgb_bytes(out),
            ObsType::Grayscale => self.screen_grayscale(out),
            ObsType::Ram => {
                out.clear();
                out.extend_from_slice(self.ram());
            }
        }
    }
}

impl Core {
    fn new(machine: Machine, props: RomProperties, ale_seed: u32, config: &AtariConfig) -> Self {
        let uses_paddles = props.left_paddles || props.right_paddles;
        let mut core = Core {
            machine,
            sticky: Mt19937::new(ale_seed),
            input: Input::default(),
            uses_paddles,
            paddles: [0; 2],
            player_a_action: actions::NOOP,
            player_b_action: PLAYER_B_NOOP,
            frame_number: 0,
            episode_frame_number: 0,
            repeat_action_probability: config.repeat_action_probability,
            max_num_frames_per_episode: config.max_num_frames_per_episode,
        };
        if uses_paddles {
            core.reset_paddles();
        }
        core
    }

    fn reset_paddles(&mut self) {
        let middle = (PADDLE_MIN + PADDLE_MAX) / 2;
        self.paddles = [middle, middle];
        self.input.paddle_resistance = self.paddles;
    }

    /// Clears the per-frame keys as ALE does before applying an action (difficulty
    /// switches on B: ALE's default difficulty 0).
    fn reset_keys(&mut self) {
        let resistance = self.input.paddle_resistance;
        self.input = Input {
            paddle_resistance: resistance,
            difficulty: [false, true, false, true],
            ..Input::default()
        };
    }

    fn apply_action(&mut self, a: Action, b: Action, paddle_a_strength: f32) {
        self.reset_keys();
        if self.uses_paddles {
            let ja = actions::joystick(a);
            let mut delta = 0;
            if ja[RIGHT] {
                delta = (-(PADDLE_DELTA as f32) * paddle_a_strength.abs()) as i32;
            } else if ja[LEFT] {
                delta = (PADDLE_DELTA as f32 * paddle_a_strength.abs()) as i32;
            }
            // Player B's paddle never moves: ale-py gives it zero strength.
            self.paddles[0] = (self.paddles[0] + delta).clamp(PADDLE_MIN, PADDLE_MAX);
            self.input.paddle_resistance = self.paddles;
            if a == RESET || b == RESET {
                self.input.console_reset = true;
            }
            self.input.paddle_fire[0] = ja[FIRE];
            self.input.paddle_fire[1] = actions::joystick(b)[FIRE];
        } else {
            if a == RESET {
                self.input.console_reset = true;
            } else {
                self.input.joystick[0] = actions::joystick(a);
            }
            if b == RESET {
                self.input.console_reset = true;
            } else {
                self.input.joystick[1] = actions::joystick(b);
            }
        }
        self.machine.set_input(&self.input);
    }

    /// ALE's `emulate`: joystick actions are applied once, paddle actions every frame
    /// (the paddle keeps moving); the game's settings see every frame.
    fn emulate(&mut self, a: Action, b: Action, frames: usize, rules: &mut dyn Rules) {
        if !self.uses_paddles {
            self.apply_action(a, b, 1.0);
        }
        for _ in 0..frames {
            if self.uses_paddles {
                self.apply_action(a, b, 1.0);
            }
            self.machine.run_frame();
            rules.step(self.machine.ram());
        }
    }

    fn soft_reset(&mut self, rules: &mut dyn Rules) {
        self.emulate(RESET, PLAYER_B_NOOP, SOFT_RESET_FRAMES, rules);
        self.player_a_action = actions::NOOP;
        self.player_b_action = PLAYER_B_NOOP;
    }

    /// Holds SELECT for `frames` frames (the settings do not see them), then one NOOP
    /// frame that counts as an episode frame.
    fn press_select(&mut self, frames: usize, rules: &mut dyn Rules) {
        self.reset_keys();
        self.input.console_select = true;
        self.machine.set_input(&self.input);
        for _ in 0..frames {
            self.machine.run_frame();
        }
        self.emulate(actions::NOOP, PLAYER_B_NOOP, 1, rules);
        self.frame_number += 1;
        self.episode_frame_number += 1;
    }

    fn truncated(&self) -> bool {
        self.max_num_frames_per_episode > 0
            && self.episode_frame_number >= self.max_num_frames_per_episode
    }

    fn reset_game(&mut self, game: &Game, rules: &mut dyn Rules) {
        self.episode_frame_number = 0;
        if self.uses_paddles {
            self.reset_paddles();
        }
        self.machine.reset();
        self.emulate(actions::NOOP, PLAYER_B_NOOP, RESET_NOOP_FRAMES, rules);
        self.soft_reset(rules);
        rules.reset();
        if let Some(select) = &game.mode_select {
            for _ in 0..select.noop_steps_first {
                self.act(actions::NOOP, rules);
            }
            while !(select.reached)(self.machine.ram()) {
                self.press_select(select.frames_per_press, rules);
            }
            rules.after_mode_selected(self.machine.ram());
            self.soft_reset(rules);
        }
        self.soft_reset(rules);
        for &action in game.starting_actions {
            self.emulate(action, PLAYER_B_NOOP, 1, rules);
        }
    }

    /// ALE's `act` with its frame skip of 1: sticky coins, then one frame unless the
    /// episode is over. Returns the frame's reward.
    fn act(&mut self, action: Action, rules: &mut dyn Rules) -> i32 {
        let p = self.repeat_action_probability as f64;
        if self.sticky.next_f64() >= p {
            self.player_a_action = action;
        }
        if self.sticky.next_f64() >= p {
            self.player_b_action = PLAYER_B_NOOP;
        }
        if rules.terminal() || self.truncated() {
            return 0;
        }
        let (a, b) = (self.player_a_action, self.player_b_action);
        self.emulate(a, b, 1, rules);
        self.frame_number += 1;
        self.episode_frame_number += 1;
        rules.reward()
    }
}
