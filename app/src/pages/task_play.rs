//! `/task/play?id=ID[&suite=S][&record=1]`: a person plays a task of a built-in suite
//! under exactly the agent's conditions (`TaskSession` over `EpisodeRunner`), sees the
//! pass, score and failure mode computed as for an agent, and can share the episode as
//! a link (or its file when too large), download it or, in record mode, the play as a
//! demonstration clip. Presets play by key or button; a parametric action space adds
//! its form controls and a text box; pointer environments take clicks and drags on the
//! frame; real-time environments run on their clock (pause with P).
//!
//! `/task/play?fork=T#e=pb1.…` (or `?fork=T&stored=KEY`) plays on from decision `T` of a
//! shared episode (`crate::replay::fork`).

use std::cell::RefCell;
use std::collections::HashMap;

use bench::share::{TaskRef, LINK_PARAM};
use bench::suites::DEFAULT_SUITE;
use bench::Task;
use envs::core::action::Call;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate, use_query_map};
use leptos_router::NavigateOptions;

use crate::browser::storage::local;
use crate::browser::time::now_ms;
use crate::components::action_buttons::ActionButtons;
use crate::components::action_input::ParametricInput;
use crate::components::asset_gate::AssetGate;
use crate::components::error_box::ErrorBox;
use crate::components::frame_view::{FrameSource, FrameView, PointerInput};
use crate::components::keys::on_page_keys;
use crate::components::realtime::{realtime_timer, RealtimeBar};
use crate::components::share_box::{page_origin, ShareBox};
use crate::pages::home::set_title;
use crate::pages::task::{suite_task, TagChips, TaskFacts, TaskLoadErrorBox};
use crate::play_state::format_reward;
use crate::pointer::{self, NoGesture};
use crate::replay::fork::{fork, parse_fork_step, ForkOrigin};
use crate::replay::share::{episode_at_href, episode_file_name, share_target};
use crate::replay::source::{
    open_link, parse_viewer_fragment, read_stored, task_env, Origin, AT_PARAM,
};
use crate::routes::{self, task_href, task_play_href};
use crate::suite_data::TaskLoadError;
use crate::task_session::{
    failure_key, failure_text, json_data_url, score_text, TaskKey, TaskSession,
};
use crate::task_text;
use crate::url::{encode_component, parse_flag};

/// The largest size (CSS pixels) a frame is enlarged to.
const MAX_DISPLAY: u32 = 560;

type Session = RwSignal<Result<TaskSession, TaskLoadError>, LocalStorage>;

fn start(task: &'static Task) -> Result<TaskSession, TaskLoadError> {
    TaskSession::new(task).map_err(|why| TaskLoadError::CannotStart {
        id: task.id.clone(),
        why,
    })
}

#[component]
pub fn TaskPlay() -> impl IntoView {
    let query = use_query_map();
    let location = use_location();
    let found = Memo::new(move |_| {
        query.with(|q| {
            suite_task(q.get_str("suite"), q.get_str("id")).map(|(s, t)| (s, t.id.clone()))
        })
    });
    let record = Memo::new(move |_| {
        query.with(|q| q.get_str("record").and_then(parse_flag).unwrap_or(false))
    });
    let fork_step = Memo::new(move |_| query.with(|q| q.get_str("fork").map(str::to_string)));
    move || {
        // Each page waits for the ROM or the pictures its environment needs ("": none),
        // and starts its task once they are in.
        if let Some(step) = fork_step.get() {
            let stored = query.with_untracked(|q| q.get_str("stored").map(str::to_string));
            let hash = location.hash.get();
            let (env, kwargs) = fork_env(&hash, stored.as_deref()).unwrap_or_default();
            return view! {
                <AssetGate env_id=env kwargs=kwargs>
                    {forked_page(&step, &hash, stored.clone(), record)}
                </AssetGate>
            }
            .into_any();
        }
        let wanted = found.get();
        let (env, kwargs) = wanted
            .as_ref()
            .ok()
            .and_then(|(suite, id)| suite.task(id))
            .map(|task| (task.env.clone(), task.kwargs.clone()))
            .unwrap_or_default();
        view! {
            <AssetGate env_id=env kwargs=kwargs>
                {task_page(wanted.clone(), record)}
            </AssetGate>
        }
        .into_any()
    }
}

