//! `/run?task=ID[&suite=S]` (or `/run?fork=N#e=pb1.…`, a shared episode continued from
//! decision N): one task with a model, watched turn by turn — the current frame, the
//! demonstrations sent, every request and reply, retries and errors, latency, tokens
//! and cost — with pause and stop, then the pass, score and failure mode, the episode
//! file and its share link.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

use bench::share::{EpisodeFile, TaskRef};
use bench::Task;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_query_map};

use crate::browser::ahead::Ahead;
use crate::browser::drive::{drive, Ended};
use crate::browser::files::download;
use crate::browser::run_controller::RunController;
use crate::components::asset_gate::AssetGate;
use crate::components::error_box::ErrorBox;
use crate::components::frame_view::{FrameSource, FrameView};
use crate::components::latency_line::LatencyLine;
use crate::components::run_setup::{RunSetup, RunSetupState};
use crate::components::share_box::{page_origin, ShareBox};
use crate::components::turn_log::TurnLog;
use crate::pages::home::set_title;
use crate::pages::task::suite_task;
use crate::pages::task_play::{forked_task, suite_id};
use crate::replay::fork::ForkOrigin;
use crate::replay::share::{episode_file_name, share_target};
use crate::routes::{self, task_href};
use crate::runner::ahead::progress_text;
use crate::runner::control::RunPhase;
use crate::runner::latency_view::LatencyView;
use crate::task_session::{failure_text, score_text};
use crate::task_text;
use bench::encode::{FrameEncoder, ImageEncoder, ImageFormat, ImageSettings};
use bench::model_episode::{ModelEpisode, Turn};

/// What a run page runs: the task, how its episode file names it, the suite its links
/// lead to, and for a fork where it comes from.
#[derive(Clone, Debug, PartialEq)]
struct Target {
    task: Task,
    task_ref: TaskRef,
    suite: &'static str,
    origin: Option<ForkOrigin>,
}

/// The task to run and, for a fork, where it comes from.
fn resolve(
    suite: Option<&str>,
    task: Option<&str>,
    fork: Option<&str>,
    stored: Option<String>,
    hash: &str,
) -> Result<Target, String> {
    if let Some(step) = fork {
        let (task, origin, _) = forked_task(step, hash, stored)?;
        return Ok(Target {
            task: task.clone(),
            task_ref: TaskRef::Inline(Box::new(task.clone())),
            suite: suite_id(origin.suite.as_deref()),
            origin: Some(origin),
        });
    }
    let id = task.ok_or("Name a task: /run?task=ID (pick one on the suite page).")?;
    let (suite, task) = suite_task(suite, Some(id)).map_err(|e| e.to_string())?;
    Ok(Target {
        task: task.clone(),
        // The episode names the task in its own suite and version.
        task_ref: TaskRef::in_suite(suite, &task.id),
        suite: suite_id(Some(&suite.id)),
        origin: None,
    })
}

#[component]
pub fn RunPage() -> impl IntoView {
    let query = use_query_map();
    let location = use_location();
    let target = Memo::new(move |_| {
        let hash = location.hash.get();
        query.with(|q| {
            let stored = q.get_str("stored").map(str::to_string);
            resolve(
                q.get_str("suite"),
                q.get_str("task"),
                q.get_str("fork"),
                stored,
                &hash,
            )
        })
    });
    move || match target.get() {
        // Once a missing ROM or set of pictures is in, the run is set up.
        Ok(t) => {
            let env = t.task.env.clone();
            let kwargs = t.task.kwargs.clone();
            view! {
                <AssetGate env_id=env kwargs=kwargs>
                    <RunTask target=t.clone() />
                </AssetGate>
            }
            .into_any()
        }
        Err(why) => cannot_run(why).into_any(),
    }
}

