//! `/play?env=ID&seed=N&kwargs=JSON`: one environment, played with keys or buttons; a
//! parametric action space adds its form controls and a text box, pointer environments
//! take clicks and drags on the frame, and an environment with a clock plays in real
//! time (pause with P). The logic is `PlaySession`; this page lays it out.
//!
//! The URL describes the episode's start; the session (`PlaySession`) is the episode.
//! A URL change (back/forward, an edited link) starts what it describes, and a reset
//! writes its seed back into the URL, so a reload or a shared link starts the same way.
//! MiniGrid levels also keep their view options there (`&highlight=0`, `&view=1`): a
//! toggle changes the session's view, which is written into the URL the same way.

use leptos::ev;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate, use_query_map};
use leptos_router::NavigateOptions;

use envs::core::action::Call;
use envs::Action;

use crate::browser::time::now_ms;
use crate::components::action_buttons::ActionButtons;
use crate::components::action_input::ParametricInput;
use crate::components::error_box::ErrorBox;
use crate::components::frame_view::{FrameSource, FrameView, PointerInput};
use crate::components::keys::on_page_keys;
use crate::components::physics::NeedsPhysics;
use crate::components::pictures::{FolderPicker, NeedsPictures};
use crate::components::realtime::{realtime_timer, RealtimeBar};
use crate::components::rom_drop::NeedsRom;
use crate::pages::home::set_title;
use crate::play_state::{format_reward, PlaySession};
use crate::pointer::{self, NoGesture};
use crate::routes;
use crate::url::{self, LoadError, PlayRequest, ViewOptions};

/// The largest size (CSS pixels) a frame is enlarged to.
const MAX_DISPLAY: u32 = 560;

type Session = RwSignal<Result<PlaySession, LoadError>, LocalStorage>;

#[component]
pub fn Play() -> impl IntoView {
    let query = use_query_map();
    let request = Memo::new(move |_| {
        query.with(|q| {
            url::parse_play_query(q.get_str("env"), q.get_str("seed"), q.get_str("kwargs"))
        })
    });
    let shown = Memo::new(move |_| {
        query.with(|q| ViewOptions::parse(q.get_str("highlight"), q.get_str("view")))
    });
    let session: Session =
        RwSignal::new_local(start(request.get_untracked(), shown.get_untracked()));

    // The URL changed: start the episode it describes (unless it is the one running),
    // shown the way it says.
    Effect::new(move |_| {
        let wanted = request.get();
        let view = shown.get();
        let running = session.with_untracked(|s| match (s, &wanted) {
            (Ok(s), Ok(w)) => s.request() == w,
            _ => false,
        });
        if running {
            session.maybe_update(|s| s.as_mut().is_ok_and(|s| s.set_view(view)));
        } else {
            session.set(start(wanted, view));
        }
    });

    // The episode's start changed (a reset, a defaulted seed): write it into the URL.
    let navigate = use_navigate();
    let location = use_location();
    let canonical = Memo::new(move |_| session.with(|s| s.as_ref().ok().map(PlaySession::query)));
    Effect::new(move |_| {
        if let Some(q) = canonical.get() {
            let current = location.search.get_untracked();
            if current.trim_start_matches('?') != q {
                let options = NavigateOptions {
                    replace: true,
                    scroll: false,
                    ..Default::default()
                };
                navigate(&format!("{}?{q}", routes::PLAY), options);
            }
        }
    });

    let load_error = Memo::new(move |_| session.with(|s| s.as_ref().err().cloned()));
    // A ROM added on this page starts the episode the URL describes.
    let on_rom = Callback::new(move |_| {
        session.set(start(request.get_untracked(), shown.get_untracked()));
    });
    // Pictures loaded on this page start it the same way, and so does MuJoCo.
    let on_pictures = Callback::new(move |()| {
        session.set(start(request.get_untracked(), shown.get_untracked()));
    });
    let on_physics = Callback::new(move |()| {
        session.set(start(request.get_untracked(), shown.get_untracked()));
    });
    move || match load_error.get() {
        Some(err @ LoadError::MissingAsset(_)) => {
            let env_id = request
                .with_untracked(|r| r.as_ref().map(|r| r.env_id.clone()).unwrap_or_default());
            if crate::physics::needs_loading(&env_id) {
                set_title("Loading MuJoCo · Playbench");
                return view! { <NeedsPhysics on_loaded=on_physics /> }.into_any();
            }
            if crate::image_sets::plays_pictures(&env_id) {
                let name = request.with_untracked(|r| {
                    r.as_ref()
                        .map(|r| crate::image_sets::set_name(&r.env_id, &r.kwargs))
                        .unwrap_or_default()
                });
                set_title("Pictures needed · Playbench");
                return view! { <NeedsPictures name=name on_loaded=on_pictures /> }.into_any();
            }
            match crate::rom_shelf::missing_rom(&env_id) {
                Some(game) => {
                    set_title("ROM needed · Playbench");
                    view! { <NeedsRom env_id=env_id game=game on_added=on_rom /> }.into_any()
                }
                None => {
                    view! { <ErrorBox title=err.title().to_string() message=err.to_string() /> }
                        .into_any()
                }
            }
        }
        Some(err) => {
            set_title("Cannot play · Playbench");
            view! { <ErrorBox title=err.title().to_string() message=err.to_string() /> }.into_any()
        }
        None => view! { <Board session=session /> }.into_any(),
    }
}