/// The play page of a fork link: the task continued from the episode's step `step`.
fn forked_page(step: &str, hash: &str, stored: Option<String>, record: Memo<bool>) -> AnyView {
    match forked_task(step, hash, stored) {
        Ok((task, origin, back)) => match start(task) {
            Ok(session) => {
                let session: Session = RwSignal::new_local(Ok(session));
                let task_ref = TaskRef::Inline(Box::new(task.clone()));
                let suite = suite_id(origin.suite.as_deref());
                view! { <PlayTask task=task suite=suite session=session record=record task_ref=task_ref fork=Some((origin, back)) /> }
                    .into_any()
            }
            Err(e) => view! { <TaskLoadErrorBox error=e /> }.into_any(),
        },
        Err(why) => {
            set_title("Cannot continue · Playbench");
            view! {
                <ErrorBox
                    title="This episode cannot be continued".to_string()
                    message=why
                    back_href=routes::EPISODE
                    back_label="Open the replay viewer"
                />
            }
            .into_any()
        }
    }
}

/// The play page of a suite's task.
fn task_page(
    wanted: Result<(&'static bench::Suite, String), TaskLoadError>,
    record: Memo<bool>,
) -> AnyView {
    let started = wanted.and_then(|(suite, id)| {
        let task = suite.task(&id).ok_or(TaskLoadError::MissingId)?;
        start(task).map(|s| (suite, task, s))
    });
    match started {
        Ok((suite, task, session)) => {
            let session: Session = RwSignal::new_local(Ok(session));
            // The episode names the task in its own suite and version.
            let task_ref = TaskRef::in_suite(suite, &task.id);
            view! { <PlayTask task=task suite=suite.id.as_str() session=session record=record task_ref=task_ref fork=None /> }
                .into_any()
        }
        Err(e) => {
            set_title("Cannot play · Playbench");
            view! { <TaskLoadErrorBox error=e /> }.into_any()
        }
    }
}

/// The environment (and its kwargs) of the episode a fork link continues.
fn fork_env(
    hash: &str,
    stored: Option<&str>,
) -> Option<(String, serde_json::Map<String, serde_json::Value>)> {
    let file = match (parse_viewer_fragment(hash).primary, stored) {
        (Some(link), _) => open_link(Origin::Link, &link).ok()?,
        (None, Some(key)) => read_stored(&local(), key).ok()?,
        (None, None) => return None,
    };
    task_env(&file.task)
}

/// A built-in suite's id as a `'static` string (the default for anything else).
pub(crate) fn suite_id(suite: Option<&str>) -> &'static str {
    bench::suites::ids()
        .into_iter()
        .find(|id| Some(*id) == suite)
        .unwrap_or(DEFAULT_SUITE)
}

