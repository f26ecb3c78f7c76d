//! `/play?env=ID&seed=N&kwargs=JSON`: one environment, played with keys or buttons.
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

use crate::components::action_buttons::ActionButtons;
use crate::components::error_box::ErrorBox;
use crate::components::frame_canvas::{draw_frame, report};
use crate::components::keys::on_page_keys;
use crate::pages::home::set_title;
use crate::play_state::{display_scale, format_reward, PlaySession};
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
                navigate(&format!("{}?{q}", url::PLAY_PATH), options);
            }
        }
    });

    let load_error = Memo::new(move |_| session.with(|s| s.as_ref().err().cloned()));
    move || match load_error.get() {
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

    // Keys: one press is one step (held-key repeats are ignored); typing in a field
    // is left alone.
    on_page_keys(move |key| {
        let mut handled = false;
        session.maybe_update(|s| {
            if let Ok(s) = s {
                handled = s.press_key(key).handled();
            }
            handled
        });
        handled
    });

    let canvas = NodeRef::<leptos::html::Canvas>::new();
    Effect::new(move |_| {
        if let Some(canvas) = canvas.get() {
            session.with(|s| {
                if let Ok(s) = s {
                    report(draw_frame(&canvas, s.frame()));
                }
            });
        }
    });

    // MiniGrid: the mission, the view toggles and the agent's-eye view.
    let has_views = Memo::new(move |_| read(session, PlaySession::has_views, false));
    let mission = Memo::new(move |_| read(session, |s| s.mission().map(str::to_string), None));
    let shown = Memo::new(move |_| read(session, PlaySession::view, ViewOptions::default()));
    let eye_size = Memo::new(move |_| {
        read(
            session,
            |s| s.agent_frame().map(|f| (f.width(), f.height())),
            None,
        )
    });
    let eye_canvas = NodeRef::<leptos::html::Canvas>::new();
    Effect::new(move |_| {
        if let Some(canvas) = eye_canvas.get() {
            session.with(|s| {
                if let Some(frame) = s.as_ref().ok().and_then(PlaySession::agent_frame) {
                    report(draw_frame(&canvas, frame));
                }
            });
        }
    });
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
        eye_size.get().map(|(w, h)| {
            view! {
                <div class="view view-eye">
                    <canvas
                        node_ref=eye_canvas
                        class="frame pixelated"
                        width=w
                        height=h
                        style:width=format!("{w}px")
                        role="img"
                        data-testid="agent-view"
                        aria-label="What the agent sees: the 7×7 cells in front of it, itself at the bottom middle"
                    ></canvas>
                    <p class="view-caption">"What the agent sees"</p>
                </div>
            }
        })
    };
    let full_caption = move || {
        eye_size
            .get()
            .is_some()
            .then(|| view! { <p class="view-caption">"The whole grid"</p> })
    };
    let toggles = move || {
        has_views
            .get()
            .then(|| view! { <ViewToggles session=session shown=shown /> })
    };

    let text = move || read(session, PlaySession::render_text, String::new());
    let size =
        Memo::new(move |_| read(session, |s| (s.frame().width(), s.frame().height()), (0, 0)));
    let scale = move || {
        let (w, h) = size.get();
        display_scale(w, h, MAX_DISPLAY)
    };
    let frame_class = move || {
        if scale() > 1 {
            "frame pixelated"
        } else {
            "frame"
        }
    };
    let controls = Memo::new(move |_| read(session, |s| s.controls().to_vec(), Vec::new()));
    let on_action = Callback::new(move |index: usize| {
        session.update(|s| {
            if let Ok(s) = s {
                // A refusal is kept in the session and shown below the buttons.
                let _ = s.act(index);
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

    view! {
        <div class="play">
            <nav class="crumbs" aria-label="Breadcrumb">
                <a href="/">"All environments"</a>
            </nav>
            <h1 data-testid="env-id">{move || env_id.get()}</h1>
            <p class="summary">{summary}</p>
            {kwargs}
            {mission_banner}
            <div class="play-grid">
                <figure class="stage">
                    <div class="views">
                        <div class="view view-full">
                            <canvas
                                node_ref=canvas
                                class=frame_class
                                width=size.get_untracked().0
                                height=size.get_untracked().1
                                style:width=move || format!("{}px", size.get().0 * scale())
                                tabindex="0"
                                role="img"
                                data-testid="frame"
                                aria-label=text
                            ></canvas>
                            {full_caption}
                        </div>
                        {eye_view}
                    </div>
                    {toggles}
                    <details class="text-render">
                        <summary>"Text rendering"</summary>
                        <pre data-testid="text-render">{text}</pre>
                    </details>
                </figure>
                <div class="panel">
                    <StatusPanel session=session />
                    <h2 class="panel-title">"Actions"</h2>
                    {move || view! { <ActionButtons controls=controls.get() on_action=on_action /> }}
                    <p class="hint">"Keys work anywhere on the page: one press, one step."</p>
                    {move || {
                        read(session, |s| s.last_error().map(str::to_string), None)
                            .map(|e| view! { <p class="field-error" role="alert">{e}</p> })
                    }}
                    <SeedForm session=session />
                </div>
            </div>
        </div>
    }
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
