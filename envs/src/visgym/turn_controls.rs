//! What people turn the two 3-D rotation puzzles with (Cube, Mental Rotation 3D): presets
//! of 15° and 90° each way in each slot of the `rotate` payload and stop, keys for them,
//! and a drag across and down the frame that turns by half a degree per pixel. The
//! puzzles differ in which way the second slot tilts the picture and how they round.

use super::python::format::float_repr;
use super::signature::{FnSig, Payload};
use super::spaces::ArgSpace;
use crate::core::action::ArgKind;
use crate::core::env::KeyBinding;
use crate::core::input::Gesture;

/// `rotate`: three angles in [−180, 180] (float32 bounds), and `stop`.
pub fn functions() -> Vec<(&'static str, ArgSpace)> {
    vec![
        (
            "rotate",
            ArgSpace::Box {
                low: -180.0,
                high: 180.0,
                shape: vec![3],
            },
        ),
        ("stop", ArgSpace::text4()),
    ]
}

/// The typed form of [`functions`], `rotate` described for people by `what`.
pub fn signatures(what: &'static str) -> Vec<FnSig> {
    vec![
        FnSig::new(
            "rotate",
            what,
            Payload::Value,
            &[(
                "angles",
                ArgKind::Floats {
                    len: 3,
                    min: -180.0,
                    max: 180.0,
                },
            )],
        ),
        FnSig::stop(),
    ]
}

/// `('rotate', [a, b, c])` with Python's float reprs.
pub fn rotate_action(p: [f64; 3]) -> String {
    format!(
        "('rotate', [{}, {}, {}])",
        float_repr(p[0]),
        float_repr(p[1]),
        float_repr(p[2])
    )
}

/// ±15° and ±90° in each slot (presets 0-11), then stop (12).
pub fn presets() -> Vec<String> {
    let mut p = Vec::new();
    for slot in 0..3 {
        for angle in [15.0, -15.0, 90.0, -90.0] {
            let mut v = [0.0f64; 3];
            v[slot] = angle;
            p.push(rotate_action(v));
        }
    }
    p.push("('stop', 'stop')".to_string());
    p
}

/// Arrows turn by 15° and a/d, w/s by 90° in the first two slots, e and q by 15° in the
/// third; Enter stops. `up_turns_second_slot_up`: whether ArrowUp (and w) adds to the
/// second slot or takes from it, so that the key moves the front of the object the way
/// its arrow points in that puzzle's picture.
pub fn keymap(up_turns_second_slot_up: bool) -> Vec<KeyBinding> {
    let (up, down) = if up_turns_second_slot_up {
        (("ArrowUp", "w"), ("ArrowDown", "s"))
    } else {
        (("ArrowDown", "s"), ("ArrowUp", "w"))
    };
    vec![
        KeyBinding::new("ArrowRight", 0),
        KeyBinding::new("ArrowLeft", 1),
        KeyBinding::new("d", 2),
        KeyBinding::new("a", 3),
        KeyBinding::new(up.0, 4),
        KeyBinding::new(down.0, 5),
        KeyBinding::new(up.1, 6),
        KeyBinding::new(down.1, 7),
        KeyBinding::new("e", 8),
        KeyBinding::new("q", 9),
        KeyBinding::new("Enter", 12),
    ]
}

/// A drag's turn: half a degree per pixel across (first slot) and down (second slot),
/// each within ±180° and rounded to 0.1° by `round`; nothing for a drag that rounds to
/// no turn.
pub fn drag_turn(gesture: Gesture, round: fn(f64) -> f64) -> Option<String> {
    let Gesture::Drag { from, to } = gesture else {
        return None;
    };
    let turn = |pixels: f64| round((pixels * 0.5).clamp(-180.0, 180.0)) + 0.0;
    let (a, b) = (turn(to.0 - from.0), turn(to.1 - from.1));
    (a != 0.0 || b != 0.0).then(|| rotate_action([a, b, 0.0]))
}
