//! A task's demonstrations for a study participant: each clip with play/pause,
//! step and a frame counter, as the agent is shown them.

use std::time::Duration;

use envs::tasks::Task;
use leptos::prelude::*;

use crate::components::frame_canvas::{draw_frame, report};
use crate::demo_player::{ClipFrames, Player};
use crate::play_state::display_scale;

/// The largest size (CSS pixels) a demo frame is enlarged to.
const DEMO_MAX: u32 = 360;
/// How often a playing demo checks the clock.
const TICK: Duration = Duration::from_millis(40);

#[component]
pub fn StudyDemos(task: &'static Task) -> impl IntoView {
    let clips = task
        .demos
        .iter()
        .enumerate()
        .map(|(i, clip)| match ClipFrames::new(task, clip) {
            Ok(frames) => view! { <StudyClip frames=frames index=i /> }.into_any(),
            Err(e) => view! {
                <p class="field-error" role="alert">
                    {format!("Demo {} could not be replayed: {e}", i + 1)}
                </p>
            }
            .into_any(),
        })
        .collect_view();
    view! { <div class="study-demos">{clips}</div> }
}

#[component]
fn StudyClip(frames: ClipFrames, index: usize) -> impl IntoView {
    let len = frames.len();
    let (w, h) = frames.size();
    let scale = display_scale(w, h, DEMO_MAX);
    let captions: Vec<String> = (0..len)
        .map(|i| frames.caption(i).unwrap_or_default().to_string())
        .collect();
    let heading = format!("Demo {}: {}", index + 1, frames.label());
    let frames = StoredValue::new(frames);
    let player = RwSignal::new(Player::new(len));

    let last = StoredValue::new(None::<f64>);
    let timer = set_interval_with_handle(
        move || {
            let now = js_sys::Date::now();
            let dt = last.get_value().map_or(0.0, |t| now - t);
            last.set_value(Some(now));
            if player.with_untracked(Player::playing) {
                player.maybe_update(|p| p.tick(dt));
            }
        },
        TICK,
    )
    .ok();
    on_cleanup(move || {
        if let Some(t) = timer {
            t.clear();
        }
    });

    let canvas = NodeRef::<leptos::html::Canvas>::new();
    Effect::new(move |_| {
        let pos = player.with(Player::pos);
        if let Some(canvas) = canvas.get() {
            frames.update_value(|f| {
                if let Some(frame) = f.frame(pos) {
                    report(draw_frame(&canvas, frame));
                }
            });
        }
    });
    let caption = move || {
        captions
            .get(player.with(Player::pos))
            .cloned()
            .unwrap_or_default()
    };
    let playing = move || player.with(Player::playing);
    let class = if scale > 1 {
        "frame pixelated"
    } else {
        "frame"
    };
    let aria = format!("{heading}: the captioned frame");
    view! {
        <figure class="study-demo" data-testid="study-demo">
            <figcaption><h3>{heading}</h3></figcaption>
            <canvas
                node_ref=canvas
                class=class
                width=w
                height=h
                style:width=format!("{}px", w * scale)
                role="img"
                aria-label=aria
            ></canvas>
            <p class="demo-caption" aria-live="polite">{caption}</p>
            <div class="demo-controls" role="group" aria-label="Playback">
                <button
                    type="button"
                    class="secondary icon"
                    aria-label="Step back"
                    on:click=move |_| player.update(Player::step_back)
                >
                    "◀"
                </button>
                <button
                    type="button"
                    class="play-button"
                    aria-pressed=move || playing().to_string()
                    on:click=move |_| player.update(Player::toggle)
                >
                    {move || if playing() { "❚❚ Pause" } else { "▶ Play" }}
                </button>
                <button
                    type="button"
                    class="secondary icon"
                    aria-label="Step forward"
                    on:click=move |_| player.update(Player::step_forward)
                >
                    "▶"
                </button>
                <span class="demo-counter">{move || player.with(Player::counter_text)}</span>
            </div>
        </figure>
    }
}
