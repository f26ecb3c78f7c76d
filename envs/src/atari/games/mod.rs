//! ALE's per-game settings: how reward, episode end and lives are read from RAM, the
//! minimal action set, the actions played after a reset and how the default game mode
//! is selected. One file per game.

use super::actions::Action;

mod alien;
mod amidar;
mod asterix;
mod battle_zone;
mod berzerk;
mod boxing;
mod breakout;
mod enduro;
mod freeway;
mod frostbite;
mod kangaroo;
mod montezuma_revenge;
mod ms_pacman;
mod pong;
mod qbert;
mod riverraid;
mod road_runner;
mod seaquest;
mod space_invaders;
mod tennis;

/// How a reset selects the game's default mode: optionally some NOOP steps through the
/// sticky-action path, then SELECT held `frames_per_press` frames (plus one NOOP frame)
/// at a time until `reached` holds for the RAM, then the console's reset switch.
pub struct ModeSelect {
    pub noop_steps_first: usize,
    pub frames_per_press: usize,
    pub reached: fn(&[u8; 128]) -> bool,
}

/// The mutable part of a game's settings, updated after every emulated frame.
pub trait Rules: CloneRules {
    fn reset(&mut self);
    fn step(&mut self, ram: &[u8; 128]);
    fn reward(&self) -> i32;
    fn terminal(&self) -> bool;
    fn lives(&self) -> i32;
    /// Called once the default mode is reached, before the console reset that follows.
    fn after_mode_selected(&mut self, _ram: &[u8; 128]) {}
}

/// Boxed rules clone through this (every game's rules are `Clone`).
pub trait CloneRules {
    fn clone_rules(&self) -> Box<dyn Rules>;
}

impl<T: Rules + Clone + 'static> CloneRules for T {
    fn clone_rules(&self) -> Box<dyn Rules> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn Rules> {
    fn clone(&self) -> Self {
        self.clone_rules()
    }
}

/// A supported game.
pub struct Game {
    /// ALE's ROM id ("breakout", "space_invaders").
    pub id: &'static str,
    /// The Gymnasium name ("Breakout", "SpaceInvaders"), as in `ALE/Breakout-v5`.
    pub name: &'static str,
    /// MD5 of the ROM image ALE supports.
    pub md5: &'static str,
    pub minimal_actions: &'static [Action],
    pub starting_actions: &'static [Action],
    /// `None`: the game has a single mode and nothing is pressed.
    pub mode_select: Option<ModeSelect>,
    pub new_rules: fn() -> Box<dyn Rules>,
}

/// A game is its ROM: ALE supports exactly one image per game.
impl PartialEq for Game {
    fn eq(&self, other: &Self) -> bool {
        self.md5 == other.md5
    }
}

impl Eq for Game {}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Game({}, MD5 {})", self.name, self.md5)
    }
}

pub static GAMES: [&Game; 20] = [
    &alien::GAME,
    &amidar::GAME,
    &asterix::GAME,
    &battle_zone::GAME,
    &berzerk::GAME,
    &boxing::GAME,
    &breakout::GAME,
    &enduro::GAME,
    &freeway::GAME,
    &frostbite::GAME,
    &kangaroo::GAME,
    &montezuma_revenge::GAME,
    &ms_pacman::GAME,
    &pong::GAME,
    &qbert::GAME,
    &riverraid::GAME,
    &road_runner::GAME,
    &seaquest::GAME,
    &space_invaders::GAME,
    &tennis::GAME,
];

/// A RAM byte by the address ALE's settings use (masked into the 128 bytes).
#[inline]
pub fn ram_at(ram: &[u8; 128], addr: u8) -> i32 {
    ram[(addr & 0x7f) as usize] as i32
}

/// Two BCD digits of one byte as a number 0..165.
fn bcd_pair(v: i32) -> i32 {
    let right = v & 15;
    let left = (v - right) >> 4;
    10 * left + right
}

/// A BCD score of one, two or three bytes, least significant byte first.
pub fn decimal_score(ram: &[u8; 128], bytes: &[u8]) -> i32 {
    let mut score = 0;
    let mut scale = 1;
    for &addr in bytes {
        score += scale * bcd_pair(ram_at(ram, addr));
        scale *= 100;
    }
    score
}

use super::actions::ALL;

/// The full joystick set (the minimal set of games that use every action).
pub const FULL: &[Action] = &ALL;
