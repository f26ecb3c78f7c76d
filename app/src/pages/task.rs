//! `/task?id=ID`: one task of the built-in suite — its rules, budget, pass condition and
//! score rule in words — with a player for each demonstration clip and a way to play it.

use std::time::Duration;

use envs::tasks::Task;
use leptos::ev;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::bench::{self, TaskLoadError};
use crate::components::error_box::ErrorBox;
use crate::components::frame_canvas::{draw_frame, report};
use crate::components::keys::{left_to_focused_element, plain_press};
use crate::demo_player::{ClipFrames, Player, Speed};
use crate::pages::home::set_title;
use crate::play_state::display_scale;
use crate::suite_filter::Filter;
use crate::task_text;
use crate::url::{task_href, task_play_href};

/// The largest size (CSS pixels) a demo frame is enlarged to.
const DEMO_MAX: u32 = 480;
/// How often a playing demo checks the clock.
const TICK: Duration = Duration::from_millis(40);

#[component]
pub fn TaskPage() -> impl IntoView {
    let query = use_query_map();
    let id = Memo::new(move |_| query.with(|q| q.get_str("id").unwrap_or_default().to_string()));
    move || match bench::find_task(&id.get()) {
        Ok(task) => view! { <TaskDetail task=task /> }.into_any(),
        Err(e) => {
            set_title("Unknown task · Playbench");
            view! { <TaskLoadErrorBox error=e /> }.into_any()
        }
    }
}

/// The error of a task link, with a way back to the suite and close ids to try.
#[component]
pub fn TaskLoadErrorBox(error: TaskLoadError) -> impl IntoView {
    let suggestions = error.suggestions().to_vec();
    view! {
        <ErrorBox
            title=error.title().to_string()
            message=error.to_string()
            back_href="/suite"
            back_label="Back to the benchmark suite"
        >
            {(!suggestions.is_empty()).then(|| {
                let links = suggestions
                    .iter()
                    .map(|id| view! { <li><a href=task_href(id)>{id.clone()}</a></li> })
                    .collect_view();
                view! {
                    <p>"Did you mean:"</p>
                    <ul class="suggestions">{links}</ul>
                }
            })}
        </ErrorBox>
    }
}

/// The task's facts as a definition list: environment, actions, budget, pass, score…
#[component]
pub fn TaskFacts(task: &'static Task) -> impl IntoView {
    let actions = task.actions.join(", ");
    let start = task_text::start_text(task);
    view! {
        <dl class="facts facts-wide" data-testid="task-facts">
            <div><dt>"Environment"</dt><dd><code>{task_text::env_text(task)}</code>{format!(", seed {}", task.seed)}</dd></div>
            <div><dt>"Actions"</dt><dd>{actions}</dd></div>
            <div><dt>"Budget"</dt><dd data-testid="task-budget">{task_text::budget_text(task)}</dd></div>
            <div><dt>"Pass"</dt><dd data-testid="task-pass">{task_text::pass_text(task)}</dd></div>
            <div><dt>"Score"</dt><dd data-testid="task-score">{task_text::score_text(&task.score)}</dd></div>
            <div><dt>"Reward"</dt><dd>{task_text::reward_text(task)}</dd></div>
            {start.map(|s| view! { <div><dt>"Start"</dt><dd>{s}</dd></div> })}
        </dl>
    }
}

/// The tags as small chips.
#[component]
pub fn TagChips(task: &'static Task) -> impl IntoView {
    let family_href = Filter {
        family: Some(task.tags.family.clone()),
        ..Filter::default()
    }
    .href();
    let chips = task_text::tag_chips(task);
    let first = chips.first().cloned().unwrap_or_default();
    let rest = chips
        .into_iter()
        .skip(1)
        .map(|c| view! { <li>{c}</li> })
        .collect_view();
    view! {
        <ul class="chips" aria-label="Tags">
            <li><a href=family_href title="Every task of this family">{first}</a></li>
            {rest}
        </ul>
    }
}

