//! `/judge`: GameVerse's milestone judge (`docs/judge.md`, "In the browser") on the
//! user's endpoint. Choose a results file, or episode files and share links (as
//! `playbench judge` takes them; `/judge#e=pb1.…` opens with that episode, which the
//! episode page links to), the endpoint profile (the one of `/run`) and the image budget
//! (`?max_images=N`), run with progress, pause and stop, read each episode's judge score
//! beside its exact milestones and the agreement report, download the judge file. The
//! judging is saved as it goes (`judging::stored`), so a reload loses nothing; the run
//! itself is `bench::judge::run::JudgeRun`, driven by `browser::drive::converse`.

use std::cell::RefCell;
use std::rc::Rc;

use bench::judge::file::JudgeFile;
use bench::judge::run::{JudgeRun, DEFAULT_MAX_IMAGES};
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate, use_query_map};
use leptos_router::NavigateOptions;

use crate::browser::drive::{start_conversation, Destination};
use crate::browser::files::{download, read_text};
use crate::browser::run_controller::RunController;
use crate::browser::storage::local;
use crate::components::episode_run::{EpisodeRunControls, RunWords};
use crate::components::file_drop::FileDrop;
use crate::components::run_setup::{EndpointChoice, RunSetupState};
use crate::judging::input::{read_dropped, read_link, Chosen, Dropped};
use crate::judging::stored::StoredJudging;
use crate::judging::view::{
    disagreement_text, episode_views, judge_file_name, report_rows, report_summary, EpisodeView,
    REPORT_COLUMNS,
};
use crate::pages::home::set_title;
use crate::replay::source::parse_viewer_fragment;
use crate::routes;
use crate::runner::control::RunPhase;

type Live = StoredValue<Option<Rc<RefCell<JudgeRun>>>, LocalStorage>;

/// The image budget as typed: a whole number of at least 1.
fn parse_max_images(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "The image budget {:?} is not a whole number of at least 1.",
            text.trim()
        )),
    }
}

/// The judging's buttons and progress line.
const JUDGE_WORDS: RunWords = RunWords {
    id: "judge",
    start: "Start the judging",
    resume: "Resume the judging",
    again: "Judge again",
    close: ("clear", "Clear"),
    settled: "episodes judged",
};

