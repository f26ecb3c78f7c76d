//! The gate of VisGym's Fetch tasks: MuJoCo's WebAssembly module and the robot's model
//! files load into the tab the first time one opens (`browser::mujoco`).

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::components::error_box::ErrorBox;

/// Loads MuJoCo into this tab and then calls `on_loaded`; says how it goes.
#[component]
pub fn NeedsPhysics(on_loaded: Callback<()>) -> impl IntoView {
    let failed = RwSignal::new(None::<String>);
    let load = move || {
        failed.set(None);
        spawn_local(async move {
            match crate::browser::mujoco::load().await {
                Ok(()) => on_loaded.run(()),
                Err(e) => failed.set(Some(e)),
            }
        });
    };
    load();
    move || {
        match failed.get() {
        None => view! {
            <p class="hint" role="status" data-testid="physics-loading">
                "Loading MuJoCo, the physics engine of the robot tasks (3 MB once per tab), and the robot's model…"
            </p>
        }
        .into_any(),
        Some(error) => view! {
            <ErrorBox
                title="MuJoCo could not be loaded".to_string()
                message=format!("{error}. Check the connection and try again.")
            >
                <p>
                    <button type="button" data-testid="physics-retry" on:click=move |_| load()>
                        "Try again"
                    </button>
                </p>
            </ErrorBox>
        }
        .into_any(),
    }
    }
}
