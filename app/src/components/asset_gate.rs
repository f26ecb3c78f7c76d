//! The gate in front of a page that plays a task: it waits for what the task's
//! environment needs from outside the app, an Atari ROM the person supplies, the set of
//! pictures a VisGym image puzzle plays (a bundled set is fetched by itself) or MuJoCo for
//! the Fetch tasks (fetched by itself).

use leptos::prelude::*;
use serde_json::{Map, Value};

use crate::components::physics::NeedsPhysics;
use crate::components::pictures::NeedsPictures;
use crate::components::rom_drop::NeedsRom;
use crate::pages::home::set_title;

/// Shows `children` once the environment `env_id` with `kwargs` has its ROM, its
/// pictures and its physics engine in this tab (at once for one that needs none); until
/// then [`NeedsRom`], [`NeedsPhysics`] or [`NeedsPictures`], with the page's title set. The children are made anew when either
/// arrives, so the page starts its environment then.
#[component]
pub fn AssetGate(
    env_id: String,
    kwargs: Map<String, Value>,
    children: ChildrenFn,
) -> impl IntoView {
    let arrived = RwSignal::new(0u32);
    let on_rom = Callback::new(move |_| arrived.update(|n| *n += 1));
    let on_pictures = Callback::new(move |()| arrived.update(|n| *n += 1));
    let on_physics = Callback::new(move |()| arrived.update(|n| *n += 1));
    move || {
        arrived.track();
        if let Some(game) = crate::rom_shelf::missing_rom(&env_id) {
            set_title("ROM needed · Playbench");
            return view! { <NeedsRom env_id=env_id.clone() game=game on_added=on_rom /> }
                .into_any();
        }
        if crate::physics::needs_loading(&env_id) {
            set_title("Loading MuJoCo · Playbench");
            return view! { <NeedsPhysics on_loaded=on_physics /> }.into_any();
        }
        match crate::image_sets::missing_set(&env_id, &kwargs) {
            Some(name) => {
                set_title("Pictures needed · Playbench");
                view! { <NeedsPictures name=name on_loaded=on_pictures /> }.into_any()
            }
            None => children().into_any(),
        }
    }
}
