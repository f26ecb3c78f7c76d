//! `/reflect?suite=S&task=ID`: GameVerse's reflect-and-retry in the browser
//! (`docs/gameverse.md`, "Reflect and retry"). Choose the endpoint profile (the one of
//! `/run`; attempts play with GameVerse's harness), the condition (the paper's No, Self-F, Self-T, Self, Other), the attempts
//! and, for Other, the experience to import; watch which attempt or reflection stage
//! runs, each attempt's score, each reflection reply as it arrives and the usage; stop
//! at any time. The run is `bench::reflect::ReflectRun`, driven by
//! `browser::drive::converse`, and kept in storage as it goes (`reflector::stored`);
//! when done, its share link (`/attempts#a=pa1.…`) and its file.

use std::cell::RefCell;
use std::rc::Rc;

use bench::attempts::AttemptRun;
use bench::encode::ImageEncoder;
use bench::protocol::session::Protocol;
use bench::reflect::{Condition, ReflectRun};
use bench::share::TaskRef;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::browser::drive::{converse, Ended};
use crate::browser::files::{download, read_text};
use crate::browser::run_controller::RunController;
use crate::browser::storage::local;
use crate::components::error_box::ErrorBox;
use crate::components::reflection_turns::ReflectionTurns;
use crate::components::run_setup::{EndpointChoice, RunSetupState};
use crate::components::share_box::page_origin;
use crate::pages::home::set_title;
use crate::reflector::live::{live_view, LiveView};
use crate::reflector::setup::{condition_choices, config, resolve, ReflectTarget};
use crate::reflector::stored::StoredReflect;
use crate::reflector::view::{attempts_file_name, attempts_href};
use crate::routes::{self, task_href};
use crate::runner::control::RunPhase;
use crate::task_text;

#[component]
pub fn ReflectPage() -> impl IntoView {
    let query = use_query_map();
    let target = Memo::new(move |_| {
        query.with(|q| resolve(q.get_str("suite"), q.get_str("task")).map_err(|e| e.to_string()))
    });
    move || match target.get() {
        Ok(t) => view! { <ReflectTask target=t /> }.into_any(),
        Err(why) => {
            set_title("Cannot reflect · Playbench");
            view! {
                <ErrorBox
                    title="This run cannot start".to_string()
                    message=why
                    back_href=routes::SUITE
                    back_label="Back to the suite"
                />
            }
            .into_any()
        }
    }
}

type Shared = Rc<RefCell<ReflectRun>>;

