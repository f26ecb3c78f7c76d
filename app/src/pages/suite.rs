//! `/suite[?suite=ID&memory=…&dynamics=…&family=…&initialized=…]`: the built-in suites,
//! and one suite's tasks (the default suite unless `suite=` names another, at its
//! latest version), grouped by environment, filtered by tag (the filters live in the
//! URL), with the random and oracle baselines.

use bench::task::{Dynamics, Memory};
use bench::{Suite, Task};
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;

use crate::pages::home::set_title;
use crate::pages::task::TaskLoadErrorBox;
use crate::routes::{self, suite_href, task_href, task_play_href, task_run_href};
use crate::suite_data::{self, pass_cell, score_cell, BaselineRow, Baselines};
use crate::suite_filter::{self, dynamics_value, memory_value, Filter, Group};
use crate::task_text;

/// Groups start open when the filter leaves at most this many tasks.
const OPEN_UP_TO: usize = 30;

#[component]
pub fn SuitePage() -> impl IntoView {
    set_title("Benchmark suite · Playbench");
    let query = use_query_map();
    let wanted = Memo::new(move |_| query.with(|q| q.get_str("suite").map(str::to_string)));
    move || match suite_data::suite_for(wanted.get().as_deref()) {
        Ok(suite) => view! { <SuiteView suite=suite /> }.into_any(),
        Err(e) => view! { <TaskLoadErrorBox error=e /> }.into_any(),
    }
}

