//! `/episode`: the replay viewer. Opens an episode from `#e=pb1.…`, `?stored=KEY`, a
//! chosen file or a file dropped anywhere on the page (formats and the stored-episode
//! contract: `crate::replay::source`), re-simulates it (`crate::replay::timeline`), says
//! "Verified" or where it diverges, and shows it step by step on a scrubber; a second
//! episode of the same task (`&e2=pb1.…` or "Compare with…") shares the scrubber. Each
//! step links to a fork: play on as a person, or with a model.

use std::rc::Rc;

use leptos::ev;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_query_map};
use wasm_bindgen::JsCast;

use crate::browser::files::read_text;
use crate::browser::storage::local;
use crate::components::frame_view::{FrameSource, FrameView};
use crate::components::keys::on_page_keys;
use crate::components::latency_line::LatencyLine;
use crate::components::physics::NeedsPhysics;
use crate::components::pictures::NeedsPictures;
use crate::components::rom_drop::NeedsRom;
use crate::components::share_box::{page_origin, ShareBox};
use crate::judging::input::{can_judge, judge_href};
use crate::pages::home::set_title;
use crate::play_state::format_reward;
use crate::replay::compare::{check_pair, first_difference, shared_positions, side_pos};
use crate::replay::fork::fork;
use crate::replay::share::{
    episode_file_name, fork_href, share_target, stored_key_for, ForkSource, ForkWith,
};
use crate::replay::source::{
    check_assets, open_file, open_link, parse_viewer_fragment, read_stored, store_episode,
    OpenError, Origin, Reason,
};
use crate::replay::timeline::{Outcome, Replay, Scrubber};
use crate::routes::task_href;
use crate::runner::latency_view::LatencyView;
use crate::task_session::{failure_text, score_text};
use crate::task_text;
use bench::share::TaskRef;

/// The largest size (CSS pixels) a frame is enlarged to (alone / side by side).
const MAX_DISPLAY: u32 = 520;
const MAX_DISPLAY_PAIR: u32 = 400;

/// An opened episode: its replay and its link fragment (`None` when too large).
struct Loaded {
    replay: Replay,
    fragment: Option<String>,
}

type Slot = RwSignal<Option<Result<Rc<Loaded>, OpenError>>, LocalStorage>;

fn load(
    origin: Origin,
    file: Result<bench::share::EpisodeFile, OpenError>,
) -> Result<Rc<Loaded>, OpenError> {
    let file = check_assets(origin.clone(), file?)?;
    let fragment = file.to_link_fragment().ok();
    let replay = Replay::open(file).map_err(|e| OpenError::share(origin, e))?;
    Ok(Rc::new(Loaded { replay, fragment }))
}

/// Reads a chosen or dropped file into `slot`.
fn read_into(slot: Slot, file: web_sys::File) {
    let name = file.name();
    leptos::task::spawn_local(async move {
        let text = read_text(file).await.unwrap_or_default();
        let origin = Origin::File(name.clone());
        slot.set(Some(load(origin, open_file(&name, &text))));
    });
}

fn first_file(files: Option<web_sys::FileList>) -> Option<web_sys::File> {
    files.and_then(|f| f.get(0))
}