#[component]
fn ReflectTask(target: ReflectTarget) -> impl IntoView {
    let ReflectTarget { suite, task, game } = target;
    let title = task_text::title(task).to_string();
    set_title(&format!("Reflect and retry: {title} · Playbench"));
    let setup = RunSetupState::load();
    let condition = RwSignal::new(Condition::Both);
    let attempts = RwSignal::new("3".to_string());
    let import = RwSignal::new(String::new());
    let problems = RwSignal::new(None::<String>);
    let save_warning = RwSignal::new(None::<String>);
    let live = RwSignal::new(None::<LiveView>);
    let run = RunController::new();
    let shared = StoredValue::new_local(None::<Shared>);
    let (suite_id, task_id) = (suite.id.clone(), task.id.clone());
    // A run kept from before a reload.
    let stored = StoredReflect::load(&local(), &suite_id, &task_id);
    let result = RwSignal::new(stored);

    let save = {
        let (suite_id, task_id) = (suite_id.clone(), task_id.clone());
        move |finished: bool, doc: &AttemptRun| {
            if doc.attempts.is_empty() {
                return;
            }
            result.set(Some((finished, doc.clone())));
            save_warning.set(
                StoredReflect::new(&suite_id, &task_id, finished, doc)
                    .save(&local())
                    .err()
                    .map(|e| format!("The run will not survive a reload: {e}.")),
            );
        }
    };

    let start = {
        let save = save.clone();
        let game = game.clone();
        move |_| {
            let profile = setup.profiles.with_untracked(|p| p.current().clone());
            // GameVerse's reflect and retry plays with GameVerse's harness (its system
            // prompt has the experience slot), which sends no demonstrations; its
            // reflections send videos to endpoints that take them (`bench::reflect`).
            let mut settings = setup.settings.get_untracked();
            settings.session.protocol = Protocol::Gameverse;
            settings.video_demos = false;
            let settings = settings.resolved(profile.provider);
            let mut found = profile.problems();
            found.extend(settings.problems());
            if !found.is_empty() {
                problems.set(Some(format!(
                    "The endpoint profile needs fixing on /models: {}",
                    found.join(" ")
                )));
                return;
            }
            let config = match config(
                condition.get_untracked(),
                &attempts.get_untracked(),
                &import.get_untracked(),
            ) {
                Ok(c) => c,
                Err(e) => {
                    problems.set(Some(e));
                    return;
                }
            };
            let total = config.attempts;
            let mut reflect = match ReflectRun::new(
                task,
                TaskRef::in_suite(suite, &task.id),
                profile.endpoint(),
                settings.session,
                profile.prices,
                config,
                &game,
            ) {
                Ok(r) => r,
                Err(e) => {
                    problems.set(Some(format!("The run could not start: {e}")));
                    return;
                }
            };
            reflect.set_settings(settings.record(&profile));
            problems.set(None);
            result.set(None);
            StoredReflect::clear(&local());
            let run_ref: Shared = Rc::new(RefCell::new(reflect));
            shared.set_value(Some(run_ref.clone()));
            let key = Some(setup.key.get_untracked()).filter(|k| !k.trim().is_empty());
            let image = settings.image;
            let saved = Rc::new(RefCell::new(0usize));
            let changed = {
                let run_ref = run_ref.clone();
                let save = save.clone();
                move || {
                    let r = run_ref.borrow();
                    let view = live_view(&r, total);
                    // Each finished attempt (with its reflection) is saved at once.
                    let finished_attempts = r.run().attempts.len();
                    if finished_attempts != *saved.borrow() {
                        *saved.borrow_mut() = finished_attempts;
                        save(false, r.run());
                    }
                    live.set(Some(view));
                }
            };
            let ended_ok = Rc::new(RefCell::new(false));
            let done_flag = ended_ok.clone();
            let at_end = run_ref.clone();
            let save_end = save.clone();
            run.start(
                1,
                move |control| {
                    let run_ref = run_ref.clone();
                    let key = key.clone();
                    let base = profile.base_url.clone();
                    let timeout = profile.timeout_s;
                    let changed = changed.clone();
                    let ended_ok = ended_ok.clone();
                    async move {
                        let mut encoder = ImageEncoder::new(image);
                        let ended =
                            converse(run_ref, &mut encoder, key, timeout, base, control, changed)
                                .await;
                        *ended_ok.borrow_mut() = ended == Ended::Finished;
                    }
                },
                move || *done_flag.borrow(),
                move |_| {
                    let r = at_end.borrow();
                    let complete = r.run().attempts.len() == total as usize;
                    save_end(complete, r.run());
                    live.set(Some(live_view(&r, total)));
                },
            );
        }
    };
    let read_import = move |files: web_sys::FileList| {
        if let Some(file) = files.get(0) {
            let name = file.name();
            leptos::task::spawn_local(async move {
                match read_text(file).await {
                    Ok(text) => import.set(text),
                    Err(e) => problems.set(Some(format!("{name}: {e}"))),
                }
            });
        }
    };
    let dragging = RwSignal::new(false);
    let options = condition_choices()
        .into_iter()
        .map(|(c, label)| {
            view! {
                <label class="radio">
                    <input
                        type="radio"
                        name="reflect-condition"
                        value=c.name()
                        data-testid=format!("condition-{}", c.name())
                        prop:checked=move || condition.get() == c
                        on:change=move |_| condition.set(c)
                    />
                    {label}
                </label>
            }
        })
        .collect_view();
    let running = move || run.is_active();
    view! {
            <div class="reflect-page">
                <nav class="crumbs" aria-label="Breadcrumb">
                    <a href=task_href(&suite_id, &task_id)>{format!("{title}: rules and demos")}</a>
                </nav>
                <h1>{format!("Reflect and retry: {title}")}</h1>
                <p class="muted">
                    "GameVerse's reflect-and-retry: the model plays the task; after a failed attempt it watches its failure \
                     (the attempt's frames at 2 fps) and lists what went wrong, then watches the expert tutorial (the task's \
                     oracle demonstration) with that analysis in context and writes its experience (at most 1000 words), \
                     which the next attempt's system prompt carries. Everything sent and received is in the run's record \
                     and its share link."
                </p>
                <code class="task-id">{task_id.clone()}</code>
                <div class="run-columns">
                    <div class="run-form">
                        <EndpointChoice state=setup />
                        <fieldset class="reflect-conditions">
                            <legend>"Condition"</legend>
                            {options}
                        </fieldset>
    <p class="reflect-attempts">
                        <label for="reflect-attempts">"Attempts "</label>
                        <input
                            id="reflect-attempts"
                            type="number"
                            min="1"
                            max="10"
                            data-testid="reflect-attempts"
                            prop:value=move || attempts.get()
                            on:input=move |ev| attempts.set(event_target_value(&ev))
                        />
    " (the paper plays 3)"</p>
                        {move || (condition.get() == Condition::Other).then(|| view! {
                            <div
                                class="compare-drop"
                                class:dragging=move || dragging.get()
                                on:dragover=move |ev: web_sys::DragEvent| { ev.prevent_default(); dragging.set(true); }
                                on:dragleave=move |_| dragging.set(false)
                                on:drop=move |ev: web_sys::DragEvent| {
                                    ev.prevent_default();
                                    dragging.set(false);
                                    if let Some(files) = ev.data_transfer().and_then(|d| d.files()) {
                                        read_import(files);
                                    }
                                }
                            >
                                <label for="reflect-import">
                                    "Another model's experience: paste a run of attempts' link, GameVerse's experience file or plain text, or drop a file here"
                                </label>
                                <textarea
                                    id="reflect-import"
                                    rows="5"
                                    data-testid="reflect-import"
                                    prop:value=move || import.get()
                                    on:input=move |ev| import.set(event_target_value(&ev))
                                ></textarea>
                                <input
                                    type="file"
                                    aria-label="An experience file"
                                    accept=".json,.txt,application/json,text/plain"
                                    data-testid="reflect-import-file"
                                    on:change=move |ev| {
                                        let input: web_sys::HtmlInputElement = event_target(&ev);
                                        if let Some(files) = input.files() {
                                            read_import(files);
                                        }
                                        input.set_value("");
                                    }
                                />
                            </div>
                        })}
                        <div class="form-actions">
                            <button type="button" data-testid="reflect-start" on:click=start disabled=running>
                                {move || if matches!(run.phase(), RunPhase::Finished | RunPhase::Stopped) { "Run again" } else { "Start" }}
                            </button>
                            <button type="button" class="secondary" data-testid="reflect-stop" on:click=move |_| run.stop() disabled=move || !running()>
                                "Stop"
                            </button>
                        </div>
                        {move || problems.get().map(|p| view! { <p class="field-error" role="alert" data-testid="reflect-problems">{p}</p> })}
                        {move || save_warning.get().map(|w| view! { <p class="notice" role="alert">{w}</p> })}
                    </div>
                    <div class="run-live">
                        <p class="run-phase" role="status" data-testid="reflect-phase" data-phase=move || phase_word(run.phase())>
                            {move || match run.phase() {
                                RunPhase::Idle => "Not started.".to_string(),
                                RunPhase::Running | RunPhase::Paused => live.with(|l| l.as_ref().map(|l| format!("{}\u{2026}", l.stage))).unwrap_or_else(|| "Starting\u{2026}".into()),
                                RunPhase::Finished => "Finished.".to_string(),
                                RunPhase::Stopped => "Stopped: the attempts played so far are kept.".to_string(),
                            }}
                        </p>
                        {move || live.get().map(|l| view! {
                            <ul class="attempt-scores" data-testid="reflect-scores">
                                {l.scores.into_iter().map(|s| view! { <li data-testid="reflect-score">{s}</li> }).collect_view()}
                            </ul>
                            <p data-testid="reflect-usage">{l.usage}</p>
                            {l.error.map(|e| view! { <p class="run-error" data-testid="reflect-error">{format!("Last endpoint error: {e}")}</p> })}
                            {(!l.turns.is_empty()).then(|| view! {
                                <h2>"The reflection under way"</h2>
                                <ReflectionTurns turns=l.turns />
                            })}
                        })}
                    </div>
                </div>
                {move || result.get().map(|(finished, doc)| view! { <RunResult finished=finished run=doc /> })}
            </div>
        }
}