#[component]
fn TaskDetail(task: &'static Task) -> impl IntoView {
    let title = task_text::title(task).to_string();
    set_title(&format!("{title} · Playbench"));
    // Which demo the keyboard drives: the last one clicked or focused.
    let active = RwSignal::new(0usize);
    // Each clip is replayed once; its frames are captioned as they are shown.
    let clips: Vec<Result<ClipFrames, String>> = task
        .demos
        .iter()
        .map(|clip| ClipFrames::new(task, clip).map_err(|e| e.to_string()))
        .collect();
    let frames: usize = clips.iter().flatten().map(ClipFrames::len).sum();
    let demos = clips
        .into_iter()
        .enumerate()
        .map(|(i, clip)| view! { <DemoPlayer clip=clip index=i active=active /> })
        .collect_view();
    let rules = if task.rules.trim().is_empty() {
        "No rules beyond what the demonstrations show.".to_string()
    } else {
        task.rules.clone()
    };
    let demo_intro = format!(
        "What an agent is shown before it plays: {} ({} frames), one frame per decision, \
         each captioned with the action that led to it. Space plays or pauses, ← and → step.",
        match task.demos.len() {
            1 => "1 clip".to_string(),
            n => format!("{n} clips"),
        },
        frames
    );
    view! {
        <div class="task-page">
            <nav class="crumbs" aria-label="Breadcrumb">
                <a href="/suite">"Benchmark suite"</a>
            </nav>
            <div class="task-title">
                <h1 data-testid="task-title">{title}</h1>
                <code class="task-id" data-testid="task-id">{task.id.clone()}</code>
            </div>
            <TagChips task=task />
            <div class="task-intro">
                <section class="rules-box" aria-labelledby="rules-title">
                    <h2 id="rules-title">"Rules"</h2>
                    <p data-testid="task-rules">{rules}</p>
                    <TaskFacts task=task />
                </section>
                <div class="task-actions">
                    <a class="button-link big" href=task_play_href(&task.id, false) data-testid="play-task">
                        "Play this task"
                    </a>
                    <a class="button-link big secondary" href=task_play_href(&task.id, true) data-testid="record-task">
                        "Record a demo"
                    </a>
                    <a class="button-link big secondary" href=crate::url::task_run_href(&task.id) data-testid="run-task">
                        "Run with a model"
                    </a>
                    <p class="hint">"You play exactly as an agent does: same start, same budget, reward hidden."</p>
                </div>
            </div>
            <section class="demos" aria-labelledby="demos-title">
                <h2 id="demos-title">"Demonstrations"</h2>
                <p class="muted">{demo_intro}</p>
                <div class="demo-list">{demos}</div>
            </section>
        </div>
    }
}

