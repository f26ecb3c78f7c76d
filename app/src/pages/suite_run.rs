//! `/run/suite`: the suite (or a selection by environment, tag or id) with a model,
//! several episodes at a time (default 4), a progress bar with ETA, every finished
//! episode stored at once so a reload resumes where the run stopped, and the results
//! table with a chart, exportable as JSON and CSV with the configuration embedded.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use bench::results::ResultEpisode;
use bench::run_episode;
use bench::Suite;
use leptos::prelude::*;

use crate::browser::download::download;
use crate::browser::drive::{drive, Control, Ended};
use crate::browser::time::{now_ms, sleep};
use crate::browser::{keys, storage};
use crate::components::error_box::ErrorBox;
use crate::components::results_view::ResultsTable;
use crate::components::run_setup::{RunSetup, RunSetupState};
use crate::pages::home::set_title;
use crate::replay::episode_links::{episode_link, EpisodeLink};
use crate::runner::suite_run::{
    episode_storage_key, eta_ms, format_duration, parse_episode_entry, run_id, AgentChoice,
    RunPlan, RunState, Selection, StoredRun, SuiteRun, PLAN_STORAGE_KEY,
};
use crate::suite_data;
use crate::task_session::failure_key;
use bench::encode::ImageEncoder;
use bench::model_episode::{DemoCache, ModelEpisode};

#[component]
pub fn SuiteRunPage() -> impl IntoView {
    set_title("Run the suite with a model · Playbench");
    match suite_data::suite() {
        Ok(suite) => view! { <SuiteRunView suite=suite /> }.into_any(),
        Err(why) => view! {
            <ErrorBox title="The suite could not be loaded".to_string() message=why />
        }
        .into_any(),
    }
}

/// What the progress section shows.
#[derive(Clone, Debug, PartialEq)]
struct Progress {
    done: usize,
    total: usize,
    running: usize,
    eta: String,
    active: Vec<String>,
    work: String,
    save_error: Option<String>,
    summary: String,
}

/// The live state of a run on this page.
struct Live {
    run: SuiteRun,
    control: Rc<Control>,
    /// Episodes in flight, by job.
    active: BTreeMap<usize, Rc<RefCell<ModelEpisode>>>,
    key: Option<String>,
    /// Encoded demonstration frames, by task, shared by its episodes.
    demo_images: BTreeMap<String, DemoCache>,
    workers: usize,
    started_ms: f64,
    finished_here: usize,
    /// The app's own work per request, summed, and the number of requests.
    work_ms: f64,
    requests: usize,
    save_error: Option<String>,
}

impl Live {
    fn new(run: SuiteRun, key: Option<String>) -> Self {
        Self {
            run,
            control: Rc::new(Control::default()),
            active: BTreeMap::new(),
            key,
            demo_images: BTreeMap::new(),
            workers: 0,
            started_ms: now_ms(),
            finished_here: 0,
            work_ms: 0.0,
            requests: 0,
            save_error: None,
        }
    }
}

type Shared = Rc<RefCell<Option<Live>>>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Idle,
    Running,
    Paused,
    Stopped,
    Complete,
}

fn store_state(live: &Live, state: RunState) -> Result<(), String> {
    let stored = StoredRun {
        plan: live.run.plan.clone(),
        state,
        key_needed: live.key.is_some(),
    };
    storage::set(PLAN_STORAGE_KEY, &stored.to_storage())
}

/// The stored run and its finished episodes, if there is one.
fn load_stored() -> Option<Result<(StoredRun, SuiteRun), String>> {
    let text = storage::get(PLAN_STORAGE_KEY)?;
    Some(StoredRun::from_storage(&text).map(|stored| {
        let id = stored.plan.id.clone();
        let prefix = format!("{PLAN_STORAGE_KEY}.{id}.");
        let entries = storage::keys_with_prefix(&prefix)
            .into_iter()
            .filter_map(|k| storage::get(&k).and_then(|v| parse_episode_entry(&id, &k, &v)));
        let run = SuiteRun::restore(stored.plan.clone(), entries);
        (stored, run)
    }))
}

fn forget_stored() {
    if let Some(Ok((stored, _))) = load_stored() {
        for k in storage::keys_with_prefix(&format!("{PLAN_STORAGE_KEY}.{}.", stored.plan.id)) {
            storage::remove(&k);
        }
    }
    storage::remove(PLAN_STORAGE_KEY);
}