#[component]
pub fn EpisodePage() -> impl IntoView {
    set_title("Replay · Playbench");
    let location = use_location();
    let query = use_query_map();
    let primary: Slot = RwSignal::new_local(None);
    let second: Slot = RwSignal::new_local(None);
    let start_at = RwSignal::new(0usize);

    // The URL names the episodes: re-read them whenever it changes.
    Effect::new(move |_| {
        let fragment = parse_viewer_fragment(&location.hash.get());
        let stored = query.with(|q| q.get_str("stored").map(str::to_string));
        let first = match (fragment.primary, stored) {
            (Some(link), _) => Some(load(Origin::Link, open_link(Origin::Link, &link))),
            (None, Some(key)) => {
                let origin = Origin::Stored(key.clone());
                Some(load(origin, read_stored(&local(), &key)))
            }
            (None, None) => None,
        };
        let compare = fragment
            .compare
            .map(|link| load(Origin::CompareLink, open_link(Origin::CompareLink, &link)));
        start_at.set(fragment.at.unwrap_or(0));
        primary.set(first);
        second.set(compare);
    });

    // A file dropped anywhere outside the "compare with" zone opens as the episode.
    let dragging = RwSignal::new(false);
    let over = window_event_listener(ev::dragover, move |ev| {
        ev.prevent_default();
        dragging.set(true);
    });
    let leave = window_event_listener(ev::dragleave, move |ev| {
        if ev.related_target().is_none() {
            dragging.set(false);
        }
    });
    let drop = window_event_listener(ev::drop, move |ev| {
        ev.prevent_default();
        dragging.set(false);
        let to_compare = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("[data-drop=compare]").ok().flatten())
            .is_some();
        let slot = if to_compare { second } else { primary };
        if let Some(file) = first_file(ev.data_transfer().and_then(|d| d.files())) {
            read_into(slot, file);
        }
    });
    on_cleanup(move || {
        over.remove();
        leave.remove();
        drop.remove();
    });

    let body = move || {
        let first = primary.get();
        let compare = second.get();
        match first {
            None => view! {
                <p class="replay-intro" data-testid="replay-empty">
                    "Open a shared episode: follow its link, choose its file, or drop the file anywhere on this page."
                </p>
            }
            .into_any(),
            Some(Err(OpenError { origin, reason: Reason::MissingRom { env, game, file } })) => {
                // Once the ROM is supplied, the same episode opens.
                let on_added = Callback::new(move |_| {
                    primary.set(Some(load(origin.clone(), Ok((*file).clone()))));
                });
                view! { <NeedsRom env_id=env game=game on_added=on_added /> }.into_any()
            }
            Some(Err(OpenError { origin, reason: Reason::MissingPictures { set, file } })) => {
                // Once the pictures are in, the same episode opens.
                let on_loaded = Callback::new(move |()| {
                    primary.set(Some(load(origin.clone(), Ok((*file).clone()))));
                });
                view! { <NeedsPictures name=set on_loaded=on_loaded /> }.into_any()
            }
            Some(Err(OpenError { origin, reason: Reason::MissingPhysics { file, .. } })) => {
                // Once MuJoCo is in, the same episode opens.
                let on_loaded = Callback::new(move |()| {
                    primary.set(Some(load(origin.clone(), Ok((*file).clone()))));
                });
                view! { <NeedsPhysics on_loaded=on_loaded /> }.into_any()
            }
            Some(Err(e)) => view! { <OpenErrorBox error=e /> }.into_any(),
            Some(Ok(left)) => match compare {
                Some(Ok(right)) => match check_pair(&left.replay, &right.replay) {
                    Ok(()) => view! { <SideBySide left=left right=right start_at=start_at.get_untracked() /> }.into_any(),
                    Err(e) => view! {
                        <p class="field-error" role="alert" data-testid="compare-error">{e.to_string()}</p>
                        <SingleEpisode loaded=left start_at=start_at.get_untracked() second=second />
                    }
                    .into_any(),
                },
                Some(Err(e)) => view! {
                    <OpenErrorBox error=e />
                    <SingleEpisode loaded=left start_at=start_at.get_untracked() second=second />
                }
                .into_any(),
                None => view! { <SingleEpisode loaded=left start_at=start_at.get_untracked() second=second /> }.into_any(),
            },
        }
    };

    view! {
        <div class="replay" class:dragging=move || dragging.get()>
            <h1>"Replay an episode"</h1>
            <div class="drop-zone" data-testid="drop-zone" data-drop="primary">
                <label class="file-pick">
                    <span>"Open an episode file"</span>
                    <input
                        type="file"
                        accept=".json,application/json,.txt,text/plain"
                        data-testid="episode-file"
                        on:change=move |ev| {
                            let input = event_target::<web_sys::HtmlInputElement>(&ev);
                            if let Some(file) = first_file(input.files()) {
                                read_into(primary, file);
                            }
                        }
                    />
                </label>
                <span class="drop-hint">"…or drop it anywhere on this page."</span>
            </div>
            {body}
        </div>
    }
}