fn cannot_run(why: String) -> impl IntoView {
    set_title("Cannot run · Playbench");
    view! {
        <ErrorBox
            title="This run cannot start".to_string()
            message=why
            back_href=routes::SUITE
            back_label="Back to the suite"
        />
    }
}

type Shared = Rc<RefCell<ModelEpisode>>;

#[component]
fn RunTask(target: Target) -> impl IntoView {
    let Target {
        task,
        task_ref,
        suite,
        origin,
    } = target;
    let title = task_text::title(&task).to_string();
    set_title(&format!("Run {title} with a model · Playbench"));
    let setup = RunSetupState::load();
    let episode = StoredValue::new_local(None::<Shared>);
    let run = RunController::new();
    let tick = RwSignal::new(0u64);
    let problems = RwSignal::new(Vec::<String>::new());
    // The demonstration clips the run's first turn sends, drawn when the strip opens.
    let demo_clips = RwSignal::new(0usize);
    // The settings the episode was started with (stored with its file).
    let run_config = StoredValue::new(serde_json::Map::new());
    let task = Arc::new(task);

    // What the run will send, from the settings as they are now.
    let estimate_text = {
        let task = task.clone();
        move || {
            setup.settings.with(|settings| {
                setup.profiles.with(|profiles| {
                    crate::runner::estimate::run_estimate_text(&task, settings, profiles.current())
                        .unwrap_or_else(|e| format!("No estimate of what the run sends: {e}"))
                })
            })
        }
    };
    // The first request prepared while the form is filled in, again when the settings
    // change (not during a run); the run shares what it encoded.
    let ahead = StoredValue::new_local(Ahead::new());
    let progress = ahead.with_value(|a| a.progress);
    Effect::new({
        let task = task.clone();
        move |_| {
            let profile = setup.profiles.with(|p| p.current().clone());
            let settings = setup.settings.get().resolved(profile.provider);
            if !run.is_active_untracked() {
                ahead.with_value(|a| a.restart(&task, &settings, &profile));
            }
        }
    });
    on_cleanup(move || {
        ahead.try_with_value(|a| a.stop());
    });
    let fork_origin = origin.clone();
    let start = {
        let task = task.clone();
        move |_| {
            let profile = setup.profiles.with_untracked(|p| p.current().clone());
            let settings = setup.settings.get_untracked().resolved(profile.provider);
            let mut found = profile.problems();
            found.extend(settings.problems());
            if !found.is_empty() {
                problems.set(found);
                return;
            }
            problems.set(Vec::new());
            let mut config = settings.record(&profile);
            if let Some(o) = &fork_origin {
                config.extend(o.settings());
            }
            run_config.set_value(config);
            let mut ep = match ModelEpisode::new(
                &task,
                profile.endpoint(),
                settings.session,
                profile.prices,
            ) {
                Ok(ep) => ep,
                Err(e) => {
                    problems.set(vec![format!("The episode could not start: {e}")]);
                    return;
                }
            };
            ahead.with_value(|a| {
                a.stop();
                ep.share_demo_images(a.cache.clone(), settings.image_key());
            });
            demo_clips.set(ep.demo_clips());
            let shared: Shared = Rc::new(RefCell::new(ep));
            episode.set_value(Some(shared.clone()));
            let key = Some(setup.key.get_untracked()).filter(|k| !k.is_empty());
            // The one worker plays the episode; it finished when its drive did.
            let finished = Rc::new(Cell::new(false));
            let done = finished.clone();
            run.start(
                1,
                move |control| {
                    let shared = shared.clone();
                    let key = key.clone();
                    let profile = profile.clone();
                    let finished = finished.clone();
                    let mut encoder = ImageEncoder::new(settings.image);
                    let video_fps = settings.video_fps;
                    async move {
                        let ended = drive(
                            shared,
                            &mut encoder,
                            key,
                            profile.timeout_s,
                            profile.base_url.clone(),
                            video_fps,
                            control,
                            move || tick.update(|t| *t += 1),
                        )
                        .await;
                        finished.set(ended == Ended::Finished);
                    }
                },
                move || done.get(),
                |_| {},
            );
        }
    };
    let pause = move |_| run.toggle_pause();
    let stop = move |_| run.stop();

    let turns = Signal::derive(move || {
        tick.get();
        episode.with_value(|e| {
            e.as_ref()
                .map(|e| e.borrow().turns().to_vec())
                .unwrap_or_default()
        })
    });
    // Before the start, the task's first frame (what the model will see first).
    let first_frame = bench::EpisodeRunner::start(&task).ok().map(|r| {
        let mut f = envs::Frame::default();
        r.env().render(&mut f);
        f
    });
    let frame = FrameSource::new(move |draw| {
        tick.get();
        episode.with_value(|e| match e {
            Some(e) => draw(e.borrow_mut().frame()),
            None => {
                if let Some(f) = &first_frame {
                    draw(f);
                }
            }
        });
    });
    let running = move || run.is_active();
    let task_for_view = task.clone();
    let task_for_latency = task.clone();
    let task_for_outcome = task.clone();
    let max_steps = task.max_steps;
    let base_id = task.id.split('~').next().unwrap_or(&task.id).to_string();
    view! {
        <div class="run-page">
            <nav class="crumbs" aria-label="Breadcrumb">
                <a href=task_href(suite, &base_id)>{format!("{title}: rules and demos")}</a>
            </nav>
            <h1>{format!("Run {title} with a model")}</h1>
            {origin.as_ref().map(|o| view! {
                <p class="notice fork-banner" role="note" data-testid="fork-note">
                    {format!("{} {} decisions are left.", o.text(), task_for_view.max_steps)}
                </p>
            })}
            <code class="task-id">{task.id.clone()}</code>
            <div class="run-columns">
                <div class="run-form">
                    <RunSetup state=setup />
                    <div class="form-actions">
                        <button type="button" data-testid="run-start" on:click=start disabled=running>
                            {move || if matches!(run.phase(), RunPhase::Finished | RunPhase::Stopped) { "Run again" } else { "Start" }}
                        </button>
                        <button type="button" data-testid="run-pause" on:click=pause disabled=move || !running()>
                            {move || if run.phase() == RunPhase::Paused { "Resume" } else { "Pause" }}
                        </button>
                        <button type="button" data-testid="run-stop" on:click=stop disabled=move || !running()>"Stop"</button>
                    </div>
                    <p class="hint" data-testid="run-estimate">{estimate_text}</p>
                    {move || progress.with(progress_text).map(|t| view! {
                        <p class="hint" data-testid="run-ahead">{t}</p>
                    })}
                    {move || {
                        let p = problems.get();
                        (!p.is_empty()).then(|| view! {
                            <ul class="field-error" role="alert" data-testid="run-problems">
                                {p.into_iter().map(|e| view! { <li>{e}</li> }).collect_view()}
                            </ul>
                        })
                    }}
                </div>
                <div class="run-live" aria-live="off">
                    <p class="run-phase" role="status" data-testid="run-phase"
                        data-phase=move || phase_word(run.phase())>
                        {move || match run.phase() {
                            RunPhase::Idle => "Not started.".to_string(),
                            RunPhase::Running => "Running\u{2026}".to_string(),
                            RunPhase::Paused => "Paused (the request in flight finishes first).".to_string(),
                            RunPhase::Finished => "Finished.".to_string(),
                            RunPhase::Stopped => "Stopped before the end: no episode was recorded.".to_string(),
                        }}
                    </p>
                    <figure class="stage">
                        <FrameView
                            frame=frame
                            label="The current frame, as the model sees it"
                            testid="run-frame"
                            class="frame pixelated"
                        />
                    </figure>
                    <Totals episode=episode tick=tick max_steps=max_steps />
                    <LiveLatency episode=episode tick=tick task=task_for_latency.clone() />
                    {move || (run.phase() == RunPhase::Finished).then(|| view! { <Outcome episode=episode task=task_for_outcome.clone() task_ref=task_ref.clone() config=run_config.get_value() /> })}
                    <DemoStrip clips=demo_clips episode=episode />
                </div>
            </div>
            <h2>"Requests and replies"</h2>
            <TurnLog turns=turns />
        </div>
    }
}

