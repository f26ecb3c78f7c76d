//! One study task played by a participant under the agent's exact conditions
//! (`TaskSession`: budget, frame skip, hidden reward), by keyboard, buttons, the frame
//! (pointer environments) or a parametric action's form and text box; real-time
//! environments run on their clock. The finished episode is handed to `on_done` at
//! once; nothing is kept of an episode left unfinished.

use bench::{EpisodeRecord, Task};
use envs::core::action::Call;
use leptos::prelude::*;

use crate::browser::time::now_ms;
use crate::components::action_buttons::ActionButtons;
use crate::components::action_input::ParametricInput;
use crate::components::frame_view::{FrameSource, FrameView, PointerInput};
use crate::components::keys::on_page_keys;
use crate::components::realtime::{realtime_timer, RealtimeBar};
use crate::play_state::format_reward;
use crate::pointer::NoGesture;
use crate::task_session::{TaskKey, TaskSession};

/// The largest size (CSS pixels) a frame is enlarged to.
const MAX_DISPLAY: u32 = 480;

#[component]
pub fn StudyTask(
    task: &'static Task,
    session: TaskSession,
    on_done: Callback<EpisodeRecord>,
) -> impl IntoView {
    let session = RwSignal::new_local(session);
    // Hands the episode over once, when it ends.
    let handed = StoredValue::new(false);
    let check_done = move || {
        if handed.get_value() {
            return;
        }
        if let Some(record) = session.with_untracked(|s| s.record().cloned()) {
            handed.set_value(true);
            on_done.run(record);
        }
    };
    // Every way of playing goes through here, then the end is checked.
    let play = move |f: &dyn Fn(&mut TaskSession) -> Result<bool, String>| {
        let mut out = Ok(());
        session.update(|s| out = f(s).map(|_| ()));
        check_done();
        out
    };

    on_page_keys(move |key| {
        let mut handled = false;
        session.maybe_update(|s| {
            let r = s.press_key_at(key, now_ms());
            handled = r.handled();
            !matches!(r, TaskKey::Unbound | TaskKey::Over)
        });
        if handled {
            check_done();
        }
        handled
    });

    let poll = Memo::new(move |_| session.with(TaskSession::poll_ms));
    let virtual_ms = RwSignal::new(0u64);
    realtime_timer(poll, move || {
        session.maybe_update(|s| s.tick(now_ms()));
        virtual_ms.set(session.with_untracked(|s| s.virtual_ms().unwrap_or(0)));
        check_done();
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
                        session.with(|s| s.virtual_ms().unwrap_or(0))
                    })
                    paused=Signal::derive(move || session.with(TaskSession::is_paused))
                    over=Signal::derive(move || session.with(TaskSession::is_done))
                    on_toggle=Callback::new(move |()| session.update(|s| s.toggle_pause(now_ms())))
                />
            }
        })
    };

    let frame = FrameSource::new(move |draw| session.with(|s| draw(s.frame())));
    // A memo: the form is rebuilt when the functions change, not after every step.
    let functions: Signal<_> = Memo::new(move |_| session.with(TaskSession::functions)).into();
    let pointer = PointerInput {
        mode: Signal::derive(move || session.with(TaskSession::pointer_mode)),
        on_gesture: Callback::new(move |g| {
            // A gesture that maps to no action leaves its message in the session.
            let _ = play(&|s| s.play_gesture(g, now_ms()));
        }),
        on_miss: Callback::new(move |miss: NoGesture| session.update(|s| s.note(miss.message()))),
    };
    let controls = session.with_untracked(|s| s.controls().to_vec());
    let on_action = Callback::new(move |index: usize| {
        // A refusal is kept in the session and shown below the buttons.
        let _ = play(&|s| s.play_preset(index, now_ms()));
    });
    let rules = if task.rules.trim().is_empty() {
        "No rules beyond what the demonstrations show.".to_string()
    } else {
        task.rules.clone()
    };
    let reward = move || {
        session
            .with(TaskSession::visible_reward)
            .map(format_reward)
            .unwrap_or_else(|| "hidden".into())
    };
    view! {
        <div class="study-play">
            <p class="rules" data-testid="study-task-rules">{rules}</p>
            <div class="play-grid">
                <figure class="stage">
                    <FrameView
                        frame=frame
                        max_size=MAX_DISPLAY
                        label="The current frame, as the agent sees it"
                        testid="frame"
                        pointer=pointer
                    />
                </figure>
                <div class="panel">
                    <dl class="stats stats-two">
                        <div>
                            <dt>"Decision"</dt>
                            <dd data-testid="decision-text" aria-live="polite">
                                {move || session.with(TaskSession::decision_text)}
                            </dd>
                        </div>
                        <div>
                            <dt>"Reward"</dt>
                            <dd>{reward}</dd>
                        </div>
                    </dl>
                    {realtime}
                    <h3 class="panel-title">"Actions"</h3>
                    <ActionButtons controls=controls on_action=on_action />
                    <p class="hint">"Keys work anywhere on the page: one press, one decision."</p>
                    {move || {
                        session
                            .with(|s| s.last_error().map(str::to_string))
                            .map(|e| view! { <p class="field-error" role="alert">{e}</p> })
                    }}
                    <ParametricInput
                        functions=functions
                        play_call=Callback::new(move |call: Call| play(&|s| s.play_call(call.clone(), now_ms())))
                        play_text=Callback::new(move |text: String| play(&|s| s.play_text(&text, now_ms())))
                        text_of=Callback::new(move |call: Call| session.with(|s| s.call_text(&call)))
                    />
                </div>
            </div>
        </div>
    }
}