#[component]
fn SuiteRunView(suite: &'static Suite) -> impl IntoView {
    let setup = RunSetupState::load();
    let (env_options, tag_options) = Selection::options(suite);
    let selection = RwSignal::new(Selection::default());
    let episodes_text = RwSignal::new("1".to_string());
    let concurrency_text = RwSignal::new("4".to_string());
    let problems = RwSignal::new(Vec::<String>::new());
    let agent_kind = RwSignal::new("model".to_string());
    let random_seed = RwSignal::new("0".to_string());
    let phase = RwSignal::new(Phase::Idle);
    let tick = RwSignal::new(0u64);
    // Bumped when an episode finishes: the results are recomputed then, not per request.
    let finished_tick = RwSignal::new(0u64);
    let shared: StoredValue<Shared, LocalStorage> =
        StoredValue::new_local(Rc::new(RefCell::new(None)));
    let resume_note = RwSignal::new(None::<String>);

    let bump = move || tick.update(|t| *t += 1);
    let bump_finished = move || finished_tick.update(|t| *t += 1);

    // Runs the workers until the run is complete, stopped or paused-and-stopped.
    let launch = move || {
        let live = shared.get_value();
        let workers = live
            .borrow()
            .as_ref()
            .map_or(0, |l| l.run.plan.concurrency as usize);
        if let Some(l) = live.borrow_mut().as_mut() {
            l.workers = workers;
            l.started_ms = now_ms();
            l.finished_here = 0;
            if let Err(e) = store_state(l, RunState::Running) {
                l.save_error = Some(e);
            }
        }
        phase.set(Phase::Running);
        for _ in 0..workers {
            let live = live.clone();
            leptos::task::spawn_local(async move {
                worker(live.clone(), bump, bump_finished).await;
                let all_done = {
                    let mut b = live.borrow_mut();
                    let Some(l) = b.as_mut() else { return };
                    l.workers -= 1;
                    if l.workers > 0 {
                        return;
                    }
                    let complete = l.run.is_complete();
                    let state = if complete {
                        RunState::Complete
                    } else {
                        RunState::Paused
                    };
                    if let Err(e) = store_state(l, state) {
                        l.save_error = Some(e);
                    }
                    complete
                };
                phase.set(if all_done {
                    Phase::Complete
                } else {
                    Phase::Stopped
                });
                bump();
            });
        }
        bump();
    };

    // A stored run: resume at once if it was running and its key is at hand.
    match load_stored() {
        Some(Ok((stored, run))) => {
            let key = keys::key(&stored.plan.profile.name);
            let can_run = !stored.key_needed || key.is_some();
            let complete = run.is_complete();
            shared.get_value().replace(Some(Live::new(run, key)));
            if complete {
                phase.set(Phase::Complete);
            } else if stored.state == RunState::Running && can_run {
                resume_note.set(Some("The run resumed where it stopped.".into()));
                launch();
            } else {
                phase.set(Phase::Stopped);
                if !can_run {
                    resume_note.set(Some(format!(
                        "Enter the API key of profile \u{201c}{}\u{201d} to resume (keys are not kept unless remembered).",
                        stored.plan.profile.name
                    )));
                }
            }
        }
        Some(Err(e)) => resume_note.set(Some(format!("{e}; it was discarded."))),
        None => {}
    }

    let start = move |_| {
        let profile = setup.profiles.with_untracked(|p| p.current().clone());
        let sel = selection.get_untracked();
        let tasks: Vec<String> = sel.tasks(suite).iter().map(|t| t.id.clone()).collect();
        let mut found = Vec::new();
        let episodes_per_task = episodes_text
            .get_untracked()
            .trim()
            .parse()
            .unwrap_or_else(|_| {
                found.push("Episodes per task must be a whole number.".to_string());
                1
            });
        let concurrency = concurrency_text
            .get_untracked()
            .trim()
            .parse()
            .unwrap_or_else(|_| {
                found.push("Concurrency must be a whole number.".to_string());
                4
            });
        let settings = setup
            .settings
            .get_untracked()
            .resolved(profile.provider, crate::browser::video::can_record());
        let agent = match agent_kind.get_untracked().as_str() {
            "random" => match random_seed.get_untracked().trim().parse() {
                Ok(seed) => AgentChoice::Random { seed },
                Err(_) => {
                    found.push("The random agent's seed must be a whole number.".to_string());
                    AgentChoice::Random { seed: 0 }
                }
            },
            "oracle" => AgentChoice::Oracle,
            _ => AgentChoice::Model,
        };
        let plan = RunPlan {
            id: run_id(js_sys::Date::now()),
            agent,
            profile,
            settings,
            selection: sel,
            tasks,
            episodes_per_task,
            concurrency,
        };
        found.extend(plan.problems());
        if !found.is_empty() {
            problems.set(found);
            return;
        }
        problems.set(Vec::new());
        forget_stored();
        let key = Some(setup.key.get_untracked()).filter(|k| !k.is_empty());
        shared
            .get_value()
            .replace(Some(Live::new(SuiteRun::new(plan), key)));
        resume_note.set(None);
        bump_finished();
        launch();
    };
    let resume = move |_| {
        let live = shared.get_value();
        if let Some(l) = live.borrow_mut().as_mut() {
            let key = keys::key(&l.run.plan.profile.name)
                .or_else(|| Some(setup.key.get_untracked()).filter(|k| !k.is_empty()));
            l.key = key;
            l.control = Rc::new(Control::default());
        }
        resume_note.set(None);
        launch();
    };
    let pause = move |_| {
        let paused = phase.get_untracked() == Phase::Running;
        if let Some(l) = shared.get_value().borrow().as_ref() {
            l.control.paused.set(paused);
        }
        phase.set(if paused {
            Phase::Paused
        } else {
            Phase::Running
        });
    };
    let stop = move |_| {
        if let Some(l) = shared.get_value().borrow_mut().as_mut() {
            l.control.stopped.set(true);
            if let Err(e) = store_state(l, RunState::Paused) {
                l.save_error = Some(e);
            }
        }
    };
    let discard = move |_| {
        forget_stored();
        shared.get_value().replace(None);
        phase.set(Phase::Idle);
        resume_note.set(None);
        bump();
        bump_finished();
    };

    // Recomputed per change, but the view below only updates the text that changed
    // (rebuilding the section per request would cost the run time).
    let progress = Memo::new(move |_| {
        tick.get();
        let live = shared.get_value();
        let b = live.borrow();
        b.as_ref().map(|l| {
            let (done, total) = (l.run.finished(), l.run.total());
            let elapsed = now_ms() - l.started_ms;
            let eta = eta_ms(l.finished_here, elapsed, total - done)
                .filter(|_| done < total)
                .map(|ms| format!("about {} left", format_duration(ms)))
                .unwrap_or_default();
            let active: Vec<String> = l
                .active
                .values()
                .map(|e| {
                    let e = e.borrow();
                    let task = e.runner().map(|r| r.task().id.clone()).unwrap_or_default();
                    format!("{task} (decision {})", e.step())
                })
                .collect();
            let work = if l.requests > 0 {
                l.work_ms / l.requests as f64
            } else {
                0.0
            };
            let p = &l.run.plan;
            Progress {
                done,
                total,
                running: l.run.running(),
                eta,
                active,
                work: format!("{work:.2}"),
                save_error: l.save_error.clone(),
                summary: format!(
                    "Run {} · {} · {} task(s) × {} · {} in parallel",
                    p.id,
                    match p.agent {
                        AgentChoice::Model => p.profile.model.clone(),
                        AgentChoice::Random { seed } => format!("random (seed {seed})"),
                        AgentChoice::Oracle => "oracle".to_string(),
                    },
                    p.tasks.len(),
                    p.episodes_per_task,
                    p.concurrency
                ),
            }
        })
    });
    let has_run = Memo::new(move |_| progress.with(Option::is_some));
    let field = move |f: fn(&Progress) -> String| {
        move || progress.with(|p| p.as_ref().map(f).unwrap_or_default())
    };
    let results = move || {
        finished_tick.get();
        let live = shared.get_value();
        let b = live.borrow();
        b.as_ref().filter(|l| l.run.finished() > 0).map(|l| {
            (
                l.run.results(suite),
                l.run
                    .episodes()
                    .map(|(i, e)| (i, e.clone()))
                    .collect::<Vec<_>>(),
            )
        })
    };
    let running = move || matches!(phase.get(), Phase::Running | Phase::Paused);

    let count = move || {
        let n = selection.with(|s| s.tasks(suite).len());
        format!("{n} task(s) selected")
    };
    view! {
        <div class="suite-run-page">
            <h1>"Run the suite with a model"</h1>
            <p class="lead">"Every episode follows the V-ICAL protocol; finished episodes are saved in this browser as they finish, so closing or reloading the tab loses nothing."</p>
            {move || resume_note.get().map(|n| view! { <p class="note" role="status" data-testid="resume-note">{n}</p> })}
            <div class="run-columns">
                <div class="run-form">
                    <fieldset class="run-setup">
                        <legend>"Agent"</legend>
                        <div class="form-row">
                            <label for="run-agent">"Who plays"</label>
                            <select id="run-agent" data-testid="run-agent"
                                on:change=move |ev| agent_kind.set(event_target_value(&ev))>
                                <option value="model">"the model of an endpoint profile"</option>
                                <option value="random">"random (a baseline)"</option>
                                <option value="oracle">"oracle (a baseline)"</option>
                            </select>
                            <span class="pair">
                            <label for="run-agent-seed">"seed"</label>
                            <input id="run-agent-seed" data-testid="run-agent-seed" inputmode="numeric"
                                disabled=move || agent_kind.get() != "random"
                                prop:value=move || random_seed.get()
                                on:input=move |ev| random_seed.set(event_target_value(&ev)) />
                            </span>
                        </div>
                        <p class="hint">"The built-in agents play in this tab without any request; their results files compare with model runs and human studies on /compare."</p>
                    </fieldset>
                    {move || (agent_kind.get() == "model").then(|| view! { <RunSetup state=setup /> })}
                    <fieldset class="run-setup">
                        <legend>"Tasks"</legend>
                        <AnyOrOne id="sel-env" label="Environment" options=env_options
                            pick=Callback::new(move |v| selection.update(|s| s.env = v)) />
                        <AnyOrOne id="sel-tag" label="Tag" options=tag_options
                            pick=Callback::new(move |v| selection.update(|s| s.tag = v)) />
                        <div class="form-row">
                            <label for="sel-contains">"Task id contains"</label>
                            <input id="sel-contains" data-testid="sel-contains"
                                prop:value=move || selection.with(|s| s.contains.clone())
                                on:input=move |ev| { let v = event_target_value(&ev); selection.update(|s| s.contains = v); } />
                        </div>
                        <p class="hint" data-testid="sel-count">{count}</p>
                        <div class="form-row">
                            <label for="run-episodes">"Episodes per task"</label>
                            <input id="run-episodes" data-testid="run-episodes" inputmode="numeric"
                                prop:value=move || episodes_text.get()
                                on:input=move |ev| episodes_text.set(event_target_value(&ev)) />
                            <label for="run-concurrency">"Parallel episodes"</label>
                            <input id="run-concurrency" data-testid="run-concurrency" inputmode="numeric"
                                prop:value=move || concurrency_text.get()
                                on:input=move |ev| concurrency_text.set(event_target_value(&ev)) />
                        </div>
                    </fieldset>
                    <div class="form-actions">
                        <button type="button" data-testid="suite-start" on:click=start disabled=running>"Start a new run"</button>
                        <button type="button" data-testid="suite-resume" on:click=resume
                            disabled=move || phase.get() != Phase::Stopped>"Resume"</button>
                        <button type="button" data-testid="suite-pause" on:click=pause disabled=move || !running()>
                            {move || if phase.get() == Phase::Paused { "Continue" } else { "Pause" }}
                        </button>
                        <button type="button" data-testid="suite-stop" on:click=stop disabled=move || !running()>"Stop"</button>
                        <button type="button" data-testid="suite-discard" on:click=discard disabled=running>"Discard the saved run"</button>
                    </div>
                    {move || {
                        let p = problems.get();
                        (!p.is_empty()).then(|| view! {
                            <ul class="field-error" role="alert" data-testid="suite-problems">
                                {p.into_iter().map(|e| view! { <li>{e}</li> }).collect_view()}
                            </ul>
                        })
                    }}
                </div>
                <div class="run-live">
                    {move || has_run.get().then(|| view! {
                        <section class="suite-progress" aria-label="Progress">
                            <p class="hint">{field(|p| p.summary.clone())}</p>
                            <progress data-testid="suite-progress" aria-label="Episodes finished"
                                max=field(|p| p.total.to_string()) value=field(|p| p.done.to_string())></progress>
                            <p role="status" data-testid="suite-status">
                                <span data-testid="suite-done">{field(|p| p.done.to_string())}</span>
                                " of "
                                <span data-testid="suite-total">{field(|p| p.total.to_string())}</span>
                                " episodes finished · "
                                {field(|p| p.running.to_string())}
                                " running"
                            </p>
                            <p class="hint" data-testid="suite-eta">{field(|p| p.eta.clone())}</p>
                            <p class="hint">"App work per request: " <span data-testid="suite-work">{field(|p| p.work.clone())}</span> " ms"</p>
                            {move || progress.with(|p| p.as_ref().and_then(|p| p.save_error.clone()))
                                .map(|e| view! { <p class="field-error" role="alert">{e}</p> })}
                            <ul class="active-episodes" data-testid="suite-active">
                                <For
                                    each=move || progress.with(|p| {
                                        p.as_ref().map(|p| p.active.clone()).unwrap_or_default().into_iter().enumerate()
                                    })
                                    key=|a| a.clone()
                                    children=|(_, a)| view! { <li>{a}</li> }
                                />
                            </ul>
                        </section>
                    })}
                    <p class="run-phase" data-testid="suite-phase">
                        {move || match phase.get() {
                            Phase::Idle => "",
                            Phase::Running => "Running",
                            Phase::Paused => "Paused",
                            Phase::Stopped => "Stopped: resume to finish the remaining episodes",
                            Phase::Complete => "Complete",
                        }}
                    </p>
                </div>
            </div>
            {move || results().map(|(file, episodes)| {
                let json = file.to_json();
                let csv = file.to_csv();
                let id = file.config.as_ref().and_then(|c| c.get("run_id")).and_then(|v| v.as_str()).unwrap_or("run").to_string();
                let (jn, cn) = (format!("playbench-results-{id}.json"), format!("playbench-results-{id}.csv"));
                view! {
                    <section class="suite-results" aria-label="Results">
                        <h2>"Results"</h2>
                        <div class="form-actions">
                            <button type="button" data-testid="export-json" on:click=move |_| { let _ = download(&jn, "application/json", &json); }>"Export JSON"</button>
                            <button type="button" data-testid="export-csv" on:click=move |_| { let _ = download(&cn, "text/csv", &csv); }>"Export CSV"</button>
                        </div>
                        <ResultsTable results=file.clone() />
                        <EpisodeList file=file episodes=episodes />
                    </section>
                }
            })}
        </div>
    }
}

