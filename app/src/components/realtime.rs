//! Real-time play on a page: one timer that feeds the session's clock
//! (`crate::realtime`) while the game is real-time, and the bar with the virtual time
//! and the pause button (P).

use gloo_timers::callback::Interval;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::realtime::virtual_time_text;

/// While the calling component lives, calls `tick` every `poll` milliseconds whenever
/// `poll` is `Some` (a real-time game); a change of rate restarts the timer.
pub fn realtime_timer(poll: Memo<Option<u32>>, tick: impl Fn() + Clone + 'static) {
    let timer = StoredValue::new_local(None::<Interval>);
    Effect::new(move |_| {
        let ms = poll.get();
        // Dropping an interval cancels it.
        timer.set_value(ms.map(|ms| Interval::new(ms, tick.clone())));
    });
    on_cleanup(move || timer.set_value(None));
}

/// The virtual time and the pause button of a real-time game.
#[component]
pub fn RealtimeBar(
    /// Virtual milliseconds played.
    virtual_ms: Signal<u64>,
    paused: Signal<bool>,
    /// Whether the episode is over (the button is then disabled).
    over: Signal<bool>,
    on_toggle: Callback<()>,
) -> impl IntoView {
    view! {
        <div class="realtime-bar" role="group" aria-label="Real-time play">
            <p class="realtime-time">
                "Virtual time "
                <strong data-testid="virtual-time">{move || virtual_time_text(virtual_ms.get())}</strong>
            </p>
            <button
                type="button"
                class="secondary"
                data-testid="pause"
                aria-pressed=move || paused.get().to_string()
                disabled=move || over.get()
                title="Pause or resume (P)"
                on:click=move |ev| {
                    on_toggle.run(());
                    // A pointer click hands the keys back to the game (a focused button
                    // would take Space); keyboard activation (detail 0) keeps the focus.
                    if ev.detail() > 0 {
                        if let Some(button) = ev
                            .current_target()
                            .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
                        {
                            let _ = button.blur();
                        }
                    }
                }
            >
                {move || if paused.get() { "▶ Resume (P)" } else { "❚❚ Pause (P)" }}
            </button>
            <p class="hint" data-testid="realtime-note">
                {move || {
                    if over.get() {
                        "The episode is over."
                    } else if paused.get() {
                        "Paused: the game waits. An action key starts it again."
                    } else {
                        "The game moves on its own."
                    }
                }}
            </p>
        </div>
    }
}