/// The built-in suites, the shown one marked.
#[component]
fn SuiteList(current: &'static str) -> impl IntoView {
    let items = suite_data::listing()
        .into_iter()
        .map(|s| {
            let here = s.id == current;
            let versions = if s.versions.len() > 1 {
                format!(" (versions {} verify)", s.versions.iter().map(u32::to_string).collect::<Vec<_>>().join(", "))
            } else {
                String::new()
            };
            view! {
                <li data-testid="suite-entry" data-suite=s.id>
                    <a href=suite_href(s.id) aria-current=here.then_some("page")>
                        <code>{s.id}</code>
                    </a>
                    {format!(" v{} · {} tasks over {} environments{versions}", s.version, s.tasks, s.envs)}
                    {(!s.description.is_empty()).then(|| view! { <span class="muted">{format!(" · {}", s.description)}</span> })}
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="suite-list" aria-labelledby="suites-title">
            <h2 id="suites-title">"Built-in suites"</h2>
            <ul data-testid="suite-list">{items}</ul>
        </section>
    }
}

#[component]
fn SuiteView(suite: &'static Suite) -> impl IntoView {
    let query = use_query_map();
    let families = suite_filter::families(suite);
    let known = families.clone();
    let family_order = families.clone();
    let parsed = Memo::new(move |_| {
        query.with(|q| {
            Filter::parse(
                q.get_str("memory"),
                q.get_str("dynamics"),
                q.get_str("family"),
                q.get_str("initialized"),
                &known,
            )
        })
    });
    let filter = Memo::new(move |_| parsed.with(|p| p.0.clone()));
    let navigate = use_navigate();
    let set_filter = Callback::new(move |f: Filter| {
        let options = NavigateOptions {
            scroll: false,
            ..Default::default()
        };
        navigate(&f.href(&suite.id), options);
    });

    let env_order: Vec<String> = suite_filter::groups(suite, &Filter::default())
        .into_iter()
        .map(|g| g.env_id)
        .collect();
    let env_count = env_order.len();
    let shown =
        Memo::new(move |_| filter.with(|f| suite.tasks.iter().filter(|t| f.matches(t)).count()));
    let count_text = move || {
        let n = shown.get();
        let total = suite.tasks.len();
        let what = filter.with(Filter::describe);
        if what.is_empty() {
            format!("Showing all {total} tasks.")
        } else {
            format!("Showing {n} of {total} tasks ({what}).")
        }
    };
    // Expand / collapse all: a generation counter, so pressing the same button again
    // re-applies it after groups were toggled by hand.
    let open_all = RwSignal::new((0u32, None::<bool>));

    let problems = move || {
        let errors = parsed.with(|p| p.1.clone());
        (!errors.is_empty()).then(|| {
            let items = errors
                .iter()
                .map(|e| view! { <li>{e.to_string()}</li> })
                .collect_view();
            view! {
                <div class="notice notice-error" role="alert" data-testid="filter-error">
                    <p><strong>"Some filters in the link were not understood and are ignored:"</strong></p>
                    <ul>{items}</ul>
                    <p><a href=suite_href(&suite.id)>"Show all tasks"</a></p>
                </div>
            }
        })
    };

    let groups = move || {
        let f = filter.get();
        let groups = suite_filter::groups(suite, &f);
        if groups.is_empty() {
            return view! {
                <p class="notice" data-testid="no-tasks">
                    "No task has all of these tags. "
                    <a href=suite_href(&suite.id)>"Clear the filters"</a>
                </p>
            }
            .into_any();
        }
        let (generation, forced) = open_all.get();
        let open = forced.unwrap_or(shown.get_untracked() <= OPEN_UP_TO);
        let _ = generation;
        groups
            .into_iter()
            .map(|g| view! { <EnvGroup group=g open=open suite=suite.id.as_str() /> })
            .collect_view()
            .into_any()
    };

    view! {
        <div class="suite">
            <nav class="crumbs" aria-label="Breadcrumb">
                <a href=routes::HOME>"All environments"</a>
            </nav>
            <h1>"Benchmark suite " <code class="suite-id" data-testid="suite-id">{suite.id.clone()}</code></h1>
            <p class="intro">
                {suite.description.clone()}
                {format!(
                    " Version {}: {} tasks over {} environments.",
                    suite.version,
                    suite.tasks.len(),
                    env_count,
                )}
            </p>
            <p class="intro">
                "Agents and people play every task under the same conditions: the seed, the decision "
                "budget and frame skip, the rules text, and the reward hidden unless a task shows it. "
                "Open a task to watch its demonstrations or play it yourself. "
                <a href="#baselines">"Baselines ↓"</a>
            </p>
            <p class="intro">
                <a href=routes::suite_run_href(&suite.id) data-testid="suite-run-link">"Run this suite with a model"</a>
                " · "
                <a href=routes::study_href(&suite.id) data-testid="suite-study-link">"Build a human study from it"</a>
            </p>
            {problems}
            <FilterBar filter=filter families=families set_filter=set_filter suite=suite.id.as_str() />
            <div class="suite-toolbar">
                <p class="result-count" role="status" data-testid="task-count">{count_text}</p>
                <div class="group-buttons">
                    <button
                        type="button"
                        class="secondary small"
                        data-testid="expand-all"
                        on:click=move |_| open_all.update(|(g, o)| { *g += 1; *o = Some(true); })
                    >
                        "Expand all"
                    </button>
                    <button
                        type="button"
                        class="secondary small"
                        data-testid="collapse-all"
                        on:click=move |_| open_all.update(|(g, o)| { *g += 1; *o = Some(false); })
                    >
                        "Collapse all"
                    </button>
                </div>
            </div>
            <div class="env-groups">{groups}</div>
            <BaselineTables suite=suite env_order=env_order family_order=family_order />
            <SuiteList current=bench::suites::ids().into_iter().find(|id| *id == suite.id).unwrap_or_default() />
        </div>
    }
}

/// One `<select>` per tag; a change navigates to the filtered URL.
#[component]
fn FilterBar(
    filter: Memo<Filter>,
    families: Vec<String>,
    set_filter: Callback<Filter>,
    suite: &'static str,
) -> impl IntoView {
    let memory_opts = [
        ("", "any"),
        (memory_value(Memory::Single), "single"),
        (memory_value(Memory::Multiple), "multiple"),
    ];
    let dynamics_opts = [
        ("", "any"),
        (dynamics_value(Dynamics::Static), "static"),
        (dynamics_value(Dynamics::Dynamic), "dynamic"),
    ];
    let start_opts = [
        ("", "any"),
        ("1", "initialized only"),
        ("0", "not initialized"),
    ];
    let options = |opts: Vec<(String, String)>, current: Signal<String>| {
        opts.into_iter()
            .map(|(value, label)| {
                let v = value.clone();
                view! {
                    <option value=value prop:selected=move || current.get() == v>{label}</option>
                }
            })
            .collect_view()
    };
    let to_owned = |o: &[(&str, &str)]| -> Vec<(String, String)> {
        o.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    let memory_now = Signal::derive(move || {
        filter.with(|f| f.memory.map(memory_value).unwrap_or_default().to_string())
    });
    let dynamics_now = Signal::derive(move || {
        filter.with(|f| {
            f.dynamics
                .map(dynamics_value)
                .unwrap_or_default()
                .to_string()
        })
    });
    let family_now = Signal::derive(move || filter.with(|f| f.family.clone().unwrap_or_default()));
    let start_now = Signal::derive(move || {
        filter.with(|f| match f.initialized {
            Some(true) => "1".to_string(),
            Some(false) => "0".to_string(),
            None => String::new(),
        })
    });
    let mut family_opts = vec![(String::new(), "any".to_string())];
    family_opts.extend(families.iter().map(|f| (f.clone(), f.clone())));

    let on_memory = move |ev| {
        let v = event_target_value(&ev);
        let mut f = filter.get_untracked();
        f.memory = match v.as_str() {
            "single" => Some(Memory::Single),
            "multiple" => Some(Memory::Multiple),
            _ => None,
        };
        set_filter.run(f);
    };
    let on_dynamics = move |ev| {
        let v = event_target_value(&ev);
        let mut f = filter.get_untracked();
        f.dynamics = match v.as_str() {
            "static" => Some(Dynamics::Static),
            "dynamic" => Some(Dynamics::Dynamic),
            _ => None,
        };
        set_filter.run(f);
    };
    let on_family = move |ev| {
        let v = event_target_value(&ev);
        let mut f = filter.get_untracked();
        f.family = (!v.is_empty()).then_some(v);
        set_filter.run(f);
    };
    let on_start = move |ev| {
        let v = event_target_value(&ev);
        let mut f = filter.get_untracked();
        f.initialized = match v.as_str() {
            "1" => Some(true),
            "0" => Some(false),
            _ => None,
        };
        set_filter.run(f);
    };
    let clear = move || {
        (!filter.with(Filter::is_empty)).then(|| {
            view! {
                <a class="clear-filters" href=suite_href(suite) data-testid="clear-filters">"Clear filters"</a>
            }
        })
    };
    view! {
        <form class="filters" role="search" aria-label="Filter tasks by tag" on:submit=|ev| ev.prevent_default()>
            <label>
                <span>"Memory"</span>
                <select data-testid="filter-memory" on:change=on_memory>
                    {options(to_owned(&memory_opts), memory_now)}
                </select>
            </label>
            <label>
                <span>"Dynamics"</span>
                <select data-testid="filter-dynamics" on:change=on_dynamics>
                    {options(to_owned(&dynamics_opts), dynamics_now)}
                </select>
            </label>
            <label>
                <span>"Family"</span>
                <select data-testid="filter-family" on:change=on_family>
                    {options(family_opts, family_now)}
                </select>
            </label>
            <label>
                <span>"Start"</span>
                <select data-testid="filter-initialized" on:change=on_start>
                    {options(to_owned(&start_opts), start_now)}
                </select>
            </label>
            {clear}
        </form>
    }
}

/// One environment's tasks, in a disclosure.
#[component]
fn EnvGroup(group: Group<'static>, open: bool, suite: &'static str) -> impl IntoView {
    let slug = group.slug();
    let heading = format!("{slug}-title");
    let labelled_by = heading.clone();
    let env_id = group.env_id.clone();
    let count = group.count_text();
    let summary = envs::spec(&group.env_id)
        .map(|s| s.summary)
        .unwrap_or_default();
    let cards = group
        .tasks
        .iter()
        .map(|t| view! { <TaskCard task=t suite=suite /> })
        .collect_view();
    view! {
        <section class="env-group" data-testid="env-group" data-env=env_id aria-labelledby=labelled_by>
            <details open=open>
                <summary>
                    <h2 id=heading>{group.env_id.clone()}</h2>
                    <span class="group-count">{count}</span>
                    <span class="group-summary">{summary}</span>
                </summary>
                <ul class="task-list">{cards}</ul>
            </details>
        </section>
    }
}

/// A task: title, tags, rules and how it is judged, with its links.
#[component]
fn TaskCard(task: &'static Task, suite: &'static str) -> impl IntoView {
    let chips = task_text::tag_chips(task)
        .into_iter()
        .map(|c| view! { <li>{c}</li> })
        .collect_view();
    let rules = (!task.rules.trim().is_empty())
        .then(|| view! { <p class="rules" data-testid="task-rules">{task.rules.clone()}</p> });
    let start = task_text::start_text(task).map(|s| view! { <p class="start-note">{s}</p> });
    let title = task_text::title(task).to_string();
    let play_label = format!("Play {title}");
    view! {
        <li
            class="task-card"
            data-testid="task-card"
            data-task-id=task.id.clone()
            data-memory=memory_value(task.tags.memory)
            data-dynamics=dynamics_value(task.tags.dynamics)
            data-family=task.tags.family.clone()
        >
            <div class="task-head">
                <h3><a href=task_href(suite, &task.id)>{title}</a></h3>
                <code class="task-id">{task.id.clone()}</code>
            </div>
            <ul class="chips" aria-label="Tags">{chips}</ul>
            {rules}
            {start}
            <dl class="facts">
                <div><dt>"Budget"</dt><dd data-testid="task-budget">{task_text::budget_text(task)}</dd></div>
                <div><dt>"Pass"</dt><dd data-testid="task-pass">{task_text::pass_text(task)}</dd></div>
                <div><dt>"Score"</dt><dd data-testid="task-score">{task_text::score_text(&task.score)}</dd></div>
            </dl>
            <p class="links">
                <a class="button-link" href=task_href(suite, &task.id)>"Rules & demos"</a>
                <a class="button-link" href=task_play_href(suite, &task.id, false) aria-label=play_label>"Play"</a>
                <a class="button-link" href=task_run_href(suite, &task.id)
                    aria-label=format!("Run {} with a model", task.id)>"Run a model"</a>
            </p>
        </li>
    }
}

/// The random and oracle baselines: overall, per environment, per tag.
#[component]
fn BaselineTables(
    suite: &'static Suite,
    env_order: Vec<String>,
    family_order: Vec<String>,
) -> impl IntoView {
    let baselines = Baselines::of(suite);
    let errors = (!baselines.errors.is_empty()).then(|| {
        let items = baselines
            .errors
            .iter()
            .map(|(which, why)| view! { <li>{format!("The {which} baseline could not be read: {why}")}</li> })
            .collect_view();
        view! { <ul class="notice notice-error" role="alert">{items}</ul> }
    });
    let body = if baselines.is_empty() {
        view! {
            <p class="notice" data-testid="no-baselines">
                "No baseline results have been recorded for this suite yet."
            </p>
        }
        .into_any()
    } else {
        let sections = baselines
            .sections_in_order(&env_order, &family_order)
            .into_iter()
            .filter(|s| !s.rows.is_empty())
            .map(|s| {
                let overall = s.title.starts_with("Overall");
                let rows = s
                    .rows
                    .into_iter()
                    .map(|r| view! { <BaselineLine row=r strong=overall /> })
                    .collect_view();
                view! {
                    <tbody>
                        <tr class="section-row">
                            <th colspan="5" scope="colgroup">{s.title}</th>
                        </tr>
                        {rows}
                    </tbody>
                }
            })
            .collect_view();
        view! {
            <div class="table-scroll">
                <table class="baseline-table" data-testid="baseline-table">
                    <caption class="sr-only">"Random and oracle baselines: score (0-100) and pass rate"</caption>
                    <thead>
                        <tr>
                            <th rowspan="2" scope="col">"Group"</th>
                            <th colspan="2" scope="colgroup">"Random policy"</th>
                            <th colspan="2" scope="colgroup">"Oracle"</th>
                        </tr>
                        <tr>
                            <th scope="col">"Score"</th>
                            <th scope="col">"Pass"</th>
                            <th scope="col">"Score"</th>
                            <th scope="col">"Pass"</th>
                        </tr>
                    </thead>
                    {sections}
                </table>
            </div>
        }
        .into_any()
    };
    view! {
        <section class="baselines" id="baselines" aria-labelledby="baselines-title">
            <h2 id="baselines-title">"Baselines"</h2>
            <p class="muted">
                "A uniformly random policy and the oracle solver, scored like any agent. Scores are 0-100, "
                "averaged over the tasks of an environment, then over environments weighted equally; "
                "the pass rate is the share of episodes meeting their task's pass condition."
            </p>
            {errors}
            {body}
        </section>
    }
}

#[component]
fn BaselineLine(row: BaselineRow, strong: bool) -> impl IntoView {
    let count = row
        .oracle
        .as_ref()
        .or(row.random.as_ref())
        .map(|r| r.count)
        .unwrap_or(0);
    let unit = if row.name.contains(": ") || row.name == "overall" {
        "env"
    } else {
        "task"
    };
    let count = match count {
        1 => format!("1 {unit}"),
        n => format!("{n} {unit}s"),
    };
    let class = if strong { "overall" } else { "" };
    view! {
        <tr class=class>
            <th scope="row">
                <span class="row-name">{crate::task_text::row_label(&row.name)}</span>
                <span class="row-count">{count}</span>
            </th>
            <td>{score_cell(row.random.as_ref())}</td>
            <td>{pass_cell(row.random.as_ref())}</td>
            <td>{score_cell(row.oracle.as_ref())}</td>
            <td>{pass_cell(row.oracle.as_ref())}</td>
        </tr>
    }
}
