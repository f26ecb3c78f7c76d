//! What a gate shows while it loads something into the tab (MuJoCo, a bundled set of
//! pictures): a status line, and on failure the error with a button to try again.

use std::future::Future;

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::components::error_box::ErrorBox;

/// Starts `load` now and again on each retry, calling `on_loaded` when it succeeds; shows
/// `what` meanwhile (test id `{testid}-loading`) and on failure `title` with the error and
/// a "Try again" button (`{testid}-retry`).
pub fn loading<L, F>(
    what: String,
    testid: &'static str,
    title: &'static str,
    load: L,
    on_loaded: Callback<()>,
) -> impl IntoView
where
    L: Fn() -> F + Copy + Send + Sync + 'static,
    F: Future<Output = Result<(), String>> + 'static,
{
    let failed = RwSignal::new(None::<String>);
    let start = move || {
        failed.set(None);
        spawn_local(async move {
            match load().await {
                Ok(()) => on_loaded.run(()),
                Err(e) => failed.set(Some(e)),
            }
        });
    };
    start();
    move || match failed.get() {
        None => view! {
            <p class="hint" role="status" data-testid=format!("{testid}-loading")>
                {what.clone()}
            </p>
        }
        .into_any(),
        Some(error) => view! {
            <ErrorBox
                title=title.to_string()
                message=format!("{error}. Check the connection and try again.")
            >
                <p>
                    <button
                        type="button"
                        data-testid=format!("{testid}-retry")
                        on:click=move |_| start()
                    >
                        "Try again"
                    </button>
                </p>
            </ErrorBox>
        }
        .into_any(),
    }
}
