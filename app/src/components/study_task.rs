//! One study task played by a participant under the agent's exact conditions
//! (`TaskSession`: budget, frame skip, hidden reward), by keyboard or buttons. The
//! finished episode is handed to `on_done` at once; nothing is kept of an episode
//! left unfinished.

use bench::{EpisodeRecord, Task};
use leptos::prelude::*;

use crate::components::action_buttons::ActionButtons;
use crate::components::frame_canvas::{draw_frame, report};
use crate::components::keys::on_page_keys;
use crate::play_state::{display_scale, format_reward};
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

    on_page_keys(move |key| {
        let mut handled = false;
        session.maybe_update(|s| {
            let r = s.press_key(key);
            handled = r.handled();
            matches!(r, TaskKey::Played(_) | TaskKey::Refused(_))
        });
        if handled {
            check_done();
        }
        handled
    });

    let canvas = NodeRef::<leptos::html::Canvas>::new();
    Effect::new(move |_| {
        if let Some(canvas) = canvas.get() {
            session.with(|s| report(draw_frame(&canvas, s.frame())));
        }
    });
    let (w, h) = session.with_untracked(|s| (s.frame().width(), s.frame().height()));
    let scale = display_scale(w, h, MAX_DISPLAY);
    let class = if scale > 1 {
        "frame pixelated"
    } else {
        "frame"
    };
    let controls = session.with_untracked(|s| s.controls().to_vec());
    let on_action = Callback::new(move |index: usize| {
        session.update(|s| {
            // A refusal is kept in the session and shown below the buttons.
            let _ = s.act(index);
        });
        check_done();
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
                    <canvas
                        node_ref=canvas
                        class=class
                        width=w
                        height=h
                        style:width=format!("{}px", w * scale)
                        tabindex="0"
                        role="img"
                        data-testid="frame"
                        aria-label="The current frame, as the agent sees it"
                    ></canvas>
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
                    <h3 class="panel-title">"Actions"</h3>
                    <ActionButtons controls=controls on_action=on_action />
                    <p class="hint">"Keys work anywhere on the page: one press, one decision."</p>
                    {move || {
                        session
                            .with(|s| s.last_error().map(str::to_string))
                            .map(|e| view! { <p class="field-error" role="alert">{e}</p> })
                    }}
                </div>
            </div>
        </div>
    }
}
