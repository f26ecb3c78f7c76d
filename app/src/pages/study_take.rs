//! `/study/take#s=ps1.…`: a participant takes a study. A code first, the instructions,
//! then each task in order (demos if the study shows them, then the play), with the
//! progress shown; every finished episode is saved at once (localStorage, see
//! `study::participation`), so a reload resumes at the next task. At the end: the
//! results file to download and, if the study names a collection URL, a POST of it.

use bench::study::Study;
use bench::{EpisodeRecord, Suite};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_location;

use crate::browser::http::post_document as post_json;
use crate::browser::storage::local;
use crate::components::asset_gate::AssetGate;
use crate::components::error_box::ErrorBox;
use crate::components::study_demos::StudyDemos;
use crate::components::study_task::StudyTask;
use crate::pages::home::set_title;
use crate::study::participation::{parse_code, Participation, Stage};
use crate::task_session::{json_data_url, score_text, TaskSession};
use crate::task_text;

type Progress = RwSignal<Option<Participation>, LocalStorage>;

#[component]
pub fn StudyTakePage() -> impl IntoView {
    set_title("Human study · Playbench");
    let location = use_location();
    move || {
        let hash = location.hash.get();
        // The study names its suite and version; a valid link's suite is built in.
        match Study::from_link_fragment(&hash).and_then(|s| s.suite().map(|suite| (s, suite))) {
            Ok((study, suite)) => view! { <TakeStudy study=study suite=suite /> }.into_any(),
            Err(e) => view! {
                <ErrorBox
                    title="This study link cannot be opened".to_string()
                    message=format!("{}: {e}.", if hash.is_empty() { "No study in the link" } else { "The link is not usable" })
                    back_href=crate::routes::STUDY
                    back_label="Build a study"
                />
            }
            .into_any(),
        }
    }
}

/// Saves the participant's progress; the error in words if it could not be saved.
fn save(p: &Participation) -> Result<(), String> {
    Ok(p.save(&local())?)
}

