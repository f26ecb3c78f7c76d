//! The gate in front of every page that reads a suite: the first such page fetches the
//! built-in suites' files (`crate::browser::suite_files`), saying how far it has got;
//! a failure is said with the file and a way to try again. Pages that only play an
//! environment never wait for them.

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::components::error_box::ErrorBox;

/// Where the fetching stands; one per app (a context), so pages share one download.
#[derive(Clone, Debug, PartialEq)]
enum Load {
    /// Nothing asked yet, or files still missing.
    Idle,
    Fetching {
        done: usize,
        total: usize,
    },
    Ready,
    Failed(String),
}

/// The app-wide fetching state ([`provide`] puts it in context).
#[derive(Clone, Copy)]
pub struct SuitesLoad(RwSignal<Load>);

impl SuitesLoad {
    /// Ready at once when nothing is missing (the files are compiled in natively).
    fn new() -> Self {
        let ready = bench::suites::missing().is_empty();
        Self(RwSignal::new(if ready { Load::Ready } else { Load::Idle }))
    }

    /// Starts the download unless it is running or done.
    fn start(self) {
        if !matches!(self.0.get_untracked(), Load::Idle | Load::Failed(_)) {
            return;
        }
        let total = bench::suites::missing().len();
        self.0.set(Load::Fetching { done: 0, total });
        spawn_local(async move {
            let progress = move |done, total| self.0.set(Load::Fetching { done, total });
            let outcome = crate::browser::suite_files::fetch_missing(progress).await;
            self.0.set(match outcome {
                Ok(()) => Load::Ready,
                Err(e) => Load::Failed(e),
            });
        });
    }
}

/// Puts the fetching state in context (the app shell, once).
pub fn provide() {
    provide_context(SuitesLoad::new());
}

/// Shows `children` once every built-in suite is in place.
#[component]
pub fn NeedsSuites(children: ChildrenFn) -> impl IntoView {
    let load = expect_context::<SuitesLoad>();
    load.start();
    move || match load.0.get() {
        Load::Ready => children().into_any(),
        state @ (Load::Idle | Load::Fetching { .. }) => {
            let text = match state {
                Load::Fetching { done, total } if total > 0 => {
                    format!("Loading the benchmark's suites… ({done} of {total})")
                }
                _ => "Loading the benchmark's suites…".to_string(),
            };
            view! { <p class="hint" role="status" data-testid="suites-loading">{text}</p> }
                .into_any()
        }
        Load::Failed(error) => view! {
            <ErrorBox
                title="The suites could not be loaded".to_string()
                message=format!("{error}. Check the connection and try again.")
            >
                <p>
                    <button type="button" data-testid="suites-retry" on:click=move |_| load.start()>
                        "Try again"
                    </button>
                </p>
            </ErrorBox>
        }
        .into_any(),
    }
}