/// The phase as the page's `data-phase` says it (`setup` before the start).
fn phase_word(p: RunPhase) -> &'static str {
    match p {
        RunPhase::Idle => "setup",
        RunPhase::Running => "running",
        RunPhase::Paused => "paused",
        RunPhase::Finished => "finished",
        RunPhase::Stopped => "stopped",
    }
}

/// Small PNGs of the demonstration frames (as sent, captions included); none when
/// they cannot be drawn (the run then says why at its first request).
fn demo_images(ep: &mut ModelEpisode) -> Vec<Vec<String>> {
    let mut enc = ImageEncoder::new(ImageSettings {
        format: ImageFormat::Png,
        quality: 1.0,
        scale: 0.5,
    });
    ep.demos()
        .unwrap_or_default()
        .iter()
        .map(|clip| {
            clip.iter()
                .filter_map(|f| enc.encode(f).ok())
                .map(|img| format!("data:{};base64,{}", img.mime, img.base64()))
                .collect()
        })
        .collect()
}

/// The run's demonstrations, closed until asked for: their frames are drawn and
/// encoded when the strip first opens (not when Start is pressed, when the run's first
/// request needs the page).
#[component]
fn DemoStrip(
    clips: RwSignal<usize>,
    episode: StoredValue<Option<Shared>, LocalStorage>,
) -> impl IntoView {
    let images = RwSignal::new(None::<Vec<Vec<String>>>);
    // A new run, a new strip.
    Effect::new(move |_| {
        clips.track();
        images.set(None);
    });
    let opened = move |_| {
        if images.with_untracked(Option::is_none) {
            let drawn = episode.with_value(|e| {
                e.as_ref()
                    .map(|e| demo_images(&mut e.borrow_mut()))
                    .unwrap_or_default()
            });
            images.set(Some(drawn));
        }
    };
    move || {
        let count = clips.get();
        (count > 0).then(|| view! {
            <details class="demo-strip" data-testid="run-demos" on:toggle=opened>
                <summary>{format!("The {count} demonstration(s) sent in the first turn")}</summary>
                {move || images.get().unwrap_or_default()
                    .into_iter()
                    .enumerate()
                    .map(|(i, frames)| view! {
                        <p class="hint">{format!("Video {}: {} frames", i + 1, frames.len())}</p>
                        <div class="thumbs">
                            {frames
                                .into_iter()
                                .enumerate()
                                .map(|(j, src)| view! {
                                    <img src=src alt=format!("Video {} frame {}", i + 1, j + 1) loading="lazy" />
                                })
                                .collect_view()}
                        </div>
                    })
                    .collect_view()}
            </details>
        })
    }
}