/// A session for a parsed URL.
fn start(
    request: Result<PlayRequest, LoadError>,
    view: ViewOptions,
) -> Result<PlaySession, LoadError> {
    request
        .and_then(PlaySession::new)
        .map(|s| s.with_view(view))
}

/// Reads something from the running session (a default while there is none).
fn read<T>(session: Session, f: impl FnOnce(&PlaySession) -> T, default: T) -> T {
    session.with(|s| s.as_ref().map_or(default, f))
}

/// The play area of a session that loaded.
#[component]
fn Board(session: Session) -> impl IntoView {
    let env_id = Memo::new(move |_| read(session, |s| s.env_id().to_string(), String::new()));
    Effect::new(move |_| set_title(&format!("{} · Playbench", env_id.get())));

    // Keys: one press is one step (held-key repeats are ignored), or in real-time play
    // one input to the clock; typing in a field is left alone.
    on_page_keys(move |key| {
        let mut handled = false;
        session.maybe_update(|s| {
            if let Ok(s) = s {
                handled = s.press_key_at(key, now_ms()).handled();
            }
            handled
        });
        handled
    });

    // Real-time play: one timer feeds the clock; the virtual time is shown apart so the
    // frame redraws only when a step was played.
    let poll = Memo::new(move |_| read(session, PlaySession::poll_ms, None));
    let virtual_ms = RwSignal::new(0u64);
    realtime_timer(poll, move || {
        session.maybe_update(|s| s.as_mut().is_ok_and(|s| s.tick(now_ms())));
        virtual_ms.set(session.with_untracked(|s| {
            s.as_ref()
                .ok()
                .and_then(PlaySession::virtual_ms)
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
                    paused=Signal::derive(move || read(session, PlaySession::is_paused, false))
                    over=Signal::derive(move || read(session, |s| s.outcome().is_over(), false))
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

    // MiniGrid: the mission, the view toggles and the agent's-eye view.
    let has_views = Memo::new(move |_| read(session, PlaySession::has_views, false));
    let mission = Memo::new(move |_| read(session, |s| s.mission().map(str::to_string), None));
    let shown = Memo::new(move |_| read(session, PlaySession::view, ViewOptions::default()));
    let has_eye = Memo::new(move |_| read(session, |s| s.agent_frame().is_some(), false));
    let mission_banner = move || {
        mission.get().map(|m| {
            view! {
                <p class="mission">
                    <span class="mission-label">"Mission"</span>
                    <span class="mission-text" data-testid="mission">{m}</span>
                </p>
            }
        })
    };
    let eye_view = move || {
        has_eye.get().then(|| {
            let eye = FrameSource::new(move |draw| {
                session.with(|s| {
                    if let Some(f) = s.as_ref().ok().and_then(PlaySession::agent_frame) {
                        draw(f);
                    }
                });
            });
            view! {
                <div class="view view-eye">
                    <FrameView
                        frame=eye
                        max_size=1
                        label="What the agent sees: the 7×7 cells in front of it, itself at the bottom middle"
                        testid="agent-view"
                        class="frame pixelated"
                    />
                    <p class="view-caption">"What the agent sees"</p>
                </div>
            }
        })
    };
    let full_caption = move || {
        has_eye
            .get()
            .then(|| view! { <p class="view-caption">"The whole grid"</p> })
    };
    let toggles = move || {
        has_views
            .get()
            .then(|| view! { <ViewToggles session=session shown=shown /> })
    };

    let text = move || read(session, PlaySession::render_text, String::new());
    let controls = Memo::new(move |_| read(session, |s| s.controls().to_vec(), Vec::new()));
    let on_action = Callback::new(move |index: usize| {
        session.update(|s| {
            if let Ok(s) = s {
                // A refusal is kept in the session and shown below the buttons.
                let _ = s.play_preset(index, now_ms());
            }
        });
    });
    let pointer_mode = Memo::new(move |_| read(session, PlaySession::pointer_mode, None));
    // A memo: the form is rebuilt when the functions change, not after every step.
    let functions: Signal<_> =
        Memo::new(move |_| read(session, PlaySession::functions, Vec::new())).into();
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
    let summary = move || {
        envs::spec(&env_id.get())
            .map(|s| s.summary)
            .unwrap_or_default()
    };
    let kwargs = move || {
        read(
            session,
            |s| {
                let k = &s.request().kwargs;
                (!k.is_empty()).then(|| serde_json::Value::Object(k.clone()).to_string())
            },
            None,
        )
        .map(|k| view! { <p class="kwargs">"kwargs: " <code data-testid="kwargs">{k}</code></p> })
    };
    // Image environments: play the same id on the person's own pictures.
    let navigate_to = use_navigate();
    let folder_picker = move || {
        let env = env_id.get();
        crate::image_sets::plays_pictures(&env).then(|| {
            let navigate_to = navigate_to.clone();
            let on_picked = Callback::new(move |name: String| {
                let (mut kwargs, seed) = session.with_untracked(|s| {
                    s.as_ref()
                        .map(|s| (s.request().kwargs.clone(), s.request().seed))
                        .unwrap_or_default()
                });
                kwargs.insert("sample_dir".into(), name.into());
                navigate_to(
                    &PlayRequest::new(&env, kwargs, seed).href(),
                    Default::default(),
                );
            });
            view! { <FolderPicker on_picked=on_picked /> }
        })
    };
    let key_hint = move || {
        if poll.get().is_some() {
            "Keys work anywhere on the page; the game runs on its own clock."
        } else {
            "Keys work anywhere on the page: one press, one step."
        }
    };

    view! {
        <div class="play">
            <nav class="crumbs" aria-label="Breadcrumb">
                <a href=routes::HOME>"All environments"</a>
            </nav>
            <h1 data-testid="env-id">{move || env_id.get()}</h1>
            <p class="summary">{summary}</p>
            {kwargs}
            {folder_picker}
            {mission_banner}
            <div class="play-grid">
                <figure class="stage">
                    <div class="views">
                        <div class="view view-full">
                            <FrameView
                                frame=frame
                                max_size=MAX_DISPLAY
                                label=Signal::derive(text)
                                testid="frame"
                                pointer=pointer
                            />
                            {full_caption}
                        </div>
                        {eye_view}
                    </div>
                    {move || pointer_mode.get().map(|m| view! { <p class="hint" data-testid="pointer-hint">{pointer::hint(m)}</p> })}
                    {toggles}
                    <details class="text-render">
                        <summary>"Text rendering"</summary>
                        <pre data-testid="text-render">{text}</pre>
                    </details>
                </figure>
                <div class="panel">
                    <StatusPanel session=session />
                    {realtime}
                    <h2 class="panel-title">"Actions"</h2>
                    {move || view! { <ActionButtons controls=controls.get() on_action=on_action /> }}
                    <p class="hint">{key_hint}</p>
                    {move || {
                        read(session, |s| s.last_error().map(str::to_string), None)
                            .map(|e| view! { <p class="field-error" role="alert" data-testid="play-error">{e}</p> })
                    }}
                    <ParametricInput
                        functions=functions
                        play_call=Callback::new(move |call: Call| play_with(session, |s| s.play(Action::Call(call), now_ms())))
                        play_text=Callback::new(move |text: String| play_with(session, |s| s.play_text(&text, now_ms())))
                        text_of=Callback::new(move |call: Call| read(session, |s| s.action_text(&Action::Call(call)), String::new()))
                    />
                    <SeedForm session=session />
                </div>
            </div>
        </div>
    }
}

/// Plays through the session: its `Err` (a refusal or a text that does not read).
fn play_with(
    session: Session,
    f: impl FnOnce(&mut PlaySession) -> Result<(), String>,
) -> Result<(), String> {
    let mut out = Ok(());
    session.update(|s| {
        if let Ok(s) = s {
            out = f(s);
        }
    });
    out
}

/// Step count, rewards and the status line.
#[component]
fn StatusPanel(session: Session) -> impl IntoView {
    let steps = move || read(session, |s| s.steps().to_string(), String::new());
    let last = move || {
        read(session, |s| s.last_reward().map(format_reward), None).unwrap_or_else(|| "–".into())
    };
    let total = move || read(session, |s| format_reward(s.total_reward()), String::new());
    let outcome = move || read(session, |s| s.outcome().word(), "running");
    let status = move || read(session, PlaySession::status_text, String::new());
    let limit = move || {
        read(session, PlaySession::max_episode_steps, None)
            .map(|n| format!(" / {n}"))
            .unwrap_or_default()
    };
    let over_hint = move || {
        read(session, |s| s.outcome().is_over(), false)
            .then(|| view! { <span class="over-hint">"Press Reset to play again."</span> })
    };
    view! {
        <dl class="stats">
            <div>
                <dt>"Steps"</dt>
                <dd>
                    <span data-testid="step-count">{steps}</span>
                    <span class="muted">{limit}</span>
                </dd>
            </div>
            <div>
                <dt>"Last reward"</dt>
                <dd data-testid="last-reward">{last}</dd>
            </div>
            <div>
                <dt>"Total reward"</dt>
                <dd data-testid="reward">{total}</dd>
            </div>
        </dl>
        <p class="status" data-outcome=outcome role="status" aria-live="polite">
            "Status: "
            <strong data-testid="status">{status}</strong>
            {over_hint}
        </p>
    }
}

/// MiniGrid's two view switches: highlight what the agent sees, show its own view.
#[component]
fn ViewToggles(session: Session, shown: Memo<ViewOptions>) -> impl IntoView {
    let set_view = move |v: ViewOptions| {
        session.maybe_update(|s| s.as_mut().is_ok_and(|s| s.set_view(v)));
    };
    view! {
        <div class="view-options" role="group" aria-label="View options">
            <label class="toggle">
                <input
                    type="checkbox"
                    data-testid="highlight-toggle"
                    prop:checked=move || shown.get().highlight
                    on:change=move |ev| {
                        set_view(shown.get_untracked().with_highlight(event_target_checked(&ev)))
                    }
                />
                "Highlight the agent's view"
            </label>
            <label class="toggle">
                <input
                    type="checkbox"
                    data-testid="agent-view-toggle"
                    prop:checked=move || shown.get().agent_view
                    on:change=move |ev| {
                        set_view(shown.get_untracked().with_agent_view(event_target_checked(&ev)))
                    }
                />
                "Show the agent's-eye view"
            </label>
        </div>
    }
}

/// The seed field, Reset (same or typed seed) and New seed (a random one).
#[component]
fn SeedForm(session: Session) -> impl IntoView {
    let seed_now = Memo::new(move |_| read(session, PlaySession::seed, 0));
    let seed_text = RwSignal::new(seed_now.get_untracked().to_string());
    let seed_error = RwSignal::new(None::<String>);
    // Show the running seed whenever it changes (a reset, a new URL).
    Effect::new(move |_| seed_text.set(seed_now.get().to_string()));

    let reset_to = move |seed: u64| {
        seed_error.set(None);
        session.update(|s| {
            if let Ok(s) = s {
                s.reset(seed);
            }
        });
        seed_text.set(seed.to_string());
    };
    let on_submit = move |ev: ev::SubmitEvent| {
        ev.prevent_default();
        match url::parse_seed(&seed_text.get_untracked()) {
            Ok(seed) => reset_to(seed),
            Err(e) => seed_error.set(Some(e.to_string())),
        }
    };
    let new_seed = move |_| reset_to(random_seed());

    view! {
        <form class="seed-form" on:submit=on_submit>
            <label for="seed">"Seed"</label>
            <input
                id="seed"
                type="text"
                inputmode="numeric"
                autocomplete="off"
                spellcheck="false"
                data-testid="seed-input"
                prop:value=move || seed_text.get()
                on:input=move |ev| seed_text.set(event_target_value(&ev))
                aria-invalid=move || seed_error.with(Option::is_some).then_some("true")
                aria-describedby="seed-error"
            />
            <button type="submit" data-testid="reset">"Reset"</button>
            <button type="button" data-testid="new-seed" on:click=new_seed>"New seed"</button>
        </form>
        <p id="seed-error" class="field-error" role="alert">{move || seed_error.get()}</p>
    }
}

/// A random seed below 2^32 (what people can retype easily).
fn random_seed() -> u64 {
    (js_sys::Math::random() * 4_294_967_296.0) as u64
}
