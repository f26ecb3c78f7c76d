//! `/run/suite[?suite=S]`: a built-in suite (the default one unless `suite=` names
//! another; or a selection by environment, tag or id) with a model, several episodes at
//! a time (default 4), a progress bar with ETA, every finished episode stored at once
//! so a reload resumes where the run stopped, and the results table with a chart,
//! exportable as JSON and CSV with the configuration embedded. The run itself is
//! `browser::suite_runner`, started, paused and stopped by the `RunController`.

use std::cell::RefCell;
use std::rc::Rc;

use bench::results::ResultEpisode;
use bench::Suite;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::browser::files::download;
use crate::browser::keys;
use crate::browser::run_controller::RunController;
use crate::browser::storage::local;
use crate::browser::suite_runner::{worker, Live, Progress, SharedRun};
use crate::browser::tab_lock::{self, TabLock};
use crate::components::results_view::ResultsTable;
use crate::components::rom_drop::RomDrop;
use crate::components::run_setup::{RunSetup, RunSetupState};
use crate::pages::home::set_title;
use crate::pages::task::TaskLoadErrorBox;
use crate::replay::episode_links::episode_link;
use crate::routes;
use crate::runner::control::RunPhase;
use crate::runner::suite_run::{
    run_id, PlanForm, Replace, RunState, Selection, StoredRun, SuiteRun,
};
use crate::suite_data;
use crate::task_session::failure_key;

/// How long a discarded run can be put back.
const UNDO_SECONDS: u64 = 20;

/// Said while another tab runs this browser's suite run.
const ELSEWHERE: &str = "This suite run is going on in another tab of this browser: it goes on here when that tab stops or is closed.";
const ELSEWHERE_NEW: &str = "A suite run is going on in another tab of this browser: stop it there (or close that tab) before starting another or discarding it.";