#[component]
pub fn JudgePage() -> impl IntoView {
    set_title("Judge episodes by their milestones · Playbench");
    let setup = RunSetupState::load();
    let chosen = RwSignal::new(Chosen::default());
    let judge = RwSignal::new(None::<JudgeFile>);
    let max_images = RwSignal::new(DEFAULT_MAX_IMAGES.to_string());
    let link_text = RwSignal::new(String::new());
    let notice = RwSignal::new(None::<String>);
    let status = RwSignal::new(None::<String>);
    let last_error = RwSignal::new(None::<String>);
    let save_warning = RwSignal::new(None::<String>);
    let run = RunController::new();
    let live: Live = StoredValue::new_local(None);

    if let Some((stored, budget, file)) = StoredJudging::load(&local()) {
        chosen.set(stored);
        max_images.set(budget.to_string());
        judge.set(file);
    }
    // The URL's state: the image budget, and an episode's link to judge alone.
    let location = use_location();
    let navigate = StoredValue::new_local(use_navigate());
    if let Some(n) = use_query_map().with_untracked(|q| q.get_str("max_images").map(str::to_string))
    {
        max_images.set(n);
    }
    if let Some(link) = parse_viewer_fragment(&location.hash.get_untracked()).primary {
        match read_link(&link) {
            Ok(file) => {
                let same = chosen.with_untracked(|c| {
                    c.results.is_none()
                        && c.episodes.len() == 1
                        && c.episodes[0].1.record == file.record
                });
                if !same {
                    let mut c = Chosen::default();
                    let _ = c.add_episode("the episode's link".into(), file);
                    chosen.set(c);
                    judge.set(None);
                }
            }
            Err(e) => notice.set(Some(e)),
        }
    }

    let save = move || {
        let budget = parse_max_images(&max_images.get_untracked()).unwrap_or(DEFAULT_MAX_IMAGES);
        let stored =
            chosen.with_untracked(|c| StoredJudging::new(c, budget, judge.get_untracked()));
        save_warning.set(
            stored
                .save(&local())
                .err()
                .map(|e| format!("The judging will not survive a reload: {e}.")),
        );
    };
    // The budget goes into the URL (the link opens the same judging settings); the
    // episode's link has been taken and kept in storage.
    let write_url = move || {
        let options = NavigateOptions {
            replace: true,
            scroll: false,
            ..Default::default()
        };
        let budget = max_images.get_untracked();
        let to = format!(
            "{}?max_images={}",
            routes::JUDGE,
            crate::url::encode_component(budget.trim())
        );
        navigate.with_value(|n| n(&to, options));
    };
    Effect::new(move |_| {
        save();
        write_url();
    });

    let busy = move || {
        if run.is_active() {
            notice.set(Some(
                "Stop the judging before changing what is judged.".into(),
            ));
        }
        run.is_active()
    };
    let accept = move |name: String, text: String| {
        match read_dropped(&name, &text) {
            Ok(Dropped::Results(file)) => {
                chosen.update(|c| c.set_results(name, *file));
                judge.set(None);
            }
            Ok(Dropped::Episode(file)) => {
                if !accept_episode(chosen, judge, notice, name, *file) {
                    return;
                }
            }
            // A judge file: shown, and resumed if it is of the chosen episodes.
            Ok(Dropped::Judge(file)) => judge.set(Some(*file)),
            Err(e) => {
                notice.set(Some(e));
                return;
            }
        }
        notice.set(None);
        run.set_phase(RunPhase::Idle);
        save();
    };
    let read = move |files: web_sys::FileList| {
        if busy() {
            return;
        }
        let files: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
        // In the order given, one after the other.
        leptos::task::spawn_local(async move {
            for file in files {
                let name = file.name();
                match read_text(file).await {
                    Ok(text) => accept(name, text),
                    Err(e) => notice.set(Some(format!("{name}: {e}"))),
                }
            }
        });
    };
    let add_link = move || {
        if busy() {
            return;
        }
        let text = link_text.get_untracked();
        match read_link(&text) {
            Ok(file) => {
                let n = chosen.with_untracked(|c| c.episodes.len()) + 1;
                if accept_episode(chosen, judge, notice, format!("link {n}"), file) {
                    link_text.set(String::new());
                    run.set_phase(RunPhase::Idle);
                    save();
                }
            }
            Err(e) => notice.set(Some(e)),
        }
    };
    let clear = move || {
        if busy() {
            return;
        }
        StoredJudging::clear(&local());
        chosen.set(Chosen::default());
        judge.set(None);
        notice.set(None);
        run.set_phase(RunPhase::Idle);
    };

    let start = move || {
        let source = match chosen.with_untracked(Chosen::source) {
            Ok(s) => s,
            Err(e) => {
                notice.set(Some(e));
                return;
            }
        };
        let budget = match parse_max_images(&max_images.get_untracked()) {
            Ok(n) => n,
            Err(e) => {
                notice.set(Some(e));
                return;
            }
        };
        let profile = setup.profiles.get_untracked().current().clone();
        if let Some(problem) = profile.unusable() {
            notice.set(Some(problem));
            return;
        }
        let mut judge_run = JudgeRun::new(source, profile.endpoint(), budget);
        if let Some(previous) = judge.get_untracked() {
            // A judging of other episodes (or another budget's) is simply not resumed.
            if previous.max_images == budget {
                let _ = judge_run.resume(previous);
            }
        }
        notice.set(None);
        let total = judge_run.total();
        let shared = Rc::new(RefCell::new(judge_run));
        live.set_value(Some(shared.clone()));
        let to = Destination {
            profile: &profile,
            key: Some(setup.key.get_untracked()).filter(|k| !k.trim().is_empty()),
            image: setup.settings.get_untracked().image,
        };
        start_conversation(
            run,
            shared,
            to,
            move |s| {
                judge.set(Some(s.file().clone()));
                status.set(s.describe_current());
                last_error.set(s.last_error().map(|e| e.message.clone()));
                save();
            },
            move |s| s.settled() == total,
            move || status.set(None),
        );
    };

    let progress = move || {
        let total = chosen.with(Chosen::count);
        let settled = judge.with(|j| {
            j.as_ref()
                .map_or(0, |j| j.episodes.iter().filter(|e| e.is_settled()).count())
        });
        (settled, total)
    };
    view! {
        <div class="judge">
            <h1>"Judge episodes by their milestones"</h1>
            <p class="muted">
                "GameVerse's milestone judge: a judge model watches each episode's step frames and marks every milestone \
                 of the game's list completed or not, with its evidence; the score is completed / total. For the open \
                 GameVerse games the milestones are also decided exactly, by replaying the episode, and the report \
                 shows how often the judge agrees. The same judging as "
                <code>"playbench judge"</code>
                ". Files stay in this browser."
            </p>
            <FileDrop
                name="judge"
                label="A results file, episode files or a judge file: choose them, or drop them here"
                accept=".json,.txt,application/json,text/plain"
                multiple=true
                on_files=read
            />
            <form
                class="judge-link"
                on:submit=move |ev: web_sys::SubmitEvent| {
                    ev.prevent_default();
                    add_link();
                }
            >
                <label for="judge-link">"Or an episode's share link"</label>
                " "
                <input
                    id="judge-link"
                    type="text"
                    data-testid="judge-link"
                    placeholder="https://…/episode#e=pb1.…"
                    prop:value=move || link_text.get()
                    on:input=move |ev| link_text.set(event_target_value(&ev))
                />
                " "
                <button type="submit" class="secondary" data-testid="judge-add-link">"Add the episode"</button>
            </form>
            {move || notice.get().map(|n| view! { <p class="field-error" role="alert" data-testid="judge-error">{n}</p> })}
            {move || save_warning.get().map(|w| view! { <p class="notice" role="alert">{w}</p> })}
            {move || {
                (!chosen.with(Chosen::is_empty)).then(|| {
                    view! {
                        <p data-testid="judge-chosen">{move || chosen.with(Chosen::describe)}</p>
                        <EndpointChoice state=setup />
                        <p>
                            <label for="judge-max-images">"Images per request (the step video is thinned to fit)"</label>
                            " "
                            <input
                                id="judge-max-images"
                                type="number"
                                min="1"
                                data-testid="judge-max-images"
                                prop:value=move || max_images.get()
                                on:change=move |ev| {
                                    max_images.set(event_target_value(&ev));
                                    save();
                                    write_url();
                                }
                            />
                        </p>
                        <EpisodeRunControls
                            words=JUDGE_WORDS
                            run=run
                            progress=progress
                            start=move |again: bool| {
                                if again {
                                    judge.set(None);
                                }
                                start();
                            }
                            close=clear
                            status=status
                            last_error=last_error
                        />
                    }
                })
            }}
            {move || judge.get().map(|file| view! { <JudgeResults file=file /> })}
        </div>
    }
}

