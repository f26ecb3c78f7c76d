//! The gate of VisGym's Fetch tasks: MuJoCo's WebAssembly module and the robot's model
//! files load into the tab the first time one opens (`browser::mujoco`).

use leptos::prelude::*;

use crate::components::loading::loading;

/// Loads MuJoCo into this tab and then calls `on_loaded`; says how it goes.
#[component]
pub fn NeedsPhysics(on_loaded: Callback<()>) -> impl IntoView {
    loading(
        "Loading MuJoCo, the physics engine of the robot tasks (3 MB once per tab), and the \
         robot's model…"
            .to_string(),
        "physics",
        "MuJoCo could not be loaded",
        crate::browser::mujoco::load,
        on_loaded,
    )
}
