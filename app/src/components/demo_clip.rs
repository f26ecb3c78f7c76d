//! A demonstration clip's player: the captioned frames with play/pause, step, scrub
//! and speed, driven by the keyboard when it is the page's active player (Space, ←/→,
//! Home/End). The logic is `crate::demo_player::Player`.

use std::time::Duration;

use leptos::prelude::*;

use crate::components::frame_view::{FrameSource, FrameView};
use crate::components::keys::on_page_keys;
use crate::demo_player::{ClipFrames, Player, Speed};

/// How often a playing demo checks the clock.
const TICK: Duration = Duration::from_millis(40);

/// One clip: the captioned frames with play/pause, step, scrub and speed.
#[component]
pub fn DemoPlayer(
    clip: Result<ClipFrames, String>,
    index: usize,
    /// Which player the keyboard drives (shared by a page's players).
    active: RwSignal<usize>,
    /// The largest size (CSS pixels) a frame is enlarged to.
    max_size: u32,
) -> impl IntoView {
    let frames = match clip {
        Ok(f) => f,
        Err(e) => {
            return view! {
                <figure class="demo demo-broken" data-testid="demo">
                    <p class="field-error" role="alert">
                        {format!("Demo {} could not be replayed: {e}", index + 1)}
                    </p>
                </figure>
            }
            .into_any();
        }
    };
    let len = frames.len();
    let captions: Vec<String> = (0..len)
        .map(|i| frames.caption(i).unwrap_or_default().to_string())
        .collect();
    let heading = format!("Demo {}: {}", index + 1, frames.label());
    let about = format!(
        "{} · ends: {}",
        match frames.decisions() {
            1 => "1 decision".to_string(),
            n => format!("{n} decisions"),
        },
        frames.outcome().label()
    );
    let frames = StoredValue::new(frames);
    let player = RwSignal::new(Player::new(len));

    // The clock: while playing, the elapsed time since the last check moves the player.
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

    // Keys drive the active player (Space play/pause, ←/→ step, Home/End).
    on_page_keys(move |key| {
        let mut handled = false;
        if active.get_untracked() == index {
            player.update(|p| handled = p.press_key(key));
        }
        handled
    });

    let frame = FrameSource::new(move |draw| {
        let pos = player.with(Player::pos);
        frames.update_value(|f| {
            if let Some(frame) = f.frame(pos) {
                draw(frame);
            }
        });
    });

    let caption_list = captions.clone();
    let caption = move || {
        caption_list
            .get(player.with(Player::pos))
            .cloned()
            .unwrap_or_default()
    };
    let counter = move || player.with(Player::counter_text);
    let playing = move || player.with(Player::playing);
    let speed_id = format!("demo-speed-{index}");
    let live = move || if playing() { "off" } else { "polite" };
    let aria = format!("{heading}: the captioned frame");

    view! {
        <figure
            class="demo"
            data-testid="demo"
            data-demo-index=index
            class:active=move || active.get() == index
            on:pointerdown=move |_| active.set(index)
            on:focusin=move |_| active.set(index)
        >
            <figcaption>
                <h3>{heading}</h3>
                <span class="muted">{about}</span>
            </figcaption>
            <FrameView frame=frame max_size=max_size label=aria testid="demo-frame" />
            <p class="demo-caption" aria-live=live>
                <span class="sr-only">"Caption: "</span>
                <span data-testid="demo-caption">{caption}</span>
            </p>
            <div class="demo-controls" role="group" aria-label="Playback">
                <button
                    type="button"
                    class="secondary icon"
                    data-testid="demo-back"
                    aria-label="Step back"
                    title="Step back (←)"
                    on:click=move |_| player.update(Player::step_back)
                >
                    "◀"
                </button>
                <button
                    type="button"
                    class="play-button"
                    data-testid="demo-play"
                    aria-pressed=move || playing().to_string()
                    title="Play or pause (Space)"
                    on:click=move |_| player.update(Player::toggle)
                >
                    {move || if playing() { "❚❚ Pause" } else { "▶ Play" }}
                </button>
                <button
                    type="button"
                    class="secondary icon"
                    data-testid="demo-forward"
                    aria-label="Step forward"
                    title="Step forward (→)"
                    on:click=move |_| player.update(Player::step_forward)
                >
                    "▶"
                </button>
                <span class="demo-counter" data-testid="demo-counter">{counter}</span>
                <label class="demo-speed" for=speed_id.clone()>"Speed"</label>
                <select
                    id=speed_id
                    data-testid="demo-speed"
                    on:change=move |ev| {
                        if let Some(s) = Speed::parse(&event_target_value(&ev)) {
                            player.update(|p| p.set_speed(s));
                        }
                    }
                >
                    {Speed::ALL
                        .into_iter()
                        .map(|s| {
                            view! {
                                <option value=s.label() prop:selected=move || player.with(Player::speed) == s>
                                    {format!("{} FPS", s.label())}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </div>
            <input
                type="range"
                class="demo-scrub"
                min="0"
                max=len.saturating_sub(1).to_string()
                step="1"
                data-testid="demo-scrub"
                aria-label="Frame"
                aria-valuetext=counter
                prop:value=move || player.with(Player::pos).to_string()
                on:input=move |ev| {
                    if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                        player.update(|p| p.seek(i));
                    }
                }
            />
        </figure>
    }
    .into_any()
}
