//! `/audit`: V-ICAL's trajectory auditor over a model's results file
//! (`docs/audit.md`). Drop the file, choose the auditor's endpoint profile (the one of
//! `/run`), run with progress, read the report and every verdict with its link to the
//! step in the replay viewer, download the audit file. The audit is saved as it goes
//! (`auditor::stored`), so a reload loses nothing; the run itself is
//! `bench::audit::run::AuditRun`, driven by `browser::drive::converse`.

use std::cell::RefCell;
use std::rc::Rc;

use bench::audit::file::AuditFile;
use bench::audit::run::AuditRun;
use bench::results::ResultsFile;
use leptos::prelude::*;

use crate::auditor::input::{read_dropped, Dropped};
use crate::auditor::stored::StoredAudit;
use crate::auditor::view::{
    audit_file_name, episode_views, report_tables, EpisodeView, ModelReport, VerdictView,
    REPORT_COLUMNS,
};
use crate::browser::drive::{start_conversation, Destination};
use crate::browser::files::{download, read_text};
use crate::browser::run_controller::RunController;
use crate::browser::storage::local;
use crate::components::episode_run::{EpisodeRunControls, RunWords};
use crate::components::file_drop::FileDrop;
use crate::components::run_setup::{EndpointChoice, RunSetupState};
use crate::pages::home::set_title;
use crate::runner::control::RunPhase;

type Live = StoredValue<Option<Rc<RefCell<AuditRun>>>, LocalStorage>;

/// The audit's buttons and progress line.
const AUDIT_WORDS: RunWords = RunWords {
    id: "audit",
    start: "Start the audit",
    resume: "Resume the audit",
    again: "Audit again",
    close: ("discard", "Close this file"),
    settled: "episodes audited",
};

#[component]
pub fn AuditPage() -> impl IntoView {
    set_title("Audit a model run · Playbench");
    let setup = RunSetupState::load();
    let results = RwSignal::new(None::<(String, ResultsFile)>);
    let audit = RwSignal::new(None::<AuditFile>);
    let notice = RwSignal::new(None::<String>);
    let status = RwSignal::new(None::<String>);
    let last_error = RwSignal::new(None::<String>);
    let save_warning = RwSignal::new(None::<String>);
    let run = RunController::new();
    let live: Live = StoredValue::new_local(None);

    if let Some((stored, file)) = StoredAudit::load(&local()) {
        results.set(Some((stored.results_name, file)));
        audit.set(stored.audit);
    }

    let save = move || {
        let Some((name, file)) = results.get_untracked() else {
            return;
        };
        let stored = StoredAudit {
            results_name: name,
            results: file.to_json(),
            audit: audit.get_untracked(),
        };
        save_warning.set(
            stored
                .save(&local())
                .err()
                .map(|e| format!("The audit will not survive a reload: {e}.")),
        );
    };

    let accept = move |name: String, text: String| {
        if run.is_active() {
            notice.set(Some("Stop the audit before opening another file.".into()));
            return;
        }
        match read_dropped(&name, &text) {
            Ok(Dropped::Results(file)) => {
                notice.set(None);
                results.set(Some((name, *file)));
                audit.set(None);
                run.set_phase(RunPhase::Idle);
                save();
            }
            Ok(Dropped::Audit(file)) => {
                notice.set(None);
                results.set(None);
                StoredAudit::clear(&local());
                audit.set(Some(*file));
                run.set_phase(RunPhase::Idle);
            }
            Err(e) => notice.set(Some(e)),
        }
    };
    let read = move |files: web_sys::FileList| {
        if let Some(file) = files.get(0) {
            let name = file.name();
            leptos::task::spawn_local(async move {
                match read_text(file).await {
                    Ok(text) => accept(name, text),
                    Err(e) => notice.set(Some(format!("{name}: {e}"))),
                }
            });
        }
    };

    let start = move || {
        let Some((_, file)) = results.get_untracked() else {
            return;
        };
        let profile = setup.profiles.get_untracked().current().clone();
        if let Some(problem) = profile.unusable() {
            notice.set(Some(problem));
            return;
        }
        let mut audit_run = match AuditRun::new(file, profile.endpoint()) {
            Ok(r) => r,
            Err(e) => {
                notice.set(Some(e));
                return;
            }
        };
        if let Some(previous) = audit.get_untracked() {
            // Another results file's audit is simply not resumed.
            let _ = audit_run.resume(previous);
        }
        notice.set(None);
        let total = audit_run.total();
        let shared = Rc::new(RefCell::new(audit_run));
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
                audit.set(Some(s.file().clone()));
                status.set(s.describe_current());
                last_error.set(s.last_error().map(|e| e.message.clone()));
                save();
            },
            move |s| s.settled() == total,
            move || status.set(None),
        );
    };
    let discard = move || {
        if run.is_active() {
            return;
        }
        StoredAudit::clear(&local());
        results.set(None);
        audit.set(None);
        run.set_phase(RunPhase::Idle);
    };

    let progress = move || {
        let total = results.with(|r| r.as_ref().map_or(0, |(_, f)| f.episodes.len()));
        let settled = audit.with(|a| {
            a.as_ref()
                .map_or(0, |a| a.episodes.iter().filter(|e| e.is_settled()).count())
        });
        (settled, total)
    };
    view! {
        <div class="audit">
            <h1>"Audit a model run"</h1>
            <p class="muted">
                "V-ICAL's trajectory auditor: an auditor model reads every episode of a model's results file — each request \
                 the model received, with its images, and each reply — with the task's rules and a reference built from its \
                 demonstrations, and says whether the demonstrated rules and strategies were learnt and used, and at which \
                 stage of its decisions the model failed. Files stay in this browser."
            </p>
            <FileDrop
                name="audit"
                accept=".json,application/json"
                label="A results file of a model run (JSON), or an audit file: choose it, or drop it here"
                on_files=read
            />
            {move || notice.get().map(|n| view! { <p class="field-error" role="alert" data-testid="audit-error">{n}</p> })}
            {move || save_warning.get().map(|w| view! { <p class="notice" role="alert">{w}</p> })}
            {move || {
                results
                    .get()
                    .map(|(name, file)| {
                        view! {
                            <p data-testid="audit-results">
                                <strong>{name}</strong>
                                {format!(": {} · {} · {} episodes", file.label, file.suite, file.episodes.len())}
                            </p>
                            <EndpointChoice state=setup />
                            <EpisodeRunControls
                                words=AUDIT_WORDS
                                run=run
                                progress=progress
                                start=move |again: bool| {
                                    if again {
                                        audit.set(None);
                                    }
                                    start();
                                }
                                close=discard
                                status=status
                                last_error=last_error
                            />
                        }
                    })
            }}
            {move || audit.get().map(|file| view! { <AuditResults file=file /> })}
        </div>
    }
}

