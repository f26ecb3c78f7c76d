//! A task's demonstrations for a study participant, as the agent is shown them: one
//! player per clip (the task page's), the keyboard driving the last one used.

use bench::Task;
use leptos::prelude::*;

use crate::components::demo_clip::DemoPlayer;
use crate::demo_player::ClipFrames;

/// The largest size (CSS pixels) a demo frame is enlarged to.
const DEMO_MAX: u32 = 360;

#[component]
pub fn StudyDemos(task: &'static Task) -> impl IntoView {
    let active = RwSignal::new(0usize);
    let clips = task
        .demos
        .iter()
        .enumerate()
        .map(|(i, clip)| {
            let frames = ClipFrames::new(task, clip).map_err(|e| e.to_string());
            view! { <DemoPlayer clip=frames index=i active=active max_size=DEMO_MAX /> }
        })
        .collect_view();
    view! { <div class="study-demos demo-list">{clips}</div> }
}