#[component]
fn OpenErrorBox(error: OpenError) -> impl IntoView {
    view! {
        <section class="error-box replay-error" role="alert" data-testid="replay-error">
            <h2>{error.title()}</h2>
            <p data-testid="replay-error-message">{error.to_string()}</p>
            <p class="muted">"Ask for the link again, or for the episode file instead."</p>
        </section>
    }
}

/// The "compare with…" picker and drop zone, filling `second`.
#[component]
fn CompareWith(second: Slot) -> impl IntoView {
    view! {
        <div class="drop-zone compare-zone" data-testid="compare-zone" data-drop="compare">
            <label class="file-pick">
                <span>"Compare with… (another episode of this task)"</span>
                <input
                    type="file"
                    accept=".json,application/json,.txt,text/plain"
                    data-testid="compare-file"
                    on:change=move |ev| {
                        let input = event_target::<web_sys::HtmlInputElement>(&ev);
                        if let Some(file) = first_file(input.files()) {
                            read_into(second, file);
                        }
                    }
                />
            </label>
            <span class="drop-hint">"…or drop its file here."</span>
        </div>
    }
}

/// ←/→ and Home/End move `scrubber` from anywhere on the page.
fn scrub_keys(scrubber: RwSignal<Scrubber>) {
    on_page_keys(move |key| {
        let mut handled = false;
        scrubber.update(|s| handled = s.press_key(key));
        handled
    });
}

#[component]
fn SingleEpisode(loaded: Rc<Loaded>, start_at: usize, second: Slot) -> impl IntoView {
    let replay = &loaded.replay;
    set_title(&format!(
        "Replay: {} · Playbench",
        task_text::title(replay.task())
    ));
    let mut initial = Scrubber::new(replay.positions());
    initial.seek(start_at);
    let scrubber = RwSignal::new(initial);
    scrub_keys(scrubber);
    let pos = Signal::derive(move || scrubber.get().pos());
    let target = share_target(replay.file(), &page_origin());
    let file_name = episode_file_name(replay.file());
    let settings = replay
        .settings_rows()
        .into_iter()
        .map(|(k, v)| view! { <div><dt>{k}</dt><dd>{v}</dd></div> })
        .collect_view();
    let fork_loaded = loaded.clone();
    // The milestone judge, for games that have milestones and episodes that fit a link.
    let judge_link = loaded
        .fragment
        .as_ref()
        .filter(|_| can_judge(replay.task()))
        .map(|fragment| {
            view! {
                <p>
                    <a href=judge_href(fragment) data-testid="episode-judge-link">"Judge its milestones with a model"</a>
                </p>
            }
        });
    view! {
        <div class="replay-single">
            <EpisodeHeader loaded=loaded.clone() />
            <Verdict loaded=loaded.clone() />
            <TimelineControls scrubber=scrubber />
            <EpisodeColumn loaded=loaded.clone() pos=pos ended=Signal::derive(|| false) max=MAX_DISPLAY />
            <ForkLinks loaded=fork_loaded pos=pos />
            {judge_link}
            <section class="replay-settings" aria-labelledby="settings-title">
                <h2 id="settings-title">"Run settings"</h2>
                <dl class="settings" data-testid="settings">{settings}</dl>
            </section>
            <ShareBox target=target file_name=file_name title="Share this episode" />
            <CompareWith second=second />
        </div>
    }
}

