//! The controls of a model run over a file's episodes (`/audit`, `/judge`): start
//! (resume, or again once every episode is settled), pause, stop and close, then the
//! progress line, the status and the last endpoint error.

use leptos::prelude::*;

use crate::browser::run_controller::RunController;
use crate::runner::control::RunPhase;

/// How a page names its run: test ids start with `id` (`audit-start`, …).
#[derive(Clone, Copy)]
pub struct RunWords {
    pub id: &'static str,
    /// Start, resume and again labels.
    pub start: &'static str,
    pub resume: &'static str,
    pub again: &'static str,
    /// The close button's test id suffix and label.
    pub close: (&'static str, &'static str),
    /// `episodes audited`.
    pub settled: &'static str,
}

#[component]
pub fn EpisodeRunControls<P, S, C>(
    words: RunWords,
    run: RunController,
    /// Episodes settled and their total (tracked).
    progress: P,
    /// Starts the run; `true` when every episode was settled (the page starts over).
    start: S,
    close: C,
    status: RwSignal<Option<String>>,
    last_error: RwSignal<Option<String>>,
) -> impl IntoView
where
    P: Fn() -> (usize, usize) + Copy + Send + Sync + 'static,
    S: Fn(bool) + Copy + 'static,
    C: Fn() + Copy + 'static,
{
    let id = move |what: &str| format!("{}-{what}", words.id);
    let start_label = move || {
        let (settled, total) = progress();
        if settled == 0 {
            words.start
        } else if settled < total {
            words.resume
        } else {
            words.again
        }
    };
    let start_or_again = move |_| {
        let (settled, total) = progress();
        start(total > 0 && settled == total);
    };
    view! {
        <div class="run-buttons">
            <button type="button" data-testid=id("start") disabled=move || run.is_active() on:click=start_or_again>
                {start_label}
            </button>
            <button
                type="button"
                class="secondary"
                data-testid=id("pause")
                disabled=move || !run.is_active()
                on:click=move |_| run.toggle_pause()
            >
                {move || if run.phase() == RunPhase::Paused { "Continue" } else { "Pause" }}
            </button>
            <button
                type="button"
                class="secondary"
                data-testid=id("stop")
                disabled=move || !run.is_active()
                on:click=move |_| run.stop()
            >
                "Stop"
            </button>
            <button
                type="button"
                class="secondary"
                data-testid=id(words.close.0)
                disabled=move || run.is_active()
                on:click=move |_| close()
            >
                {words.close.1}
            </button>
        </div>
        <p data-testid=id("progress") aria-live="polite">
            {move || {
                let (settled, total) = progress();
                let phase = match run.phase() {
                    RunPhase::Running => " · running",
                    RunPhase::Paused => " · paused",
                    RunPhase::Stopped => " · stopped",
                    RunPhase::Finished => " · finished",
                    RunPhase::Idle => "",
                };
                format!("{settled} of {total} {}{phase}", words.settled)
            }}
        </p>
        {move || status.get().map(|s| view! { <p class="muted" data-testid=id("status")>{s}</p> })}
        {move || {
            last_error
                .get()
                .map(|e| {
                    view! {
                        <p class="notice" data-testid=id("last-error")>
                            {format!("Last endpoint error: {e}")}
                        </p>
                    }
                })
        }}
    }
}
