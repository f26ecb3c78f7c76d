//! ALE's joystick actions (player A): indices 0..17 and their names.

pub type Action = u8;

pub const NOOP: Action = 0;
pub const FIRE: Action = 1;
pub const UP: Action = 2;
pub const RIGHT: Action = 3;
pub const LEFT: Action = 4;
pub const DOWN: Action = 5;
pub const UPRIGHT: Action = 6;
pub const UPLEFT: Action = 7;
pub const DOWNRIGHT: Action = 8;
pub const DOWNLEFT: Action = 9;
pub const UPFIRE: Action = 10;
pub const RIGHTFIRE: Action = 11;
pub const LEFTFIRE: Action = 12;
pub const DOWNFIRE: Action = 13;
pub const UPRIGHTFIRE: Action = 14;
pub const UPLEFTFIRE: Action = 15;
pub const DOWNRIGHTFIRE: Action = 16;
pub const DOWNLEFTFIRE: Action = 17;
/// Player B's no-op (ALE numbers player B's actions 18..35).
pub const PLAYER_B_NOOP: Action = 18;
/// The console's reset switch, which ALE presses itself during a reset.
pub const RESET: Action = 40;

/// All 18 player-A actions in ALE's order (the full action space).
pub const ALL: [Action; 18] = [
    NOOP,
    FIRE,
    UP,
    RIGHT,
    LEFT,
    DOWN,
    UPRIGHT,
    UPLEFT,
    DOWNRIGHT,
    DOWNLEFT,
    UPFIRE,
    RIGHTFIRE,
    LEFTFIRE,
    DOWNFIRE,
    UPRIGHTFIRE,
    UPLEFTFIRE,
    DOWNRIGHTFIRE,
    DOWNLEFTFIRE,
];

const NAMES: [&str; 18] = [
    "NOOP",
    "FIRE",
    "UP",
    "RIGHT",
    "LEFT",
    "DOWN",
    "UPRIGHT",
    "UPLEFT",
    "DOWNRIGHT",
    "DOWNLEFT",
    "UPFIRE",
    "RIGHTFIRE",
    "LEFTFIRE",
    "DOWNFIRE",
    "UPRIGHTFIRE",
    "UPLEFTFIRE",
    "DOWNRIGHTFIRE",
    "DOWNLEFTFIRE",
];

/// ALE's name of a player-A action ("NOOP", "UPRIGHTFIRE", ...).
pub fn name(action: Action) -> &'static str {
    NAMES.get(action as usize).copied().unwrap_or("UNKNOWN")
}

/// Joystick directions and fire of an action (player A or B numbering):
/// [up, down, left, right, fire].
pub fn joystick(action: Action) -> [bool; 5] {
    let a = if (PLAYER_B_NOOP..PLAYER_B_NOOP + 18).contains(&action) {
        action - PLAYER_B_NOOP
    } else {
        action
    };
    let n = name(a);
    if a > DOWNLEFTFIRE {
        return [false; 5];
    }
    [
        n.contains("UP"),
        n.contains("DOWN"),
        n.contains("LEFT"),
        n.contains("RIGHT"),
        n.contains("FIRE"),
    ]
}
