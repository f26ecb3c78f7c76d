//! Which environments need MuJoCo loaded into the tab first (VisGym's Fetch tasks), in
//! plain code the native tests reach; the loading itself is `browser::mujoco`.

/// Whether `env_id` runs MuJoCo and this tab (thread) has no physics host yet.
pub fn needs_loading(env_id: &str) -> bool {
    envs::visgym::runs_physics(env_id) && !envs::visgym::fetch::host::installed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_fetch_tasks_wait_for_mujoco() {
        assert!(needs_loading("fetch_reach/easy") && needs_loading("fetch_pick_and_place/hard"));
        assert!(!needs_loading("maze_2d/easy") && !needs_loading("jigsaw/easy"));
        assert!(!needs_loading("CartPole-v1"));
    }
}