#[component]
pub fn SuiteRunPage() -> impl IntoView {
    set_title("Run the suite with a model · Playbench");
    let query = use_query_map();
    let wanted = Memo::new(move |_| query.with(|q| q.get_str("suite").map(str::to_string)));
    move || match suite_data::suite_for(wanted.get().as_deref()) {
        Ok(suite) => view! { <SuiteRunView suite=suite /> }.into_any(),
        Err(e) => view! { <TaskLoadErrorBox error=e /> }.into_any(),
    }
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
    let run = RunController::new();
    let tick = RwSignal::new(0u64);
    // Bumped when an episode finishes: the results are recomputed then, not per request.
    let finished_tick = RwSignal::new(0u64);
    let shared: StoredValue<SharedRun, LocalStorage> =
        StoredValue::new_local(Rc::new(RefCell::new(None)));
    let resume_note = RwSignal::new(None::<String>);
    // The destructive action waiting for its confirmation, if any.
    let confirm = RwSignal::new(None::<Replace>);
    // What the last discard removed, kept for a short while to undo it.
    let undo = RwSignal::new(None::<(u64, Vec<(String, String)>)>);

    let bump = move || tick.update(|t| *t += 1);
    let bump_finished = move || finished_tick.update(|t| *t += 1);

    // The buttons sit below a long form: bring the progress they start into view.
    // (After the next render: a new run's panel does not exist yet.)
    let show_progress = || {
        set_timeout(
            || {
                let panel = document().query_selector(".suite-progress").ok().flatten();
                if let Some(panel) = panel {
                    panel.scroll_into_view();
                }
            },
            std::time::Duration::from_millis(50),
        );
    };

    // This browser's one suite run goes on in one tab at a time (`browser::tab_lock`):
    // the lock is held from the start of the workers to their end.
    let tab_lock: StoredValue<Option<TabLock>, LocalStorage> = StoredValue::new_local(None);
    // Already waiting for the other tab (a second waiter would take over twice).
    let waiting = StoredValue::new(false);
    // Another tab runs the saved run: this one must not replace or discard it.
    let elsewhere = RwSignal::new(false);

    // Runs the workers until the run is complete or stopped.
    let run_loaded = move || {
        let live = shared.get_value();
        let workers = {
            let mut b = live.borrow_mut();
            let Some(l) = b.as_mut() else { return };
            l.launched();
            l.run.plan.concurrency as usize
        };
        let done = live.clone();
        let ended = live.clone();
        run.start(
            workers,
            move |control| worker(live.clone(), control, bump, bump_finished),
            move || done.borrow().as_ref().is_some_and(|l| l.run.is_complete()),
            move |phase| {
                if let Some(l) = ended.borrow_mut().as_mut() {
                    l.store_state(if phase == RunPhase::Finished {
                        RunState::Complete
                    } else {
                        RunState::Paused
                    });
                }
                tab_lock.set_value(None);
                bump();
            },
        );
        bump();
    };
    // As `run_loaded`, once MuJoCo (for the Fetch tasks) and the bundled pictures the
    // run's tasks play are in this tab.
    let run_workers = move || {
        let tasks: Vec<&'static bench::Task> = shared
            .get_value()
            .borrow()
            .as_ref()
            .map(|l| {
                l.run
                    .plan
                    .tasks
                    .iter()
                    .filter_map(|id| suite.task(id))
                    .collect()
            })
            .unwrap_or_default();
        let needs_physics = tasks.iter().any(|t| crate::physics::needs_loading(&t.env));
        let needs_pictures = tasks
            .iter()
            .any(|t| crate::image_sets::missing_set(&t.env, &t.kwargs).is_some());
        if !needs_physics && !needs_pictures {
            run_loaded();
            return;
        }
        resume_note.set(Some(
            match (needs_physics, needs_pictures) {
                (true, true) => "Loading MuJoCo and the pictures the tasks play…",
                (true, false) => "Loading MuJoCo, the physics engine of the robot tasks…",
                _ => "Loading the pictures the tasks play…",
            }
            .into(),
        ));
        leptos::task::spawn_local(async move {
            let physics = if needs_physics {
                crate::browser::mujoco::load().await
            } else {
                Ok(())
            };
            let loaded = match physics {
                Ok(()) => crate::browser::image_sets::load_for_tasks(&tasks).await,
                Err(e) => Err(e),
            };
            match loaded {
                Ok(()) => {
                    resume_note.set(None);
                    run_loaded();
                }
                Err(e) => {
                    run.set_phase(RunPhase::Stopped);
                    tab_lock.set_value(None);
                    resume_note.set(Some(format!("The run cannot go on: {e}.")));
                }
            }
        });
    };

    // The run as another tab left it, once that tab let go of it.
    let take_over = move |lock: TabLock| {
        let Some(Ok((stored, restored))) = StoredRun::load(&local()) else {
            run.set_phase(RunPhase::Idle);
            resume_note.set(Some("The other tab discarded the run.".into()));
            return;
        };
        let key = keys::key(&stored.plan.profile.name)
            .or_else(|| Some(setup.key.get_untracked()).filter(|k| !k.is_empty()));
        let complete = restored.is_complete();
        match Live::new(restored, key) {
            Ok(live) => {
                shared.get_value().replace(Some(live));
                bump_finished();
            }
            Err(e) => {
                resume_note.set(Some(format!("The stored run cannot continue: {e}")));
                return;
            }
        }
        if complete {
            run.set_phase(RunPhase::Finished);
            resume_note.set(Some("The other tab finished the run.".into()));
        } else if stored.state == RunState::Running {
            resume_note.set(Some(
                "The other tab was closed: the run goes on here where it stopped.".into(),
            ));
            tab_lock.set_value(Some(lock));
            run_workers();
        } else {
            run.set_phase(RunPhase::Stopped);
            resume_note.set(Some(
                "The other tab stopped the run: resume it here when you like.".into(),
            ));
        }
    };

    // Starts the workers once this tab holds the run; while another tab does, says so
    // and waits for it to stop or close.
    let launch = move || {
        if tab_lock.with_value(Option::is_some) {
            run_workers();
            return;
        }
        leptos::task::spawn_local(async move {
            match tab_lock::acquire(tab_lock::SUITE_RUN, false).await {
                Ok(Some(lock)) => {
                    tab_lock.set_value(Some(lock));
                    run_workers();
                }
                Ok(None) => {
                    run.set_phase(RunPhase::Stopped);
                    resume_note.set(Some(ELSEWHERE.into()));
                    elsewhere.set(true);
                    if waiting.get_value() {
                        return;
                    }
                    waiting.set_value(true);
                    let granted = tab_lock::acquire(tab_lock::SUITE_RUN, true).await;
                    waiting.set_value(false);
                    elsewhere.set(false);
                    problems.set(Vec::new());
                    if let Ok(Some(lock)) = granted {
                        take_over(lock);
                    }
                }
                // No Web Locks in this browser: nothing to guard with.
                Err(_) => run_workers(),
            }
        });
    };

    // A stored run: resume at once if it was running and its key is at hand.
    match StoredRun::load(&local()) {
        Some(Ok((stored, restored))) => {
            // The form shows the saved run's choices, not the defaults.
            let form = PlanForm::of(&stored.plan);
            selection.set(stored.plan.selection.clone());
            episodes_text.set(form.episodes);
            concurrency_text.set(form.concurrency);
            agent_kind.set(form.agent);
            random_seed.set(form.random_seed);
            let key = keys::key(&stored.plan.profile.name);
            let can_run = !stored.key_needed || key.is_some();
            let complete = restored.is_complete();
            match Live::new(restored, key) {
                Ok(live) => {
                    shared.get_value().replace(Some(live));
                    if complete {
                        run.set_phase(RunPhase::Finished);
                    } else if stored.state == RunState::Running && can_run {
                        resume_note.set(Some("The run resumed where it stopped.".into()));
                        launch();
                    } else {
                        run.set_phase(RunPhase::Stopped);
                        if !can_run {
                            resume_note.set(Some(format!(
                                "Enter the API key of profile \u{201c}{}\u{201d} to resume (keys are not kept unless remembered).",
                                stored.plan.profile.name
                            )));
                        }
                    }
                }
                Err(e) => resume_note.set(Some(format!("The stored run cannot continue: {e}"))),
            }
        }
        Some(Err(e)) => resume_note.set(Some(format!("{e}; it was discarded."))),
        None => {}
    }

    let start_locked = move || {
        let profile = setup.profiles.with_untracked(|p| p.current().clone());
        let settings = setup.settings.get_untracked().resolved(profile.provider);
        let form = PlanForm {
            episodes: episodes_text.get_untracked(),
            concurrency: concurrency_text.get_untracked(),
            agent: agent_kind.get_untracked(),
            random_seed: random_seed.get_untracked(),
        };
        let made = form.plan(
            run_id(js_sys::Date::now()),
            suite,
            profile,
            settings,
            selection.get_untracked(),
        );
        let plan = match made {
            Ok(plan) => plan,
            Err(found) => {
                problems.set(found);
                tab_lock.set_value(None);
                return;
            }
        };
        problems.set(Vec::new());
        // A new run is saved: a discarded one can no longer come back over it.
        undo.set(None);
        StoredRun::forget(&local());
        let key = Some(setup.key.get_untracked()).filter(|k| !k.is_empty());
        match Live::new(SuiteRun::new(plan), key) {
            Ok(live) => {
                shared.get_value().replace(Some(live));
            }
            Err(e) => {
                problems.set(vec![e]);
                tab_lock.set_value(None);
                return;
            }
        }
        resume_note.set(None);
        bump_finished();
        launch();
        show_progress();
    };
    let start_now = move || {
        leptos::task::spawn_local(async move {
            // A new run replaces the stored one: never while another tab is running it.
            match tab_lock::acquire(tab_lock::SUITE_RUN, false).await {
                Ok(Some(lock)) => tab_lock.set_value(Some(lock)),
                Ok(None) => {
                    problems.set(vec![ELSEWHERE_NEW.into()]);
                    return;
                }
                Err(_) => {}
            }
            start_locked();
        });
    };
    let resume = move |_| {
        let live = shared.get_value();
        if let Some(l) = live.borrow_mut().as_mut() {
            let key = keys::key(&l.run.plan.profile.name)
                .or_else(|| Some(setup.key.get_untracked()).filter(|k| !k.is_empty()));
            l.key = key;
        }
        resume_note.set(None);
        launch();
        show_progress();
    };
    let pause = move |_| run.toggle_pause();
    let stop = move |_| {
        run.stop();
        if let Some(l) = shared.get_value().borrow_mut().as_mut() {
            l.store_state(RunState::Paused);
        }
    };
    let discard_now = move || {
        let removed = StoredRun::forget_undoably(&local());
        if !removed.is_empty() {
            let id = undo.with_untracked(|u| u.as_ref().map_or(0, |(n, _)| n + 1));
            undo.set(Some((id, removed)));
            set_timeout(
                move || {
                    if undo.with_untracked(|u| u.as_ref().is_some_and(|(n, _)| *n == id)) {
                        undo.set(None);
                    }
                },
                std::time::Duration::from_secs(UNDO_SECONDS),
            );
        }
        shared.get_value().replace(None);
        run.set_phase(RunPhase::Idle);
        resume_note.set(None);
        bump();
        bump_finished();
    };

    // Recomputed per change, but the view below only updates the text that changed
    // (rebuilding the section per request would cost the run time).
    let progress = Memo::new(move |_| {
        tick.get();
        shared.get_value().borrow().as_ref().map(Live::progress)
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
                l.run.results(l.suite),
                l.run
                    .episodes()
                    .map(|(i, e)| (i, e.clone()))
                    .collect::<Vec<_>>(),
            )
        })
    };
    let running = move || run.is_active();
    // Starting over or discarding deletes the saved run: ask first (in the page).
    let saved = move || shared.get_value().borrow().is_some();
    // The Atari games of the selected tasks whose ROMs are not on this device; bumped
    // when ROMs are dropped on the page.
    let roms_added = RwSignal::new(0u32);
    let on_rom = Callback::new(move |_| roms_added.update(|n| *n += 1));
    let missing_roms = move || {
        roms_added.track();
        let mut names: Vec<&'static str> = Vec::new();
        for t in selection.get().tasks(suite) {
            if let Some(game) = crate::rom_shelf::missing_rom(&t.env) {
                if !names.contains(&game.name) {
                    names.push(game.name);
                }
            }
        }
        names
    };
    let start = move |_| {
        let missing = missing_roms();
        if !missing.is_empty() {
            problems.set(vec![format!(
                "The selected tasks play Atari games whose ROMs are not on this device ({}): \
                 drop them (or the ale-py wheel) above, or leave those tasks out of the selection.",
                missing.join(", ")
            )]);
        } else if elsewhere.get_untracked() {
            problems.set(vec![ELSEWHERE_NEW.into()]);
        } else if saved() {
            confirm.set(Some(Replace::Start));
        } else {
            start_now();
        }
    };
    let discard = move |_| {
        if elsewhere.get_untracked() {
            problems.set(vec![ELSEWHERE_NEW.into()]);
        } else {
            confirm.set(Some(Replace::Discard));
        }
    };
    let confirmed = move |_| {
        let Some(action) = confirm.get_untracked() else {
            return;
        };
        confirm.set(None);
        match action {
            Replace::Start => start_now(),
            Replace::Discard => discard_now(),
        }
    };
    let undo_note = move || {
        undo.with(|u| u.is_some()).then(|| {
            let put_back = move |_| {
                let Some((_, removed)) = undo.get_untracked() else { return };
                match StoredRun::undo_forget(&local(), &removed) {
                    // The page reads the run back as after any reload.
                    Ok(()) => {
                        let _ = window().location().reload();
                    }
                    Err(e) => problems.set(vec![format!("The run could not be put back: {e}")]),
                }
            };
            view! {
                <p class="notice" role="status" data-testid="suite-undo">
                    "The saved run was deleted. "
                    <button type="button" class="secondary small" data-testid="suite-undo-button" on:click=put_back>"Undo"</button>
                </p>
            }
        })
    };
    let question = move || {
        confirm.get().map(|action| {
            let (finished, total) = progress.with(|p| p.as_ref().map_or((0, 0), |p| (p.done, p.total)));
            let keep = (finished > 0).then(|| {
                view! {
                    <button type="button" data-testid="suite-confirm-download" on:click=move |_| {
                        let live = shared.get_value();
                        let b = live.borrow();
                        if let Some(l) = b.as_ref() {
                            let file = l.run.results(l.suite);
                            let id = l.run.plan.id.clone();
                            let _ = download(&format!("playbench-results-{id}.json"), "application/json", &file.to_json());
                        }
                    }>"Download its results (JSON)"</button>
                }
            });
            view! {
                <div class="notice confirm" role="alertdialog" aria-labelledby="suite-confirm-text" data-testid="suite-confirm">
                    <p id="suite-confirm-text">{action.question(finished, total)}</p>
                    <p class="form-actions">
                        {keep}
                        <button type="button" class="danger" data-testid="suite-confirm-yes" on:click=confirmed>{action.confirm_label()}</button>
                        <button type="button" class="secondary" data-testid="suite-confirm-no" autofocus on:click=move |_| confirm.set(None)>"Keep the saved run"</button>
                    </p>
                </div>
            }
        })
    };

    let count = move || {
        let n = selection.with(|s| s.tasks(suite).len());
        format!("{n} task(s) selected")
    };
    // What a model run of the selection would send, worked out on request (it plays
    // every selected task's oracle) and shown while the selection it was made for holds.
    let estimate = RwSignal::new(None::<(Selection, String, String)>);
    let make_estimate = move |_| {
        let sel = selection.get_untracked();
        let episodes = episodes_text.get_untracked();
        let n = episodes.trim().parse::<u32>().unwrap_or(1).max(1);
        let tasks = sel.tasks(suite);
        let text = setup.settings.with_untracked(|settings| {
            setup.profiles.with_untracked(|p| {
                crate::runner::estimate::suite_estimate_text(&tasks, n, settings, p.current())
            })
        });
        let text = text.unwrap_or_else(|e| format!("No estimate of what the run sends: {e}"));
        estimate.set(Some((sel, episodes, text)));
    };
    let estimate_text = move || {
        estimate.with(|e| {
            e.as_ref()
                .filter(|(sel, episodes, _)| {
                    selection.with(|s| s == sel) && episodes_text.with(|t| t == episodes)
                })
                .map(|(_, _, text)| text.clone())
        })
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
                                <option value="model" prop:selected=move || agent_kind.get() == "model">"the model of an endpoint profile"</option>
                                <option value="random" prop:selected=move || agent_kind.get() == "random">"random (a baseline)"</option>
                                <option value="oracle" prop:selected=move || agent_kind.get() == "oracle">"oracle (a baseline)"</option>
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
                            current=Signal::derive(move || selection.with(|s| s.env.clone()))
                            pick=Callback::new(move |v| selection.update(|s| s.env = v)) />
                        <AnyOrOne id="sel-tag" label="Tag" options=tag_options
                            current=Signal::derive(move || selection.with(|s| s.tag.clone()))
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
                        {move || (agent_kind.get() == "model").then(|| view! {
                            <div class="form-row">
                                <button type="button" class="secondary" data-testid="suite-estimate-button"
                                    on:click=make_estimate>"Estimate what the run sends"</button>
                            </div>
                            {move || estimate_text().map(|t| view! {
                                <p class="hint" role="status" data-testid="suite-estimate">{t}</p>
                            })}
                        })}
                    </fieldset>
                    {move || {
                        let missing = missing_roms();
                        (!missing.is_empty()).then(|| view! {
                            <div class="needs-rom" data-testid="suite-needs-roms">
                                <p>{format!(
                                    "The selected tasks include {} Atari games whose ROMs are not on this device (Playbench ships none): {}. Drop them here, or the ale-py wheel.",
                                    missing.len(),
                                    missing.join(", ")
                                )}</p>
                                <RomDrop on_added=on_rom />
                            </div>
                        })
                    }}
                    <div class="form-actions">
                        <button type="button" data-testid="suite-start" on:click=start disabled=running>"Start a new run"</button>
                        <button type="button" data-testid="suite-resume" on:click=resume
                            disabled=move || run.phase() != RunPhase::Stopped>"Resume"</button>
                        <button type="button" data-testid="suite-pause" on:click=pause disabled=move || !running()>
                            {move || if run.phase() == RunPhase::Paused { "Continue" } else { "Pause" }}
                        </button>
                        <button type="button" data-testid="suite-stop" on:click=stop disabled=move || !running()>"Stop"</button>
                        <button type="button" data-testid="suite-discard" on:click=discard disabled=move || running() || !has_run.get()>"Discard the saved run"</button>
                    </div>
                    {question}
                    {undo_note}
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
                            {move || progress.with(|p| p.as_ref().and_then(|p| p.unfinished.clone()))
                                .map(|t| view! { <p class="hint" data-testid="suite-unfinished">{t}</p> })}
                            {move || progress.with(|p| p.as_ref().and_then(|p| p.save_error.clone()))
                                .map(|e| view! { <p class="field-error" role="alert" data-testid="suite-save-error">{e}</p> })}
                            {move || progress.with(|p| p.as_ref().and_then(|p| p.last_error.clone()))
                                .map(|e| view! { <p class="field-error" role="alert" data-testid="suite-error">{e}</p> })}
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
                        {move || match run.phase() {
                            RunPhase::Idle => "",
                            RunPhase::Running => "Running",
                            RunPhase::Paused => "Paused",
                            RunPhase::Stopped => "Stopped: resume to finish the remaining episodes",
                            RunPhase::Finished => "Complete",
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
                        <p class="hint">"To find where a model's decisions broke down, export the JSON and audit it on "
                            <a href=routes::AUDIT data-testid="audit-link">"the trajectory auditor"</a>"; for GameVerse's games, check a milestone judge against the exact milestones on "
                            <a href=routes::JUDGE data-testid="suite-judge-link">"the milestone judge"</a>"."</p>
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
    /// The option shown (`None`: all).
    current: Signal<Option<String>>,
    pick: Callback<Option<String>>,
) -> impl IntoView {
    view! {
        <div class="form-row">
            <label for=id>{label}</label>
            <select id=id data-testid=id on:change=move |ev| {
                let v = event_target_value(&ev);
                pick.run((!v.is_empty()).then_some(v));
            }>
                <option value="" prop:selected=move || current.with(Option::is_none)>"all"</option>
                {options.into_iter().map(|o| {
                    let this = o.clone();
                    view! { <option value=o.clone() prop:selected=move || current.with(|c| c.as_ref() == Some(&this))>{crate::task_text::row_label(&o)}</option> }
                }).collect_view()}
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
                            // A stored episode is written first (made when followed: a
                            // link holds the whole episode).
                            if let Ok(link) = episode_link(&file, n) {
                                if let Ok(href) = link.prepare(&local()) {
                                    let _ = window().location().set_href(href);
                                }
                            }
                        };
                        view! {
                            <li data-task=e.record.task.clone() data-repeat=e.repeat>
                                <code>{e.record.task.clone()}</code>
                                {format!(" #{} · score {:.1} · {outcome} · {} decisions ", e.repeat + 1, e.record.score, e.record.decisions.len())}
                                <a href=routes::EPISODE on:click=open_replay data-testid="suite-replay">"replay"</a>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        </details>
    }
}
