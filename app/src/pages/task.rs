//! `/task?id=ID[&suite=S]`: one task of a built-in suite (the default one unless
//! `suite=` names another) — its rules, budget, pass condition and score rule in words —
//! with a player for each demonstration clip and a way to play it.

use bench::Task;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::components::asset_gate::AssetGate;
use crate::components::demo_clip::DemoPlayer;
use crate::components::error_box::ErrorBox;
use crate::demo_player::ClipFrames;
use crate::pages::home::set_title;
use crate::routes::{
    self, suite_href, task_href, task_play_href, task_reflect_href, task_run_href,
};
use crate::suite_data::{self, TaskLoadError};
use crate::suite_filter::Filter;
use crate::task_text;

/// The suite and task a page's query names (`suite=`, and `id=` or `task=`).
pub fn suite_task(
    suite: Option<&str>,
    id: Option<&str>,
) -> Result<(&'static bench::Suite, &'static Task), TaskLoadError> {
    let suite = suite_data::suite_for(suite)?;
    suite_data::find_task(suite, id.unwrap_or_default()).map(|t| (suite, t))
}

#[component]
pub fn TaskPage() -> impl IntoView {
    let query = use_query_map();
    let found = Memo::new(move |_| {
        query.with(|q| {
            suite_task(q.get_str("suite"), q.get_str("id")).map(|(s, t)| (s.id.as_str(), t))
        })
    });
    move || match found.get() {
        // Once a missing ROM or set of pictures is in, the demonstrations are played.
        Ok((suite, task)) => view! {
            <AssetGate env_id=task.env.clone() kwargs=task.kwargs.clone()>
                <TaskDetail task=task suite=suite />
            </AssetGate>
        }
        .into_any(),
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
    let (suite, back) = match &error {
        TaskLoadError::UnknownTask { suite, .. } => (suite.clone(), suite_href(suite)),
        _ => (
            bench::suites::DEFAULT_SUITE.to_string(),
            routes::SUITE.to_string(),
        ),
    };
    view! {
        <ErrorBox
            title=error.title().to_string()
            message=error.to_string()
            back_href=back
            back_label="Back to the benchmark suite"
        >
            {(!suggestions.is_empty()).then(|| {
                let links = suggestions
                    .iter()
                    .map(|id| view! { <li><a href=task_href(&suite, id)>{id.clone()}</a></li> })
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
pub fn TagChips(task: &'static Task, suite: &'static str) -> impl IntoView {
    let family_href = Filter {
        family: Some(task.tags.family.clone()),
        ..Filter::default()
    }
    .href(suite);
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
fn TaskDetail(task: &'static Task, suite: &'static str) -> impl IntoView {
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
        .map(|(i, clip)| view! { <DemoPlayer clip=clip index=i active=active max_size=480 /> })
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
                <a href=suite_href(suite)>"Benchmark suite"</a>
            </nav>
            <div class="task-title">
                <h1 data-testid="task-title">{title}</h1>
                <code class="task-id" data-testid="task-id">{task.id.clone()}</code>
            </div>
            <TagChips task=task suite=suite />
            <div class="task-intro">
                <section class="rules-box" aria-labelledby="rules-title">
                    <h2 id="rules-title">"Rules"</h2>
                    <p data-testid="task-rules">{rules}</p>
                    <TaskFacts task=task />
                </section>
                <div class="task-actions">
                    <a class="button-link big" href=task_play_href(suite, &task.id, false) data-testid="play-task">
                        "Play this task"
                    </a>
                    <a class="button-link big secondary" href=task_play_href(suite, &task.id, true) data-testid="record-task">
                        "Record a demo"
                    </a>
                    <a class="button-link big secondary" href=task_run_href(suite, &task.id) data-testid="run-task">
                        "Run with a model"
                    </a>
                    {crate::reflector::setup::can_reflect(task).then(|| view! {
                        <a class="button-link big secondary" href=task_reflect_href(suite, &task.id) data-testid="reflect-task">
                            "Reflect and retry"
                        </a>
                    })}
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