fn phase_word(p: RunPhase) -> &'static str {
    match p {
        RunPhase::Idle => "setup",
        RunPhase::Running => "running",
        RunPhase::Paused => "paused",
        RunPhase::Finished => "finished",
        RunPhase::Stopped => "stopped",
    }
}

/// The run so far: its link and file, and a way to read it in the attempts viewer.
#[component]
fn RunResult(finished: bool, run: AttemptRun) -> impl IntoView {
    let name = attempts_file_name(&run);
    let json = run.to_json();
    let download_error = RwSignal::new(None::<String>);
    let link = run
        .to_link_fragment()
        .map(|f| format!("{}{}", page_origin(), attempts_href(&f)));
    let heading = if finished {
        format!("The run: {} attempts", run.attempts.len())
    } else {
        format!(
            "The run so far: {} attempts (unfinished)",
            run.attempts.len()
        )
    };
    view! {
        <section class="share-box" data-testid="reflect-result" aria-label="The run of attempts" data-finished=finished.to_string()>
            <h2>{heading}</h2>
            {match link {
                Ok(link) => view! {
                    <label class="share-field">
                        <span>"Link (the whole run, re-verified by whoever opens it)"</span>
                        <input type="text" readonly data-testid="reflect-share-link" prop:value=link.clone() />
                    </label>
                    <p><a class="button-link secondary" href=link data-testid="reflect-open-attempts">"Open in the attempts viewer"</a></p>
                }.into_any(),
                Err(e) => view! { <p class="notice" data-testid="reflect-no-link">{format!("No link: {e}. Download the file instead.")}</p> }.into_any(),
            }}
            <button
                type="button"
                data-testid="reflect-download"
                on:click=move |_| download_error.set(download(&name, "application/json", &json).err())
            >
                "Download the run of attempts"
            </button>
            {move || download_error.get().map(|e| view! { <p class="field-error" role="alert">{e}</p> })}
        </section>
    }
}