#[component]
fn TakeStudy(study: Study, suite: &'static Suite) -> impl IntoView {
    set_title(&format!("{} · Human study · Playbench", study.title));
    let (restored, note) = Participation::restore(&local(), &study);
    let progress: Progress = RwSignal::new_local(restored);
    let notice = RwSignal::new(note);
    let title = study.title.clone();
    let study = StoredValue::new(study);

    let update_and_save = move |f: &dyn Fn(&mut Participation)| {
        progress.update(|p| {
            if let Some(p) = p {
                f(p);
                if let Err(e) = save(p) {
                    notice.set(Some(e));
                }
            }
        });
    };
    let on_code = Callback::new(move |code: String| {
        let (p, note) = Participation::open(&local(), study.get_value(), &code);
        notice.set(note);
        if let Err(e) = save(&p) {
            notice.set(Some(e));
        }
        progress.set(Some(p));
    });
    let on_record = Callback::new(move |record: EpisodeRecord| {
        progress.update(|p| {
            if let Some(p) = p {
                match p.record(suite, record) {
                    Ok(()) => {
                        if let Err(e) = save(p) {
                            notice.set(Some(format!(
                                "Your episode could not be saved, so a reload would lose it: {e}"
                            )));
                        }
                    }
                    Err(e) => notice.set(Some(e)),
                }
            }
        });
    });
    let stage = Memo::new(move |_| progress.with(|p| p.as_ref().map(|p| p.stage(suite))));
    let progress_text = move || {
        progress.with(|p| {
            p.as_ref()
                .map(|p| p.progress_text(suite))
                .unwrap_or_default()
        })
    };
    let participant = move || {
        progress.with(|p| {
            p.as_ref()
                .map(|p| p.participant().to_string())
                .unwrap_or_default()
        })
    };

    let body = move || {
        match stage.get() {
        None => view! { <CodeForm on_code=on_code /> }.into_any(),
        Some(Stage::Instructions) => {
            let instructions = study.with_value(|s| s.instructions.clone());
            let count = study.with_value(|s| s.tasks.len());
            view! {
                <section class="study-instructions" aria-labelledby="instructions-title">
                    <h2 id="instructions-title">"Instructions"</h2>
                    <p class="study-instructions-text" data-testid="study-instructions">{instructions}</p>
                    <p class="muted">{format!(
                        "You will play {count} task{} in order. Your progress is saved after each one: \
                         if you reload the page you continue with the next task (a task left halfway starts over).",
                        if count == 1 { "" } else { "s" }
                    )}</p>
                    <button type="button" data-testid="study-begin" on:click=move |_| update_and_save(&|p| p.begin())>
                        "Begin"
                    </button>
                </section>
            }
            .into_any()
        }
        Some(Stage::Demos { index }) => match progress.with_untracked(|p| p.as_ref().and_then(|p| p.task(suite, index))) {
            Some(task) => view! {
                <section class="study-step" aria-labelledby="step-title">
                    <h2 id="step-title" data-testid="study-task-title">{task_text::title(task).to_string()}</h2>
                    <p class="muted">"First watch how the task goes: these are the demonstrations an agent is shown."</p>
                    <AssetGate env_id=task.env.clone() kwargs=task.kwargs.clone()>
                        <StudyDemos task=task />
                    </AssetGate>
                    <button
                        type="button"
                        data-testid="study-start-task"
                        on:click=move |_| progress.update(|p| if let Some(p) = p { p.start_playing() })
                    >
                        "I have watched the demos: play the task"
                    </button>
                </section>
            }
            .into_any(),
            None => ().into_any(),
        },
        Some(Stage::Playing { index }) => {
            let Some(task) = progress.with_untracked(|p| p.as_ref().and_then(|p| p.task(suite, index))) else {
                return ().into_any();
            };
            // A task on pictures starts once they are in this tab.
            let play = move || match TaskSession::new(task) {
                Ok(session) => view! {
                    <section class="study-step" aria-labelledby="step-title">
                        <h2 id="step-title" data-testid="study-task-title">{task_text::title(task).to_string()}</h2>
                        <StudyTask task=task session=session on_done=on_record />
                    </section>
                }
                .into_any(),
                Err(e) => view! {
                    <p class="field-error" role="alert">{format!("The task could not start: {e}")}</p>
                }
                .into_any(),
            };
            view! {
                <AssetGate env_id=task.env.clone() kwargs=task.kwargs.clone()>
                    {play}
                </AssetGate>
            }
            .into_any()
        }
        Some(Stage::Finished { index }) => {
            let (record, last) = progress.with_untracked(|p| {
                p.as_ref()
                    .map(|p| (p.episodes().get(index).cloned(), index + 1 == p.task_count()))
                    .unwrap_or((None, true))
            });
            let passed = record.as_ref().is_some_and(|r| r.passed);
            let verdict = record.as_ref().map_or("", |r| if r.passed { "passed" } else { "not passed" });
            let score = record.as_ref().map(|r| score_text(r.score)).unwrap_or_default();
            view! {
                <section class="study-step result" class:passed=passed data-passed=passed.to_string() role="status" data-testid="study-task-done">
                    <h2>{format!("Task {} done: {verdict}", index + 1)}</h2>
                    <p>"Score: " <span data-testid="study-task-score">{score}</span>" / 100. Your episode is saved."</p>
                    <button type="button" data-testid="study-next" autofocus on:click=move |_| progress.update(|p| if let Some(p) = p { p.next() })>
                        {if last { "See your results" } else { "Next task" }}
                    </button>
                </section>
            }
            .into_any()
        }
        Some(Stage::Done) => view! { <StudyResults progress=progress suite=suite /> }.into_any(),
    }
    };

    view! {
        <div class="study-take">
            <header class="study-header">
                <h1 data-testid="study-title">{title}</h1>
                <p class="study-progress" data-testid="study-progress" aria-live="polite">{progress_text}</p>
                {move || {
                    let code = participant();
                    (!code.is_empty()).then(|| view! {
                        <p class="muted">"Participant " <span data-testid="study-participant">{code}</span></p>
                    })
                }}
            </header>
            {move || notice.get().map(|n| view! { <p class="notice" role="alert" data-testid="study-notice">{n}</p> })}
            {body}
        </div>
    }
}