/// One clip: the captioned frames with play/pause, step, scrub and speed.
#[component]
fn DemoPlayer(
    clip: Result<ClipFrames, String>,
    index: usize,
    active: RwSignal<usize>,
) -> impl IntoView {
    let frames = match clip {
        Ok(f) => f,
        Err(e) => {
            return view! {
                <figure class="demo demo-broken" data-testid="demo">
                    <p class="field-error" role="alert">
                        {format!("Demo {} could not be replayed: {e}", index + 1)}
                    </p>
                </figure>
            }
            .into_any();
        }
    };
    let len = frames.len();
    let (w, h) = frames.size();
    let scale = display_scale(w, h, DEMO_MAX);
    let captions: Vec<String> = (0..len)
        .map(|i| frames.caption(i).unwrap_or_default().to_string())
        .collect();
    let heading = format!("Demo {}: {}", index + 1, frames.label());
    let about = format!(
        "{} · ends: {}",
        match frames.decisions() {
            1 => "1 decision".to_string(),
            n => format!("{n} decisions"),
        },
        frames.outcome().label()
    );
    let frames = StoredValue::new(frames);
    let player = RwSignal::new(Player::new(len));

    // The clock: while playing, the elapsed time since the last check moves the player.
    let last = StoredValue::new(None::<f64>);
    let timer = set_interval_with_handle(
        move || {
            let now = js_sys::Date::now();
            let dt = last.get_value().map_or(0.0, |t| now - t);
            last.set_value(Some(now));
            if player.with_untracked(Player::playing) {
                player.maybe_update(|p| p.tick(dt));
            }
        },
        TICK,
    )
    .ok();
    on_cleanup(move || {
        if let Some(t) = timer {
            t.clear();
        }
    });

    // Keys drive the active player (Space play/pause, ←/→ step, Home/End).
    let keys = window_event_listener(ev::keydown, move |ev| {
        if active.get_untracked() != index || !plain_press(&ev) || left_to_focused_element(&ev) {
            return;
        }
        let key = ev.key();
        let mut handled = false;
        player.update(|p| handled = p.press_key(&key));
        if handled {
            ev.prevent_default();
        }
    });
    on_cleanup(move || keys.remove());

    let canvas = NodeRef::<leptos::html::Canvas>::new();
    Effect::new(move |_| {
        let pos = player.with(Player::pos);
        if let Some(canvas) = canvas.get() {
            frames.update_value(|f| {
                if let Some(frame) = f.frame(pos) {
                    report(draw_frame(&canvas, frame));
                }
            });
        }
    });

    let caption_list = captions.clone();
    let caption = move || {
        caption_list
            .get(player.with(Player::pos))
            .cloned()
            .unwrap_or_default()
    };
    let counter = move || player.with(Player::counter_text);
    let playing = move || player.with(Player::playing);
    let speed_id = format!("demo-speed-{index}");
    let live = move || if playing() { "off" } else { "polite" };
    let aria = format!("{heading}: the captioned frame");
    let frame_class = if scale > 1 {
        "frame pixelated"
    } else {
        "frame"
    };

    view! {
        <figure
            class="demo"
            data-testid="demo"
            data-demo-index=index
            class:active=move || active.get() == index
            on:pointerdown=move |_| active.set(index)
            on:focusin=move |_| active.set(index)
        >
            <figcaption>
                <h3>{heading}</h3>
                <span class="muted">{about}</span>
            </figcaption>
            <canvas
                node_ref=canvas
                class=frame_class
                width=w
                height=h
                style:width=format!("{}px", w * scale)
                role="img"
                tabindex="0"
                aria-label=aria
                data-testid="demo-frame"
            ></canvas>
            <p class="demo-caption" aria-live=live>
                <span class="sr-only">"Caption: "</span>
                <span data-testid="demo-caption">{caption}</span>
            </p>
            <div class="demo-controls" role="group" aria-label="Playback">
                <button
                    type="button"
                    class="secondary icon"
                    data-testid="demo-back"
                    aria-label="Step back"
                    title="Step back (←)"
                    on:click=move |_| player.update(Player::step_back)
                >
                    "◀"
                </button>
                <button
                    type="button"
                    class="play-button"
                    data-testid="demo-play"
                    aria-pressed=move || playing().to_string()
                    title="Play or pause (Space)"
                    on:click=move |_| player.update(Player::toggle)
                >
                    {move || if playing() { "❚❚ Pause" } else { "▶ Play" }}
                </button>
                <button
                    type="button"
                    class="secondary icon"
                    data-testid="demo-forward"
                    aria-label="Step forward"
                    title="Step forward (→)"
                    on:click=move |_| player.update(Player::step_forward)
                >
                    "▶"
                </button>
                <span class="demo-counter" data-testid="demo-counter">{counter}</span>
                <label class="demo-speed" for=speed_id.clone()>"Speed"</label>
                <select
                    id=speed_id
                    data-testid="demo-speed"
                    on:change=move |ev| {
                        if let Some(s) = Speed::parse(&event_target_value(&ev)) {
                            player.update(|p| p.set_speed(s));
                        }
                    }
                >
                    {Speed::ALL
                        .into_iter()
                        .map(|s| {
                            view! {
                                <option value=s.label() prop:selected=move || player.with(Player::speed) == s>
                                    {format!("{} FPS", s.label())}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </div>
            <input
                type="range"
                class="demo-scrub"
                min="0"
                max=len.saturating_sub(1).to_string()
                step="1"
                data-testid="demo-scrub"
                aria-label="Frame"
                aria-valuetext=counter
                prop:value=move || player.with(Player::pos).to_string()
                on:input=move |ev| {
                    if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                        player.update(|p| p.seek(i));
                    }
                }
            />
        </figure>
    }
    .into_any()
}