fn stats(turns: &[Turn]) -> (f64, f64) {
    let answered: Vec<f64> = turns.iter().filter_map(|t| t.latency_ms).collect();
    let mean = |v: &[f64]| {
        if v.is_empty() {
            0.0
        } else {
            v.iter().sum::<f64>() / v.len() as f64
        }
    };
    let work: Vec<f64> = turns.iter().map(|t| t.work_ms).collect();
    (mean(&answered), mean(&work))
}

#[component]
fn Totals(
    episode: StoredValue<Option<Shared>, LocalStorage>,
    tick: RwSignal<u64>,
    max_steps: u32,
) -> impl IntoView {
    let text = move || {
        tick.get();
        episode.with_value(|e| {
            e.as_ref().map(|e| {
                let e = e.borrow();
                let u = e.usage();
                let (latency, work) = stats(e.turns());
                let cost = u
                    .cost_usd
                    .map(|c| format!(" · ${c:.4}"))
                    .unwrap_or_default();
                (
                    format!("Decision {} of {max_steps}", e.step()),
                    format!(
                        "{} requests · {} in / {} out tokens{cost} · mean latency {latency:.0} ms",
                        u.requests, u.input_tokens, u.output_tokens
                    ),
                    format!("{work:.2}"),
                    e.last_error()
                        .map(|err| crate::runner::diagnose::describe(err, e.key_sent())),
                )
            })
        })
    };
    move || {
        text().map(|(steps, usage, work, error)| view! {
            <dl class="run-totals">
                <dt>"Progress"</dt><dd data-testid="run-steps">{steps}</dd>
                <dt>"Usage"</dt><dd data-testid="run-usage">{usage}</dd>
                <dt>"App work per request"</dt><dd><span data-testid="work-mean">{work}</span>" ms (render, encode, build, parse)"</dd>
            </dl>
            {error.map(|e| view! { <p class="run-error" data-testid="run-error">"Last error: " {e}</p> })}
        })
    }
}

