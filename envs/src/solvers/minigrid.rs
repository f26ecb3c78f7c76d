//! Placeholder until the minigrid oracle lands.

pub(super) fn solver(_: &dyn crate::Env, _: super::Control) -> Option<Box<dyn super::Solver>> {
    None
}

pub(super) fn distance_to_goal(_: &dyn crate::Env) -> Option<u32> {
    None
}