#[component]
fn SideBySide(left: Rc<Loaded>, right: Rc<Loaded>, start_at: usize) -> impl IntoView {
    set_title(&format!(
        "Compare: {} · Playbench",
        task_text::title(left.replay.task())
    ));
    let mut initial = Scrubber::new(shared_positions(&left.replay, &right.replay));
    initial.seek(start_at);
    let scrubber = RwSignal::new(initial);
    scrub_keys(scrubber);
    let difference = match first_difference(&left.replay, &right.replay) {
        Some(n) => format!("Their choices first differ at step {n}."),
        None => "They chose the same actions throughout.".to_string(),
    };
    let column = |loaded: Rc<Loaded>, label: &'static str| {
        let lens = StoredValue::new_local(loaded.clone());
        let l = loaded;
        let side = move || lens.with_value(|x| side_pos(&x.replay, scrubber.get().pos()));
        let pos = Signal::derive(move || side().pos);
        let ended = Signal::derive(move || side().ended);
        view! {
            <div class="replay-side" data-testid="replay-side" aria-label=label>
                <h2>{label}</h2>
                <EpisodeHeader loaded=l.clone() />
                <Verdict loaded=l.clone() />
                <EpisodeColumn loaded=l pos=pos ended=ended max=MAX_DISPLAY_PAIR />
            </div>
        }
    };
    view! {
        <div class="replay-pair" data-testid="replay-pair">
            <p class="muted" data-testid="first-difference">
                {format!("Two episodes of {}, on one timeline. {difference}", left.replay.task().id)}
            </p>
            <TimelineControls scrubber=scrubber />
            <div class="replay-columns">
                {column(left.clone(), "Episode A")}
                {column(right.clone(), "Episode B")}
            </div>
        </div>
    }
}

#[component]
fn EpisodeHeader(loaded: Rc<Loaded>) -> impl IntoView {
    let task = loaded.replay.task();
    let file = loaded.replay.file();
    // The task in its own suite (a fork's inline task links to the default suite).
    let suite = match &file.task {
        TaskRef::Suite(s) => s.suite.clone(),
        TaskRef::Inline(_) => bench::suites::DEFAULT_SUITE.to_string(),
    };
    let href = task_href(&suite, task.id.split('~').next().unwrap_or(&task.id));
    view! {
        <div class="replay-head">
            <p class="replay-title">
                <a href=href>{task_text::title(task).to_string()}</a>
                " · "
                <code data-testid="replay-task">{task.id.clone()}</code>
                " · played by "
                <strong data-testid="replay-agent">{file.agent.clone()}</strong>
            </p>
        </div>
    }
}

fn outcome_text(o: Outcome) -> String {
    format!(
        "{}, score {}",
        if o.passed { "passed" } else { "failed" },
        score_text(o.score)
    )
}

/// "Verified", or where the episode diverges; the claimed and recomputed results.
#[component]
fn Verdict(loaded: Rc<Loaded>) -> impl IntoView {
    let r = &loaded.replay;
    let verified = r.is_verified();
    let (claimed, recomputed) = (r.claimed(), r.recomputed());
    let latency = LatencyView::of(r.task(), None, &r.file().record.decisions)
        .map(|v| view! { <LatencyLine view=v testid="replay-latency" /> });
    let divergence = r.divergence().map(|d| {
        view! {
            <dl class="divergence" data-testid="divergence">
                <div><dt>"Step"</dt><dd data-testid="divergence-step">{match d.step {
                    bench::share::DivergenceStep::Start => "the start".to_string(),
                    bench::share::DivergenceStep::Decision(n) => n.to_string(),
                    bench::share::DivergenceStep::Final => "the end (totals)".to_string(),
                }}</dd></div>
                <div><dt>"Field"</dt><dd data-testid="divergence-field">{d.field.clone()}</dd></div>
                <div><dt>"The file says"</dt><dd><code>{d.expected.clone()}</code></dd></div>
                <div><dt>"Re-simulation gives"</dt><dd><code>{d.actual.clone()}</code></dd></div>
            </dl>
        }
    });
    let stopped = r
        .stopped()
        .map(|s| view! { <p class="notice" data-testid="replay-stopped">{format!("The replay stops early: {s}.")}</p> });
    view! {
        <section
            class="verdict"
            class:verified=verified
            data-testid="verdict-box"
            data-verified=verified.to_string()
            role="status"
        >
            <p class="verdict-line">
                <span class="verdict-mark" aria-hidden="true">{if verified { "✔" } else { "✘" }}</span>
                <strong data-testid="verdict">{r.verdict_text()}</strong>
            </p>
            {divergence}
            {stopped}
            <dl class="outcomes">
                <div>
                    <dt>"Claimed"</dt>
                    <dd data-testid="claimed">{outcome_text(claimed)}</dd>
                </div>
                <div>
                    <dt>"Recomputed"</dt>
                    <dd data-testid="recomputed">{outcome_text(recomputed)}</dd>
                </div>
                <div>
                    <dt>"Score"</dt>
                    <dd data-testid="recomputed-score">{score_text(recomputed.score)}</dd>
                </div>
                <div class="wide">
                    <dt>"Failure mode"</dt>
                    <dd>{failure_text(recomputed.failure)}</dd>
                </div>
            </dl>
            {latency}
        </section>
    }
}

