//! What VisGym's two 1-based ordering puzzles (Zoom-In's views, Video Unshuffle's
//! frames) share: `swap((i, j))`, `reorder([...])` and `stop` with their spaces and
//! interface signatures, the presets and keys people play them with, and drag-to-swap.

use super::signature::{FnSig, Payload};
use super::spaces::ArgSpace;
use crate::core::action::ArgKind;
use crate::core::env::KeyBinding;

/// The action functions over `n` slots, in the reference's order.
pub fn functions(n: usize) -> Vec<(&'static str, ArgSpace)> {
    let m = n as i64;
    vec![
        (
            "swap",
            ArgSpace::MultiDiscreteNd {
                nvec: vec![m, m],
                shape: vec![2],
                start: 1,
            },
        ),
        ("reorder", ArgSpace::Permutation { n, start: 1 }),
        ("stop", ArgSpace::text4()),
    ]
}

/// The interface's signatures; `items` names what is ordered ("views", "frames").
pub fn signatures(n: usize, items: &str) -> Vec<FnSig> {
    let m = n as i64;
    vec![
        FnSig::new(
            "swap",
            &format!("Swap the {items} at two 1-based positions"),
            Payload::Tuple,
            &[("i", FnSig::int(1, m)), ("j", FnSig::int(1, m))],
        ),
        FnSig::new(
            "reorder",
            &format!(
                "Rearrange all {items} at once: position k takes the one now at position p[k] (1-based)"
            ),
            Payload::Value,
            &[("order", ArgKind::Permutation { n, base: 1 })],
        ),
        FnSig::stop(),
    ]
}

/// Every swap of two different positions, then stop.
pub fn presets(n: usize) -> Vec<String> {
    let mut p: Vec<String> = (1..=n)
        .flat_map(|a| (a + 1..=n).map(move |b| format!("('swap', ({a}, {b}))")))
        .collect();
    p.push("('stop', 'stop')".to_string());
    p
}

/// Enter plays [`presets`]' stop.
pub fn keymap(n: usize) -> Vec<KeyBinding> {
    vec![KeyBinding::new("Enter", n * n.saturating_sub(1) / 2)]
}

/// Dragging slot `a` (0-based) onto slot `b` swaps the two.
pub fn drag_swap(a: Option<usize>, b: Option<usize>) -> Option<String> {
    let (a, b) = (a?, b?);
    (a != b).then(|| format!("('swap', ({}, {}))", a + 1, b + 1))
}