#[component]
fn AuditResults(file: AuditFile) -> impl IntoView {
    let name = audit_file_name(&file);
    let json = file.to_json();
    let tables = report_tables(&file.report);
    let episodes = episode_views(&file);
    let download_error = RwSignal::new(None::<String>);
    view! {
        <section class="audit-results">
            <h2>"Report"</h2>
            <p class="muted">
                {format!("Audited by {}. ", file.auditor)}
                "Shares of the episodes with a verdict; the overall and tag rows weight environments equally."
            </p>
            {tables.into_iter().map(|t| view! { <ReportTable table=t /> }).collect_view()}
            <button
                type="button"
                data-testid="audit-download"
                on:click=move |_| download_error.set(download(&name, "application/json", &json).err())
            >
                "Download the audit file"
            </button>
            {move || download_error.get().map(|e| view! { <p class="field-error" role="alert">{e}</p> })}
            <h2>"Episodes"</h2>
            <ol class="audit-episodes">
                {episodes.into_iter().map(|e| view! { <EpisodeItem episode=e /> }).collect_view()}
            </ol>
        </section>
    }
}

#[component]
fn ReportTable(table: ModelReport) -> impl IntoView {
    let head = REPORT_COLUMNS
        .iter()
        .map(|c| view! { <th scope="col">{*c}</th> })
        .collect_view();
    let rows = table
        .lines
        .into_iter()
        .map(|l| {
            let cells = l
                .cells
                .into_iter()
                .map(|c| view! { <td>{c}</td> })
                .collect_view();
            let name = if l.section == "overall" {
                l.name
            } else {
                format!("{}: {}", l.section, l.name)
            };
            view! {
                <tr data-row=l.section.clone()>
                    <th scope="row">{name}</th>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-scroll">
            <table class="results-table" data-testid="audit-report">
                <caption>{table.model}</caption>
                <thead><tr><th scope="col">"Rows"</th>{head}</tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

#[component]
fn EpisodeItem(episode: EpisodeView) -> impl IntoView {
    let replay = episode.link.clone().map(|href| {
        view! { " " <a href=href data-testid="audit-episode-link">"Replay"</a> }
    });
    view! {
        <li class="audit-episode" data-testid="audit-episode">
            <p>
                <strong>{episode.title}</strong>
                {format!(" · {}", episode.outcome)}
                {replay}
            </p>
            <ul>
                {episode.verdicts.into_iter().map(|v| view! { <VerdictItem verdict=v /> }).collect_view()}
            </ul>
        </li>
    }
}

#[component]
fn VerdictItem(verdict: VerdictView) -> impl IntoView {
    let problems = (!verdict.problems.is_empty()).then(|| {
        let items = verdict
            .problems
            .iter()
            .map(|p| view! { <li>{p.clone()}</li> })
            .collect_view();
        view! {
            <details>
                <summary>{format!("{} rejected repl{}", verdict.problems.len(), if verdict.problems.len() == 1 { "y" } else { "ies" })}</summary>
                <ul class="muted">{items}</ul>
            </details>
        }
    });
    let body = match (&verdict.labels, &verdict.error) {
        (Some(labels), _) => {
            let link = verdict.link.clone().map(|href| {
                view! {
                    " "
                    <a href=href data-testid="audit-verdict-link">{format!("Step {} in the replay", verdict.step)}</a>
                }
            });
            view! {
                <strong data-testid="audit-verdict">{labels.clone()}</strong>
                {link}
                <p class="muted">{verdict.justification.clone()}</p>
            }
            .into_any()
        }
        (None, Some(error)) => view! {
            <span class="field-error" data-testid="audit-verdict-error">{format!("No verdict: {error}")}</span>
        }
        .into_any(),
        (None, None) => view! { <span class="muted">{if verdict.pending { "waiting" } else { "" }}</span> }.into_any(),
    };
    view! {
        <li>
            {format!("{}: ", verdict.criterion)}
            {body}
            {problems}
        </li>
    }
}