/// First / back / forward / last, the counter and the scrubber.
#[component]
fn TimelineControls(scrubber: RwSignal<Scrubber>) -> impl IntoView {
    let counter = move || scrubber.with(Scrubber::counter_text);
    let last = scrubber.with_untracked(Scrubber::last);
    view! {
        <div class="timeline" role="group" aria-label="Timeline">
            <div class="timeline-buttons">
                <button type="button" class="secondary icon" data-testid="replay-first" aria-label="First step (start state)" title="Start (Home)"
                    on:click=move |_| { scrubber.update(|s| { s.seek(0); }); }>"|◀"</button>
                <button type="button" class="secondary icon" data-testid="replay-back" aria-label="Step back" title="Step back (←)"
                    on:click=move |_| { scrubber.update(|s| { s.back(); }); }>"◀"</button>
                <button type="button" class="secondary icon" data-testid="replay-forward" aria-label="Step forward" title="Step forward (→)"
                    on:click=move |_| { scrubber.update(|s| { s.forward(); }); }>"▶"</button>
                <button type="button" class="secondary icon" data-testid="replay-last" aria-label="Last step" title="End (End)"
                    on:click=move |_| { scrubber.update(|s| { s.seek(s.last()); }); }>"▶|"</button>
                <span class="timeline-counter" data-testid="replay-counter" aria-live="polite">{counter}</span>
            </div>
            <input
                type="range"
                class="timeline-scrub"
                min="0"
                max=last.to_string()
                step="1"
                data-testid="replay-scrub"
                aria-label="Decision"
                aria-valuetext=counter
                prop:value=move || scrubber.with(Scrubber::pos).to_string()
                on:input=move |ev| {
                    if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                        scrubber.update(|s| { s.seek(i); });
                    }
                }
            />
            <p class="hint">"←/→ step, Home/End jump, from anywhere on the page."</p>
        </div>
    }
}

/// One episode's frame, caption and step details at `pos`.
#[component]
fn EpisodeColumn(
    loaded: Rc<Loaded>,
    pos: Signal<usize>,
    ended: Signal<bool>,
    max: u32,
) -> impl IntoView {
    let shown = loaded.clone();
    let frame = FrameSource::new(move |draw| {
        if let Some(f) = shown.replay.frame(pos.get()) {
            draw(&f);
        }
    });
    let held = StoredValue::new_local(loaded.clone());
    let caption = move || held.with_value(|l| l.replay.caption(pos.get()));
    let step = move || {
        let p = pos.get();
        let details = held.get_value();
        let r = &details.replay;
        let missing = r.frame(p).is_none().then(|| {
            view! { <p class="notice">"This step could not be re-simulated: the frame is unavailable."</p> }
        });
        let final_rejected =
            (p + 1 == r.positions() && !r.final_rejected().is_empty()).then(|| {
                replies_list(
                    "Rejected replies after the last decision",
                    r.final_rejected(),
                )
            });
        let body = match r.step(p) {
            None => view! {
                <p data-testid="replay-reply" class="muted">"The start state: no decision yet."</p>
            }
            .into_any(),
            Some(s) => {
                let reply = s.raw.clone().unwrap_or_else(|| {
                    "(no reply: the agent chose the action directly)".to_string()
                });
                let mismatch = (!s.mismatches.is_empty()).then(|| {
                    view! {
                        <p class="field-error" data-testid="step-mismatch">
                            {format!("The file's {} differs from the re-simulation here.", s.mismatches.join(", "))}
                        </p>
                    }
                });
                view! {
                    <dl class="step-facts">
                        <div><dt>"Action"</dt><dd data-testid="replay-action">{s.action.clone()}</dd></div>
                        <div><dt>"Reward"</dt><dd data-testid="replay-reward">{format_reward(s.reward)}</dd></div>
                        <div><dt>"Return so far"</dt><dd>{format_reward(s.return_so_far)}</dd></div>
                        <div><dt>"Terminated"</dt><dd data-testid="replay-terminated">{s.terminated.to_string()}</dd></div>
                        <div><dt>"Truncated"</dt><dd data-testid="replay-truncated">{s.truncated.to_string()}</dd></div>
                    </dl>
                    {mismatch}
                    <p class="reply-label">"Reply"</p>
                    <pre class="reply" data-testid="replay-reply">{reply}</pre>
                    {(!s.rejected.is_empty()).then(|| replies_list("Rejected replies before it", &s.rejected))}
                }
                .into_any()
            }
        };
        view! { {missing} {body} {final_rejected} }
    };
    let aria = format!(
        "{}: the captioned frame",
        task_text::title(loaded.replay.task())
    );
    view! {
        <div class="replay-body">
            <figure class="replay-stage">
                <FrameView frame=frame max_size=max label=aria testid="replay-frame" />
                <figcaption class="replay-caption">
                    <span class="sr-only">"Caption: "</span>
                    <span data-testid="replay-caption">{caption}</span>
                    {move || ended.get().then(|| view! { <span class="muted" data-testid="replay-ended">" (this episode has ended)"</span> })}
                </figcaption>
            </figure>
            <section class="step-details" aria-label="This step">{step}</section>
        </div>
    }
}