/// A forked task, where it comes from, and the viewer link of that step.
pub(crate) type ForkedTask = (&'static Task, ForkOrigin, String);

thread_local! {
    /// Forked tasks by (episode text, step), kept for the session: the play view borrows
    /// tasks for `'static` like the suite's, and a fork opened again reuses its task.
    static FORKS: RefCell<HashMap<(String, usize), ForkedTask>> =
        RefCell::new(HashMap::new());
}

/// The task of `?fork=STEP` with the episode from the fragment or `?stored=KEY`.
pub(crate) fn forked_task(
    step: &str,
    hash: &str,
    stored: Option<String>,
) -> Result<ForkedTask, String> {
    let step = parse_fork_step(step)?;
    let (text, file) = match (parse_viewer_fragment(hash).primary, stored) {
        (Some(link), _) => (
            format!("{LINK_PARAM}{link}"),
            open_link(Origin::Link, &link),
        ),
        (None, Some(key)) => (format!("stored:{key}"), read_stored(&local(), &key)),
        (None, None) => {
            return Err("The link carries no episode: expected #e=pb1.… or &stored=KEY.".into())
        }
    };
    let key = (text, step);
    if let Some(hit) = FORKS.with(|f| f.borrow().get(&key).cloned()) {
        return Ok(hit);
    }
    let file = file.map_err(|e| e.to_string())?;
    let forked = fork(&file, step)?;
    // Leaked once per distinct fork (see FORKS): a task is a few kilobytes.
    let task: &'static Task = Box::leak(Box::new(forked.task));
    let back = if let Some(key) = key.0.strip_prefix("stored:") {
        format!(
            "{}?stored={}#{AT_PARAM}{step}",
            routes::EPISODE,
            encode_component(key)
        )
    } else {
        episode_at_href(&key.0, step)
    };
    let hit = (task, forked.origin, back);
    FORKS.with(|f| f.borrow_mut().insert(key, hit.clone()));
    Ok(hit)
}

fn read<T>(session: Session, f: impl FnOnce(&TaskSession) -> T, default: T) -> T {
    session.with(|s| s.as_ref().map_or(default, f))
}

#[component]
fn PlayTask(
    task: &'static Task,
    /// The built-in suite the task is from (links lead back to it).
    suite: &'static str,
    session: Session,
    record: Memo<bool>,
    /// How a shared episode of this play names its task.
    task_ref: TaskRef,
    /// The episode this play continues, if it is a fork, and its viewer link.
    fork: Option<(ForkOrigin, String)>,
) -> impl IntoView {
    let title = task_text::title(task).to_string();
    set_title(&format!("Play {title} · Playbench"));

    on_page_keys(move |key| {
        let mut handled = false;
        session.maybe_update(|s| {
            if let Ok(s) = s {
                let r = s.press_key_at(key, now_ms());
                handled = r.handled();
                return !matches!(r, TaskKey::Unbound | TaskKey::Over);
            }
            false
        });
        handled
    });

    // Real-time play: one timer feeds the clock (idle steps are recorded as they fall
    // due); the virtual time is shown apart so the frame redraws only on steps.
    let poll = Memo::new(move |_| read(session, TaskSession::poll_ms, None));
    let virtual_ms = RwSignal::new(0u64);
    realtime_timer(poll, move || {
        session.maybe_update(|s| s.as_mut().is_ok_and(|s| s.tick(now_ms())));
        virtual_ms.set(session.with_untracked(|s| {
            s.as_ref()
                .ok()
                .and_then(TaskSession::virtual_ms)
                .unwrap_or(0)
        }));
    });
    let realtime = move || {
        poll.get().is_some().then(|| {
            view! {
                <RealtimeBar
                    virtual_ms=Signal::derive(move || {
                        // The timer's tick redraws the time between steps; read from the
                        // session, it is also current at once after a key or a pause
                        // (which counts the time up to the pause).
                        virtual_ms.track();
                        read(session, |s| s.virtual_ms().unwrap_or(0), 0)
                    })
                    paused=Signal::derive(move || read(session, TaskSession::is_paused, false))
                    over=Signal::derive(move || read(session, TaskSession::is_done, false))
                    on_toggle=Callback::new(move |()| {
                        session.update(|s| {
                            if let Ok(s) = s {
                                s.toggle_pause(now_ms());
                            }
                        });
                    })
                />
            }
        })
    };

    let pointer_mode = Memo::new(move |_| read(session, TaskSession::pointer_mode, None));
    // A memo: the form is rebuilt when the functions change, not after every step.
    let functions: Signal<_> =
        Memo::new(move |_| read(session, TaskSession::functions, Vec::new())).into();
    let pointer = PointerInput {
        mode: pointer_mode.into(),
        on_gesture: Callback::new(move |g| {
            session.update(|s| {
                if let Ok(s) = s {
                    // A gesture that maps to no action leaves its message in the session.
                    let _ = s.play_gesture(g, now_ms());
                }
            });
        }),
        on_miss: Callback::new(move |miss: NoGesture| {
            session.update(|s| {
                if let Ok(s) = s {
                    s.note(miss.message());
                }
            });
        }),
    };
    let frame = FrameSource::new(move |draw| {
        session.with(|s| {
            if let Ok(s) = s {
                draw(s.frame());
            }
        });
    });
    let aria = format!("{title}: the current frame, as the agent sees it");
    let controls = read(session, |s| s.controls().to_vec(), Vec::new());
    let on_action = Callback::new(move |index: usize| {
        session.update(|s| {
            if let Ok(s) = s {
                // A refusal is kept in the session and shown below the buttons.
                let _ = s.play_preset(index, now_ms());
            }
        });
    });
    let done = Memo::new(move |_| read(session, TaskSession::is_done, false));
    let rules = if task.rules.trim().is_empty() {
        "No rules beyond what the demonstrations show.".to_string()
    } else {
        task.rules.clone()
    };
    let rules = view! { <p class="rules" data-testid="task-rules">{rules}</p> };
    let is_fork = fork.is_some();
    let settings = fork.as_ref().map(|(f, _)| f.settings());
    let banner = fork.map(|(f, back)| {
        view! {
            <p class="notice fork-banner" role="note">
                <span data-testid="fork-banner">{f.text()}</span>
                " "
                <a href=back data-testid="fork-source">"See the episode at that step"</a>
            </p>
        }
    });
    // A fork's id (`ID~forkN`) is no suite task: the crumbs lead to the original.
    let base_id = task.id.split('~').next().unwrap_or(&task.id).to_string();
    let share = StoredValue::new((task_ref, settings));
    let key_hint = move || {
        if poll.get().is_some() {
            "Keys work anywhere on the page; the game runs on its own clock."
        } else {
            "Keys work anywhere on the page: one press, one decision."
        }
    };

    view! {
        <div class="play task-play">
            <nav class="crumbs" aria-label="Breadcrumb">
                <a href=task_href(suite, &base_id)>{format!("{title}: rules and demos")}</a>
            </nav>
            <div class="task-title">
                <h1 data-testid="task-title">{title.clone()}</h1>
                <code class="task-id">{task.id.clone()}</code>
            </div>
            {banner}
            <TagChips task=task suite=suite />
            <section class="brief" aria-label="What the agent is told">
                <p class="brief-label">"What the agent is told"</p>
                {rules}
                <p class="brief-actions">
                    "Actions: " {task.actions.join(", ")}
                </p>
                <details>
                    <summary>"Budget, pass condition and score rule"</summary>
                    <TaskFacts task=task />
                </details>
            </section>
            <div class="play-grid">
                <figure class="stage">
                    <FrameView
                        frame=frame
                        max_size=MAX_DISPLAY
                        label=aria
                        testid="frame"
                        pointer=pointer
                    />
                    {move || pointer_mode.get().map(|m| view! { <p class="hint" data-testid="pointer-hint">{pointer::hint(m)}</p> })}
                </figure>
                <div class="panel">
                    {move || done.get().then(|| share.with_value(|(r, s)| view! { <ResultCard session=session task_ref=r.clone() settings=s.clone() /> }))}
                    {move || {
                        done.get().then(|| share.with_value(|(r, s)| view! { <ShareEpisode session=session task_ref=r.clone() settings=s.clone() /> }))
                    }}
                    <DecisionPanel session=session task=task />
                    {realtime}
                    <h2 class="panel-title">"Actions"</h2>
                    <ActionButtons controls=controls on_action=on_action disabled=done />
                    <p class="hint">{key_hint}</p>
                    {move || {
                        read(session, |s| s.last_error().map(str::to_string), None)
                            .map(|e| view! { <p class="field-error" role="alert" data-testid="play-error">{e}</p> })
                    }}
                    <ParametricInput
                        functions=functions
                        play_call=Callback::new(move |call: Call| play_with(session, |s| s.play_call(call, now_ms())))
                        play_text=Callback::new(move |text: String| play_with(session, |s| s.play_text(&text, now_ms())))
                        text_of=Callback::new(move |call: Call| read(session, |s| s.call_text(&call), String::new()))
                    />
                    {(!is_fork).then(|| view! { <RecordToggle task=task suite=suite record=record /> })}
                </div>
            </div>
            {move || record.get().then(|| view! { <Recorder session=session /> })}
        </div>
    }
}

/// Plays through the session: its `Err` (a refusal or a text that does not read).
fn play_with(
    session: Session,
    f: impl FnOnce(&mut TaskSession) -> Result<bool, String>,
) -> Result<(), String> {
    let mut out = Ok(());
    session.update(|s| {
        if let Ok(s) = s {
            out = f(s).map(|_| ());
        }
    });
    out
}

/// "Decision k of N" and the reward (or that it is hidden).
#[component]
fn DecisionPanel(session: Session, task: &'static Task) -> impl IntoView {
    let number = move || read(session, |s| s.decision_number().to_string(), String::new());
    let used = move || read(session, |s| s.decisions_used().to_string(), String::new());
    let done = Memo::new(move |_| read(session, TaskSession::is_done, false));
    let reward = move || {
        read(session, TaskSession::visible_reward, None)
            .map(format_reward)
            .unwrap_or_else(|| "hidden".to_string())
    };
    let running_notes = move || {
        (!done.get()).then(|| {
            view! {
                <p class="sr-only" role="status" aria-live="polite">
                    <span data-testid="decision-text">
                        {move || read(session, TaskSession::decision_text, String::new())}
                    </span>
                </p>
                {task
                    .hide_reward
                    .then(|| view! { <p class="hint">"The reward stays hidden while you play, as it does for agents."</p> })}
            }
        })
    };
    view! {
        <dl class="stats stats-two">
            <div>
                <dt>{move || if done.get() { "Decisions used" } else { "Decision" }}</dt>
                <dd>
                    <span data-testid="decision">{number}</span>
                    <span class="muted">{format!(" of {}", task.max_steps)}</span>
                </dd>
            </div>
            <div>
                <dt>"Reward"</dt>
                <dd data-testid="task-reward">{reward}</dd>
            </div>
        </dl>
        <span class="sr-only" data-testid="decisions-used">{used}</span>
        {running_notes}
    }
}

/// Pass or fail, the score, the failure mode and the decisions used, with Play again
/// and the episode download (an episode file, as `/episode` opens it).
#[component]
fn ResultCard(
    session: Session,
    task_ref: TaskRef,
    settings: Option<serde_json::Map<String, serde_json::Value>>,
) -> impl IntoView {
    let Some((record, json, filename)) = read(
        session,
        |s| {
            let json = s.episode_json(task_ref, settings)?;
            s.record().cloned().map(|r| (r, json, s.episode_filename()))
        },
        None,
    ) else {
        return ().into_any();
    };
    let verdict = if record.passed { "passed" } else { "failed" };
    let max = read(session, TaskSession::max_steps, 0);
    let reward: f64 = record.decisions.iter().map(|d| d.reward).sum();
    let again = move |_| {
        session.update(|s| {
            if let Ok(s) = s {
                let _ = s.restart();
            }
        });
    };
    view! {
        <section
            class="result"
            class:passed=record.passed
            data-testid="result"
            data-passed=record.passed.to_string()
            data-failure=failure_key(record.failure)
            role="status"
            aria-labelledby="result-title"
        >
            <h2 id="result-title">
                "Episode over: "
                <span data-testid="verdict">{verdict}</span>
            </h2>
            <dl class="result-facts">
                <div>
                    <dt>"Score"</dt>
                    <dd><span data-testid="score">{score_text(record.score)}</span><span class="muted">" / 100"</span></dd>
                </div>
                <div>
                    <dt>"Decisions used"</dt>
                    <dd data-testid="result-decisions">{format!("{} of {max}", record.progress.decisions)}</dd>
                </div>
                <div class="wide">
                    <dt>"Failure mode"</dt>
                    <dd data-testid="failure">{failure_text(record.failure)}</dd>
                </div>
                <div class="wide">
                    <dt>"Total reward"</dt>
                    <dd>{format_reward(reward)}</dd>
                </div>
            </dl>
            <p class="result-buttons">
                <button type="button" data-testid="play-again" on:click=again>"Play again"</button>
                <a
                    class="button-link secondary"
                    data-testid="download-episode"
                    download=filename
                    href=json_data_url(&json)
                >
                    "Download episode (JSON)"
                </a>
            </p>
        </section>
    }
    .into_any()
}

/// The finished episode as a viewer link (or its file when too large for one).
#[component]
fn ShareEpisode(
    session: Session,
    task_ref: TaskRef,
    settings: Option<serde_json::Map<String, serde_json::Value>>,
) -> impl IntoView {
    read(session, |s| s.episode_file(task_ref, settings), None).map(|file| {
        let target = share_target(&file, &page_origin());
        view! { <ShareBox target=target file_name=episode_file_name(&file) title="Share this episode" /> }
    })
}

/// Record-a-demo mode, kept in the URL (`&record=1`).
#[component]
fn RecordToggle(task: &'static Task, suite: &'static str, record: Memo<bool>) -> impl IntoView {
    let navigate = use_navigate();
    let on_change = move |ev| {
        let on = event_target_checked(&ev);
        let options = NavigateOptions {
            replace: true,
            scroll: false,
            ..Default::default()
        };
        navigate(&task_play_href(suite, &task.id, on), options);
    };
    view! {
        <label class="toggle record-toggle">
            <input
                type="checkbox"
                data-testid="record-toggle"
                prop:checked=move || record.get()
                on:change=on_change
            />
            "Record a demo: turn this play into a demonstration clip"
        </label>
    }
}

/// The play so far as a demonstration clip: label, JSON and download.
#[component]
fn Recorder(session: Session) -> impl IntoView {
    let edited = RwSignal::new(None::<String>);
    let label = move || {
        edited
            .get()
            .unwrap_or_else(|| read(session, TaskSession::default_demo_label, String::new()))
    };
    let json = move || read(session, |s| s.demo_json(&label()), None);
    let filename = move || read(session, TaskSession::demo_filename, String::new());
    let start = read(
        session,
        |s| {
            let t = s.task();
            if t.prefix.is_empty() {
                format!("from the task's start (seed {})", t.seed)
            } else {
                format!(
                    "from the task's start (seed {}, after its {} recorded moves)",
                    t.seed,
                    t.prefix.len()
                )
            }
        },
        String::new(),
    );
    view! {
        <section class="recorder" data-testid="recorder" aria-labelledby="recorder-title">
            <h2 id="recorder-title">"Recorded demo"</h2>
            <p class="muted">
                {format!(
                    "Every action you play is added to a clip {start}, replayed under the task's rules. \
                     Add it to a task's \"demos\" list."
                )}
            </p>
            <label class="label-field">
                <span>"Label"</span>
                <input
                    type="text"
                    data-testid="demo-label"
                    prop:value=label
                    on:input=move |ev| edited.set(Some(event_target_value(&ev)))
                />
            </label>
            {move || match json() {
                None => view! {
                    <p class="notice" data-testid="demo-empty">"Play at least one action to record a clip."</p>
                }
                .into_any(),
                Some(json) => {
                    let href = json_data_url(&json);
                    view! {
                        <pre class="json" data-testid="demo-json">{json}</pre>
                        <p>
                            <a
                                class="button-link"
                                data-testid="download-demo"
                                download=filename()
                                href=href
                            >
                                "Download demo (JSON)"
                            </a>
                        </p>
                    }
                    .into_any()
                }
            }}
        </section>
    }
}