#[component]
fn CodeForm(on_code: Callback<String>) -> impl IntoView {
    let code = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        match parse_code(&code.get_untracked()) {
            Ok(c) => on_code.run(c),
            Err(e) => error.set(Some(e)),
        }
    };
    view! {
        <form class="study-code" on:submit=submit>
            <label class="field">
                <span>"Your participant code"</span>
                <input
                    type="text"
                    data-testid="study-code"
                    autocomplete="off"
                    autofocus
                    prop:value=move || code.get()
                    on:input=move |ev| code.set(event_target_value(&ev))
                    aria-describedby="code-error"
                />
            </label>
            <p id="code-error" class="field-error" role="alert">{move || error.get()}</p>
            <button type="submit" data-testid="study-code-submit">"Continue"</button>
        </form>
    }
}

/// Where the collection POST stands.
#[derive(Clone, Debug, PartialEq)]
enum Sending {
    Idle,
    /// Sent before this page was loaded (the results page was reloaded).
    SentEarlier,
    InFlight,
    Sent(u16),
    Failed(String),
}

#[component]
fn StudyResults(progress: Progress, suite: &'static Suite) -> impl IntoView {
    let Some((file, filename, collect_url, who)) = progress.with_untracked(|p| {
        p.as_ref().map(|p| {
            (
                p.results_file(suite),
                p.results_filename(),
                p.study().collect_url.clone(),
                p.clone(),
            )
        })
    }) else {
        return ().into_any();
    };
    let json = file.to_json();
    let href = json_data_url(&json);
    let overall = &file.report.overall;
    let summary = format!(
        "{} of {} tasks passed · mean score {} / 100",
        file.episodes.iter().filter(|e| e.record.passed).count(),
        file.episodes.len(),
        score_text(overall.score)
    );
    let sending = RwSignal::new(Sending::Idle);
    let send = {
        let json = json.clone();
        let url = collect_url.clone();
        let who = who.clone();
        move || {
            let who = who.clone();
            let (Some(url), json) = (url.clone(), json.clone()) else {
                return;
            };
            sending.set(Sending::InFlight);
            spawn_local(async move {
                sending.set(match post_json(&url, &json).await {
                    Ok(status) => {
                        // Best effort: without it a reload would only send them again.
                        let _ = who.mark_sent(&local());
                        Sending::Sent(status)
                    }
                    Err(e) => Sending::Failed(e),
                });
            });
        }
    };
    if collect_url.is_some() {
        if who.was_sent(&local()) {
            sending.set(Sending::SentEarlier);
        } else {
            send();
        }
    }
    let status = move || {
        match sending.get() {
        Sending::Idle => ().into_any(),
        Sending::SentEarlier => {
            let again = send.clone();
            view! {
                <div class="notice ok" data-testid="study-post" data-state="sent-earlier" role="status">
                    <p>"Your results were already sent to the study organiser."</p>
                    <button type="button" class="secondary" on:click=move |_| again()>"Send them again"</button>
                </div>
            }
            .into_any()
        }
        Sending::InFlight => view! { <p data-testid="study-post" data-state="sending" role="status">"Sending your results…"</p> }.into_any(),
        Sending::Sent(code) => view! {
            <p class="notice ok" data-testid="study-post" data-state="sent" role="status">
                {format!("Your results were sent to the study organiser (HTTP {code}).")}
            </p>
        }
        .into_any(),
        Sending::Failed(e) => {
            let retry = send.clone();
            view! {
                <div class="notice error" data-testid="study-post" data-state="failed" role="alert">
                    <p>{format!("Your results could not be sent: {e}. Download the file below and send it to the organiser.")}</p>
                    <button type="button" class="secondary" data-testid="study-post-retry" on:click=move |_| retry()>"Try sending again"</button>
                </div>
            }
            .into_any()
        }
    }
    };
    view! {
        <section class="study-results" aria-labelledby="results-title" data-testid="study-results">
            <h2 id="results-title">"Thank you: all tasks are done"</h2>
            <p data-testid="study-summary">{summary}</p>
            {status}
            <p>
                <a class="button-link" data-testid="study-download" download=filename href=href>
                    "Download your results (JSON)"
                </a>
            </p>
        </section>
    }
    .into_any()
}