fn replies_list(title: &'static str, replies: &[String]) -> impl IntoView {
    let items = replies
        .iter()
        .map(|r| view! { <li><pre class="reply">{r.clone()}</pre></li> })
        .collect_view();
    view! {
        <p class="reply-label">{title}</p>
        <ol class="rejected" data-testid="replay-rejected">{items}</ol>
    }
}

/// Continue the episode from the shown step, as a person or with a model.
#[component]
fn ForkLinks(loaded: Rc<Loaded>, pos: Signal<usize>) -> impl IntoView {
    let held = StoredValue::new_local(loaded);
    let failed = RwSignal::new(String::new());
    let links = move || {
        let p = pos.get();
        let loaded = held.get_value();
        let file = loaded.replay.file();
        if let Err(why) = fork(file, p) {
            return view! { <p class="muted" data-testid="fork-unavailable">{why}</p> }.into_any();
        }
        match &loaded.fragment {
            Some(fragment) => view! {
                <a class="button-link" data-testid="fork-human" href=fork_href(ForkWith::Human, p, ForkSource::Link(fragment))>
                    "Continue as a human from here"
                </a>
                <a class="button-link secondary" data-testid="fork-model" href=fork_href(ForkWith::Model, p, ForkSource::Link(fragment))>
                    "Continue with a model from here"
                </a>
            }
            .into_any(),
            None => {
                // Too large for a link: hand the episode over through localStorage.
                let json = file.to_json();
                let key = stored_key_for(&json);
                let go = move |with: ForkWith| {
                    let stored = store_episode(&local(), &key, &json).is_ok();
                    let opened = stored
                        && window()
                            .location()
                            .set_href(&fork_href(with, p, ForkSource::Stored(&key)))
                            .is_ok();
                    if !opened {
                        failed.set(
                            "This browser would not store the episode for the fork (storage \
                             full or disabled)."
                                .to_string(),
                        );
                    }
                };
                let go_model = go.clone();
                view! {
                    <button type="button" data-testid="fork-human" on:click=move |_| go(ForkWith::Human)>
                        "Continue as a human from here"
                    </button>
                    <button type="button" class="secondary" data-testid="fork-model" on:click=move |_| go_model(ForkWith::Model)>
                        "Continue with a model from here"
                    </button>
                }
                .into_any()
            }
        }
    };
    view! {
        <section class="fork" aria-labelledby="fork-title">
            <h2 id="fork-title">"Fork from this step"</h2>
            <p class="muted">"Restore the state after this decision and play on with the remaining budget."</p>
            <div class="fork-buttons">{links}</div>
            <p class="field-error" role="alert" data-testid="fork-error">{move || failed.get()}</p>
        </section>
    }
}