/// A select of "all" or one of `options`.
#[component]
fn AnyOrOne(
    id: &'static str,
    label: &'static str,
    options: Vec<String>,
    pick: Callback<Option<String>>,
) -> impl IntoView {
    view! {
        <div class="form-row">
            <label for=id>{label}</label>
            <select id=id data-testid=id on:change=move |ev| {
                let v = event_target_value(&ev);
                pick.run((!v.is_empty()).then_some(v));
            }>
                <option value="">"all"</option>
                {options.into_iter().map(|o| view! { <option value=o.clone()>{o.clone()}</option> }).collect_view()}
            </select>
        </div>
    }
}

/// Finished episodes with their outcome and a replay link (made when followed: a
/// link holds the whole episode).
#[component]
fn EpisodeList(
    file: bench::results::ResultsFile,
    episodes: Vec<(usize, ResultEpisode)>,
) -> impl IntoView {
    let file = std::sync::Arc::new(file);
    view! {
        <details class="episode-list">
            <summary>{format!("{} episode(s)", episodes.len())}</summary>
            <ol data-testid="suite-episodes">
                {episodes
                    .into_iter()
                    .enumerate()
                    .map(|(n, (_, e))| {
                        let outcome = if e.record.passed {
                            "passed".to_string()
                        } else {
                            failure_key(e.record.failure).replace('_', " ")
                        };
                        let file = file.clone();
                        let open_replay = move |ev: leptos::ev::MouseEvent| {
                            ev.prevent_default();
                            let href = match episode_link(&file, n) {
                                Ok(EpisodeLink::Fragment { href }) => href,
                                Ok(EpisodeLink::Stored { href, storage_key, json }) => {
                                    if storage::set(&storage_key, &json).is_err() {
                                        return;
                                    }
                                    href
                                }
                                Err(_) => return,
                            };
                            let _ = window().location().set_href(&href);
                        };
                        view! {
                            <li data-task=e.record.task.clone() data-repeat=e.repeat>
                                <code>{e.record.task.clone()}</code>
                                {format!(" #{} · score {:.1} · {outcome} · {} decisions ", e.repeat + 1, e.record.score, e.record.decisions.len())}
                                <a href="/episode" on:click=open_replay data-testid="suite-replay">"replay"</a>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        </details>
    }
}

impl Live {
    /// Stores a finished episode at once (a reload keeps it) and counts it.
    fn finish(
        &mut self,
        job: usize,
        record: bench::EpisodeRecord,
        usage: Option<bench::results::Usage>,
    ) {
        let episode = ResultEpisode {
            record,
            repeat: self.run.jobs()[job].repeat,
            usage,
        };
        let saved = serde_json::to_string(&episode)
            .map_err(|e| e.to_string())
            .and_then(|json| storage::set(&episode_storage_key(&self.run.plan.id, job), &json));
        if let Err(err) = saved {
            self.save_error = Some(err);
        }
        self.run.finish(job, episode);
        self.finished_here += 1;
    }
}

/// Takes jobs until none is left or the run is stopped.
async fn worker(live: Shared, bump: impl Fn() + Copy + 'static, finished: impl Fn()) {
    loop {
        let (job, task, settings, profile, control, key, demo_images, local) = {
            let mut b = live.borrow_mut();
            let Some(l) = b.as_mut() else { return };
            if l.control.stopped.get() {
                return;
            }
            let Some((job, j)) = l.run.take_job() else {
                return;
            };
            let Ok(task) = suite_data::find_task(&j.task) else {
                l.run.release(job);
                return;
            };
            let demo_images = l.demo_images.entry(task.id.clone()).or_default().clone();
            (
                job,
                task,
                l.run.plan.settings.clone(),
                l.run.plan.profile.clone(),
                l.control.clone(),
                l.key.clone(),
                demo_images,
                l.run.plan.agent.local_agent(j.repeat),
            )
        };
        // A built-in agent plays at once, without requests; the pause lets the page
        // draw between episodes.
        if let Some(mut agent) = local {
            sleep(1).await;
            let played = run_episode(task, agent.as_mut());
            if let Some(l) = live.borrow_mut().as_mut() {
                match played {
                    Ok(record) => l.finish(job, record, None),
                    Err(e) => {
                        l.run.release(job);
                        l.save_error = Some(format!("{}: {e}", task.id));
                        return;
                    }
                }
            }
            bump();
            finished();
            continue;
        }
        let made = ModelEpisode::new(task, profile.endpoint(), settings.session, profile.prices)
            .map(|ep| (ep, ImageEncoder::new(settings.image)));
        let (mut ep, mut encoder) = match made {
            Ok(x) => x,
            Err(e) => {
                if let Some(l) = live.borrow_mut().as_mut() {
                    l.run.release(job);
                    l.save_error = Some(format!("{}: {e}", task.id));
                }
                return;
            }
        };
        ep.share_demo_images(demo_images, settings.image_key());
        let ep = Rc::new(RefCell::new(ep));
        if let Some(l) = live.borrow_mut().as_mut() {
            l.active.insert(job, ep.clone());
        }
        bump();
        let ended = drive(
            ep.clone(),
            &mut encoder,
            key,
            profile.timeout_s,
            profile.base_url.clone(),
            settings.video_fps,
            control,
            bump,
        )
        .await;
        let mut b = live.borrow_mut();
        let Some(l) = b.as_mut() else { return };
        l.active.remove(&job);
        let e = ep.borrow();
        l.work_ms += e.turns().iter().map(|t| t.work_ms).sum::<f64>();
        l.requests += e.turns().len();
        match (ended, e.record()) {
            (Ended::Finished, Some(record)) => {
                l.finish(job, record.clone(), Some(e.usage().clone()))
            }
            _ => l.run.release(job),
        }
        drop(e);
        drop(b);
        bump();
        finished();
    }
}