/// An episode (a file or a link) joins the chosen ones, not beside a results file;
/// returns whether it did (else the notice says why).
fn accept_episode(
    chosen: RwSignal<Chosen>,
    judge: RwSignal<Option<JudgeFile>>,
    notice: RwSignal<Option<String>>,
    name: String,
    file: bench::share::EpisodeFile,
) -> bool {
    let mut added = Ok(());
    chosen.update(|c| added = c.add_episode(name, file));
    match added {
        Ok(()) => {
            judge.set(None);
            notice.set(None);
            true
        }
        Err(e) => {
            notice.set(Some(e));
            false
        }
    }
}

#[component]
fn JudgeResults(file: JudgeFile) -> impl IntoView {
    let name = judge_file_name(&file);
    let json = file.to_json();
    let rows = report_rows(&file.report);
    let episodes = episode_views(&file);
    let download_error = RwSignal::new(None::<String>);
    let head = REPORT_COLUMNS
        .iter()
        .map(|c| view! { <th scope="col">{*c}</th> })
        .collect_view();
    let body = rows
        .into_iter()
        .map(|r| {
            let cells = r
                .cells
                .into_iter()
                .map(|c| view! { <td>{c}</td> })
                .collect_view();
            view! { <tr><th scope="row">{r.name}</th>{cells}</tr> }
        })
        .collect_view();
    let disagreements = file
        .report
        .disagreements
        .iter()
        .map(|d| {
            let link = d.link.clone().map(|href| {
                let text = match d.exact_step {
                    Some(step) => format!("Decision {step} in the replay"),
                    None => "The episode in the replay".to_string(),
                };
                view! { " " <a href=href data-testid="judge-disagreement-link">{text}</a> }
            });
            view! {
                <li data-testid="judge-disagreement">
                    <strong>{disagreement_text(d)}</strong>
                    {link}
                    <p class="muted">{format!("The judge's evidence: {}", d.evidence)}</p>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="judge-results">
            <h2>"Report"</h2>
            <p data-testid="judge-summary">{format!("Judged by {}: {}.", file.judge, report_summary(&file.report))}</p>
            <div class="table-scroll">
                <table class="results-table" data-testid="judge-report">
                    <caption>"Agreement of the judge with the exact milestones"</caption>
                    <thead><tr><th scope="col">"Rows"</th>{head}</tr></thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
            <button
                type="button"
                data-testid="judge-download"
                on:click=move |_| download_error.set(download(&name, "application/json", &json).err())
            >
                "Download the judge file"
            </button>
            {move || download_error.get().map(|e| view! { <p class="field-error" role="alert">{e}</p> })}
            <h2>"Disagreements"</h2>
            {if file.report.disagreements.is_empty() {
                view! { <p class="muted" data-testid="judge-no-disagreements">"None: the judge and the exact milestones agree (or nothing was judged yet)."</p> }.into_any()
            } else {
                view! { <ol class="judge-disagreements">{disagreements}</ol> }.into_any()
            }}
            <h2>"Episodes"</h2>
            <ol class="judge-episodes">
                {episodes.into_iter().map(|e| view! { <EpisodeItem episode=e /> }).collect_view()}
            </ol>
        </section>
    }
}

#[component]
fn EpisodeItem(episode: EpisodeView) -> impl IntoView {
    let replay = episode
        .link
        .clone()
        .map(|href| view! { " " <a href=href data-testid="judge-episode-link">"Replay"</a> });
    let problems = (!episode.problems.is_empty()).then(|| {
        let items = episode
            .problems
            .iter()
            .map(|p| view! { <li>{p.clone()}</li> })
            .collect_view();
        view! {
            <details>
                <summary>{format!("{} unparsable repl{}", episode.problems.len(), if episode.problems.len() == 1 { "y" } else { "ies" })}</summary>
                <ul class="muted">{items}</ul>
            </details>
        }
    });
    let rows = episode
        .milestones
        .into_iter()
        .map(|m| {
            view! {
                <tr data-testid="judge-milestone" data-disagrees=m.disagrees.to_string()>
                    <th scope="row">{m.title}</th>
                    <td data-testid="judge-answer">{m.judge}</td>
                    <td data-testid="exact-answer">{m.exact}</td>
                    <td class="muted">{m.evidence}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <li class="judge-episode" data-testid="judge-episode">
            <p>
                <strong>{episode.title}</strong>
                {replay}
            </p>
            <p data-testid="judge-episode-scores" class:field-error=episode.flagged || episode.error.is_some()>{episode.scores}</p>
            {problems}
            <div class="table-scroll">
                <table class="results-table">
                    <thead>
                        <tr>
                            <th scope="col">"Milestone"</th>
                            <th scope="col">"Judge"</th>
                            <th scope="col">"Exact"</th>
                            <th scope="col">"The judge's evidence"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </li>
    }
}