/// The latency mode and the thinking times so far of a real-time run, as it plays.
#[component]
fn LiveLatency(
    episode: StoredValue<Option<Shared>, LocalStorage>,
    tick: RwSignal<u64>,
    task: Arc<Task>,
) -> impl IntoView {
    move || {
        tick.get();
        episode
            .with_value(|e| {
                let e = e.as_ref()?.borrow();
                let source = e.latency_source()?.name();
                let decisions = match (e.runner(), e.record()) {
                    (Some(r), _) => r.decisions(),
                    (None, Some(rec)) => &rec.decisions,
                    (None, None) => &[],
                };
                LatencyView::of(&task, Some(&source), decisions)
            })
            .map(|v| view! { <LatencyLine view=v testid="run-latency" /> })
    }
}

#[component]
fn Outcome(
    episode: StoredValue<Option<Shared>, LocalStorage>,
    task: Arc<Task>,
    task_ref: TaskRef,
    mut config: serde_json::Map<String, serde_json::Value>,
) -> impl IntoView {
    let Some((record, settings, source)) = episode.with_value(|e| {
        e.as_ref().and_then(|e| {
            let e = e.borrow();
            let source = e.latency_source().map(|s| s.name());
            e.record().cloned().map(|r| (r, e.usage().clone(), source))
        })
    }) else {
        return ().into_any();
    };
    let latency = LatencyView::of(&task, source.as_deref(), &record.decisions)
        .map(|v| view! { <LatencyLine view=v testid="run-result-latency" /> });
    let usage = settings;
    if let Ok(u) = serde_json::to_value(&usage) {
        config.insert("usage".into(), u);
    }
    let file = EpisodeFile::from_record(task_ref, record.clone(), Some(config));
    let json = file.to_json();
    let target = share_target(&file, &page_origin());
    let verdict = if record.passed {
        "Passed"
    } else {
        "Not passed"
    };
    let failure = record.failure.map(|f| failure_text(Some(f))).unwrap_or("");
    let name = episode_file_name(&file);
    let download_name = name.clone();
    let save = move |_| {
        let _ = download(&download_name, "application/json", &json);
    };
    view! {
        <section class="result-card" data-testid="run-result" aria-label="Result"
            data-outcome=if record.passed { "passed" } else { "failed" }>
            <h2 data-testid="run-verdict">{verdict}</h2>
            <p>"Score " <strong data-testid="run-score">{score_text(record.score)}</strong>
                {(!failure.is_empty()).then(|| view! { " · " <span data-testid="run-failure">{failure}</span> })}
            </p>
            {latency}
            <button type="button" data-testid="run-download" on:click=save>"Download the episode file"</button>
            <ShareBox target=target file_name=name title="Share this episode" />
        </section>
    }
    .into_any()
}
