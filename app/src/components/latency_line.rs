//! A real-time episode's latency mode and thinking-time distribution
//! (`runner::latency_view`), beside its score on `/run` and `/episode`.

use leptos::prelude::*;

use crate::runner::latency_view::LatencyView;

/// The two lines of `view`; `testid` prefixes their test ids (`run-latency-mode`,
/// `run-latency`).
#[component]
pub fn LatencyLine(view: LatencyView, testid: &'static str) -> impl IntoView {
    view! {
        <div class="latency-line" role="group" aria-label="Thinking time as game time">
            <p data-testid=format!("{testid}-mode")>{view.mode}</p>
            <p data-testid=testid>{view.distribution}</p>
        </div>
    }
}
