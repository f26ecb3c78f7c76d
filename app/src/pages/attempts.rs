//! `/attempts#a=pa1.…` (or a dropped or pasted run of attempts): a reflect-and-retry
//! run, verified (`bench::attempts::verify_attempts`: every attempt re-simulated, every
//! carried experience re-checked), with per attempt its score, what it carried in, its
//! replay and its reflection turns (`docs/gameverse.md`, "Reflect and retry").

use bench::attempts::AttemptRun;
use leptos::prelude::*;
use leptos_router::hooks::use_location;

use crate::browser::files::read_text;
use crate::browser::storage::local;
use crate::components::reflection_turns::ReflectionTurns;
use crate::pages::home::set_title;
use crate::reflector::view::{attempt_views, read_attempts, summary, verdict, AttemptView};

#[component]
pub fn AttemptsPage() -> impl IntoView {
    set_title("Run of attempts · Playbench");
    let location = use_location();
    let opened = RwSignal::new(None::<Result<AttemptRun, String>>);
    let pasted = RwSignal::new(String::new());
    let dragging = RwSignal::new(false);
    Effect::new(move |_| {
        let hash = location.hash.get();
        let hash = hash.trim_start_matches('#');
        if !hash.is_empty() {
            opened.set(Some(read_attempts(hash)));
        }
    });
    let read = move |files: web_sys::FileList| {
        if let Some(file) = files.get(0) {
            let name = file.name();
            leptos::task::spawn_local(async move {
                opened.set(Some(
                    read_text(file)
                        .await
                        .and_then(|t| read_attempts(&t))
                        .map_err(|e| format!("{name}: {e}")),
                ));
            });
        }
    };
    view! {
        <div class="attempts-page">
            <h1>"Run of attempts"</h1>
            <p class="muted">
                "A reflect-and-retry run: its attempts at one task and the reflections between them. Opening it \
                 re-simulates every attempt and checks that each carried in what the reflection before it wrote."
            </p>
            <div
                class="compare-drop"
                class:dragging=move || dragging.get()
                data-testid="attempts-drop"
                on:dragover=move |ev: web_sys::DragEvent| { ev.prevent_default(); dragging.set(true); }
                on:dragleave=move |_| dragging.set(false)
                on:drop=move |ev: web_sys::DragEvent| {
                    ev.prevent_default();
                    dragging.set(false);
                    if let Some(files) = ev.data_transfer().and_then(|d| d.files()) {
                        read(files);
                    }
                }
            >
                <label for="attempts-file">"A run of attempts' file (JSON): choose it, or drop it here"</label>
                <input
                    id="attempts-file"
                    type="file"
                    accept=".json,application/json"
                    data-testid="attempts-file"
                    on:change=move |ev| {
                        let input: web_sys::HtmlInputElement = event_target(&ev);
                        if let Some(files) = input.files() {
                            read(files);
                        }
                        input.set_value("");
                    }
                />
                <label for="attempts-paste">"Or paste its link"</label>
                <div class="link-row">
                <input
                    id="attempts-paste"
                    type="text"
                    data-testid="attempts-paste"
                    prop:value=move || pasted.get()
                    on:input=move |ev| pasted.set(event_target_value(&ev))
                    on:keydown=move |ev: web_sys::KeyboardEvent| {
                        if ev.key() == "Enter" {
                            opened.set(Some(read_attempts(&pasted.get_untracked())));
                        }
                    }
                />
                <button
                    type="button"
                    class="secondary small"
                    data-testid="attempts-open"
                    on:click=move |_| opened.set(Some(read_attempts(&pasted.get_untracked())))
                >
                    "Open"
                </button>
                </div>
            </div>
            {move || match opened.get() {
                None => view! { <p class="notice" data-testid="attempts-empty">"No run of attempts opened yet."</p> }.into_any(),
                Some(Err(e)) => view! { <p class="field-error" role="alert" data-testid="attempts-error">{e}</p> }.into_any(),
                Some(Ok(run)) => view! { <RunView run=run /> }.into_any(),
            }}
        </div>
    }
}

#[component]
fn RunView(run: AttemptRun) -> impl IntoView {
    let (verified, text) = verdict(&run);
    let about = summary(&run);
    let attempts = attempt_views(&run)
        .into_iter()
        .map(|a| view! { <AttemptItem attempt=a /> })
        .collect_view();
    view! {
        <section aria-labelledby="attempts-title">
            <h2 id="attempts-title" data-testid="attempts-summary">{about}</h2>
            <p
                class=if verified { "verdict verified" } else { "verdict diverged" }
                role="status"
                data-testid="attempts-verdict"
                data-verified=verified.to_string()
            >
                {text}
            </p>
            <ol class="attempts-list">{attempts}</ol>
        </section>
    }
}

#[component]
fn AttemptItem(attempt: AttemptView) -> impl IntoView {
    let replay = match attempt
        .replay
        .as_ref()
        .map_err(String::clone)
        .and_then(|l| {
            l.prepare(&local())
                .map(str::to_string)
                .map_err(|e| e.to_string())
        }) {
        Ok(href) => {
            view! { <a href=href data-testid="attempt-replay">"Replay this attempt"</a> }.into_any()
        }
        Err(e) => view! { <span class="field-error">{format!("No replay: {e}")}</span> }.into_any(),
    };
    let number = attempt.number;
    view! {
        <li class="attempt" data-testid="attempt" data-passed=attempt.passed.to_string()>
            <h3>{format!("Attempt {number}")}</h3>
            <p data-testid="attempt-outcome">{attempt.outcome}" · "{replay}</p>
            {if attempt.carried_in.is_empty() {
                view! { <p class="muted" data-testid="attempt-carried">"Carried in no experience."</p> }.into_any()
            } else {
                view! {
                    <p>"Carried in this experience (in its system prompt):"</p>
                    <pre class="turn-text" data-testid="attempt-carried">{attempt.carried_in}</pre>
                }.into_any()
            }}
            {(!attempt.turns.is_empty()).then(|| view! {
                <h4>{format!("Reflection after attempt {number}")}</h4>
                <ReflectionTurns turns=attempt.turns />
            })}
        </li>
    }
}
