//! `/compare`: results files side by side. Import any number (file picker or drag and
//! drop; kept in the browser's storage), then per environment and per tag scores and pass
//! rates with bootstrap 95% intervals, a chart, and paired differences. Every number
//! opens the list of its episodes, each linking to its replay. Runs of attempts
//! (reflect-and-retry, as files or links) show the gain per condition
//! (`compare::gains`).

use bench::results::ResultsFile;
use bench::Suite;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::browser::files::read_text;
use crate::browser::storage::local;
use crate::compare::bootstrap::{Estimate, RESAMPLES};
use crate::compare::entries::{entries, kind_text, Entry, EpisodeRef};
use crate::compare::gains::{by_attempt_text, gain_text, gains, Gain};
use crate::compare::imports::Imports;
use crate::compare::paired::{all_pairs, diff_text, Paired};
use crate::compare::table::{pass_text, score_text, table, StatRow, Table};
use crate::components::error_box::ErrorBox;
use crate::pages::home::set_title;
use crate::replay::episode_links::episode_link;
use crate::suite_data;
use crate::task_session::score_text as plain_score;

#[component]
pub fn ComparePage() -> impl IntoView {
    set_title("Compare results · Playbench");
    match suite_data::suite() {
        Ok(suite) => view! { <Compare suite=suite /> }.into_any(),
        Err(why) => view! {
            <ErrorBox
                title="The suite could not be loaded".to_string()
                message=format!("The built-in suite is broken: {why}.")
            />
        }
        .into_any(),
    }
}

/// The episodes behind a number, as opened by a click.
#[derive(Clone, Debug, PartialEq)]
struct Selection {
    title: String,
    episodes: Vec<EpisodeRef>,
}

#[derive(Clone, Debug, PartialEq)]
struct Computed {
    files: Vec<ResultsFile>,
    entries: Vec<Entry>,
    tables: Vec<Table>,
    pairs: Vec<Paired>,
}

fn reads_files(files: web_sys::FileList, imports: RwSignal<Imports>) {
    let files: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
    spawn_local(async move {
        for file in files {
            let name = file.name();
            let text = read_text(file).await.ok();
            imports.update(|im| {
                let _ = match text {
                    Some(t) => im.add(&name, &t),
                    None => im.add(&name, ""),
                };
            });
        }
    });
}

#[component]
fn Compare(suite: &'static Suite) -> impl IntoView {
    let imports = RwSignal::new(Imports::load(&local()));
    let save_error = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        save_error.set(
            imports
                .with(|im| im.save(&local()))
                .err()
                .map(|e| format!("The imported files will not survive a reload: {e}.")),
        );
    });
    let computed = Memo::new(move |_| {
        let files = imports.with(Imports::results);
        let entries = entries(&files);
        let tables = entries.iter().map(|e| table(suite, &files, e)).collect();
        let pairs = all_pairs(&files, &entries);
        Computed {
            files,
            entries,
            tables,
            pairs,
        }
    });
    let gain_rows = Memo::new(move |_| imports.with(|im| gains(&im.attempt_runs())));
    let selection = RwSignal::new(None::<Selection>);
    let dragging = RwSignal::new(false);
    let pasted = RwSignal::new(String::new());
    let add_link = move || {
        let text = pasted.get_untracked();
        if imports.try_update(|im| im.add("link", &text).is_ok()) == Some(true) {
            pasted.set(String::new());
        }
    };

    let on_change = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(files) = input.files() {
            reads_files(files, imports);
        }
        input.set_value("");
    };
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        dragging.set(false);
        if let Some(files) = ev.data_transfer().and_then(|d| d.files()) {
            reads_files(files, imports);
        }
    };

    let file_list = move || {
        imports.with(|im| {
            im.files
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    let about = format!(
                        "{} · {} · {} episodes",
                        f.file.label,
                        kind_text(f.file.kind),
                        f.file.episodes.len()
                    );
                    view! {
                        <li data-testid="imported-file">
                            <span>{about}</span>
                            <span class="muted">{format!(" ({})", f.name)}</span>
                            " "
                            <button
                                type="button"
                                class="secondary small"
                                aria-label=format!("Remove {}", f.name)
                                on:click=move |_| imports.update(|im| im.remove(i))
                            >
                                "Remove"
                            </button>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    let run_list = move || {
        imports.with(|im| {
            im.runs
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let about = format!(
                        "run of attempts · {}",
                        crate::reflector::view::summary(&r.run)
                    );
                    view! {
                        <li data-testid="imported-run">
                            <span>{about}</span>
                            <span class="muted">{format!(" ({})", r.name)}</span>
                            " "
                            <button
                                type="button"
                                class="secondary small"
                                aria-label=format!("Remove the run of attempts {}", i + 1)
                                on:click=move |_| imports.update(|im| im.remove_run(i))
                            >
                                "Remove"
                            </button>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    let error_list = move || {
        imports.with(|im| {
            im.errors
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    view! {
                        <li class="field-error" role="alert" data-testid="import-error">
                            <strong>{e.name.clone()}</strong>": "{e.message.clone()}
                            " "
                            <button
                                type="button"
                                class="secondary small"
                                on:click=move |_| imports.update(|im| im.dismiss_error(i))
                            >
                                "Dismiss"
                            </button>
                        </li>
                    }
                })
                .collect_view()
        })
    };

    view! {
        <div class="compare">
            <h1>"Compare results"</h1>
            <p class="muted">
                "Import results files — model suite runs, human study results, baselines — to see them side by side, \
                 and runs of attempts for the gain of reflect-and-retry. \
                 Files are read in this browser only and kept here across reloads."
            </p>
            <div
                class="compare-drop"
                class:dragging=move || dragging.get()
                data-testid="compare-drop"
                on:dragover=move |ev: web_sys::DragEvent| {
                    ev.prevent_default();
                    dragging.set(true);
                }
                on:dragleave=move |_| dragging.set(false)
                on:drop=on_drop
            >
                <label for="compare-files">"Results files or runs of attempts (JSON): choose them, or drop them here"</label>
                <input
                    id="compare-files"
                    type="file"
                    multiple
                    accept=".json,application/json"
                    data-testid="compare-files"
                    on:change=on_change
                />
                <label for="compare-link">"Or paste a run of attempts' link (…/attempts#a=pa1.…)"</label>
                <div class="link-row">
                <input
                    id="compare-link"
                    type="text"
                    data-testid="compare-link"
                    prop:value=move || pasted.get()
                    on:input=move |ev| pasted.set(event_target_value(&ev))
                    on:keydown=move |ev: web_sys::KeyboardEvent| {
                        if ev.key() == "Enter" {
                            add_link();
                        }
                    }
                />
                <button type="button" class="secondary small" data-testid="compare-add-link" on:click=move |_| add_link()>"Add"</button>
                </div>
            </div>
            {move || save_error.get().map(|e| view! { <p class="notice" role="alert">{e}</p> })}
            <ul class="compare-errors">{error_list}</ul>
            <ul class="compare-files">{file_list}{run_list}</ul>
            {move || {
                let c = computed.get();
                if c.entries.is_empty() {
                    if gain_rows.with(Vec::is_empty) {
                        return view! { <p class="notice" data-testid="compare-empty">"No results imported yet."</p> }.into_any();
                    }
                    return ().into_any();
                }
                view! { <Results computed=c selection=selection /> }.into_any()
            }}
            {move || {
                let rows = gain_rows.get();
                (!rows.is_empty()).then(|| view! { <Gains rows=rows /> })
            }}
            {move || selection.get().map(|s| view! { <EpisodeList selection=s computed=computed.get_untracked() on_close=move || selection.set(None) /> })}
        </div>
    }
}

#[component]
fn Results(computed: Computed, selection: RwSignal<Option<Selection>>) -> impl IntoView {
    let labels: Vec<String> = computed.entries.iter().map(|e| e.label.clone()).collect();
    let head = labels
        .iter()
        .map(|l| view! { <th scope="col">{l.clone()}</th> })
        .collect_view();
    let section = |title: &'static str, pick: fn(&Table) -> Vec<StatRow>| {
        let per_entry: Vec<Vec<StatRow>> = computed.tables.iter().map(pick).collect();
        let mut names: Vec<String> = Vec::new();
        for rows in &per_entry {
            for r in rows {
                if !names.contains(&r.name) {
                    names.push(r.name.clone());
                }
            }
        }
        let body = names
            .into_iter()
            .map(|name| {
                let cells = per_entry
                    .iter()
                    .enumerate()
                    .map(|(i, rows)| match rows.iter().find(|r| r.name == name) {
                        Some(r) => {
                            let who = labels[i].clone();
                            view! { <td><StatCell row=r.clone() who=who selection=selection /></td> }.into_any()
                        }
                        None => view! { <td class="muted">"–"</td> }.into_any(),
                    })
                    .collect_view();
                view! { <tr><th scope="row">{crate::task_text::row_label(&name)}</th>{cells}</tr> }
            })
            .collect_view();
        view! {
            <tbody>
                <tr class="section-row"><th colspan=labels.len() + 1 scope="rowgroup">{title}</th></tr>
                {body}
            </tbody>
        }
    };
    let overall = section("Overall (environments weighted equally)", |t| {
        vec![t.overall.clone()]
    });
    let envs = section("Per environment", |t| t.by_env.clone());
    let tags = section("Per tag", |t| t.by_tag.clone());
    let chart = chart(&computed);
    let pairs = computed
        .pairs
        .iter()
        .map(|p| {
            let title = format!("{} vs {}", labels[p.a], labels[p.b]);
            let episodes = p.episodes.clone();
            let open_title = title.clone();
            view! {
                <tr data-testid="paired-row">
                    <th scope="row">{title}</th>
                    <td>{p.pairs}</td>
                    <td>
                        <button
                            type="button"
                            class="link-button"
                            data-testid="paired-diff"
                            on:click=move |_| selection.set(Some(Selection { title: format!("Paired: {open_title}"), episodes: episodes.clone() }))
                        >
                            {diff_text(&p.mean_diff)}
                        </button>
                    </td>
                    <td>{format!("{} / {} / {}", p.wins, p.ties, p.losses)}</td>
                </tr>
            }
        })
        .collect_view();
    let no_pairs = computed.pairs.is_empty();
    view! {
        <section aria-labelledby="compare-method">
            <h2 id="compare-method">"How the numbers are made"</h2>
            <p class="muted" data-testid="compare-method">{format!(
                "Each cell is a 0-100 score and a pass rate, with a 95% confidence interval in brackets. \
                 Task scores are averaged within an environment and environments weighted equally, as in the suite's report. \
                 Intervals are percentile bootstrap intervals: tasks are resampled with replacement within each environment, \
                 {RESAMPLES} times, from a fixed seed (the same files always give the same intervals). \
                 Human files are also pooled into the human baseline row (a task's score is the mean over people). \
                 Click a number to list its episodes and open their replays."
            )}</p>
        </section>
        <section aria-labelledby="compare-chart-title">
            <h2 id="compare-chart-title">"Overall score"</h2>
            {chart}
        </section>
        <section aria-labelledby="compare-table-title">
            <h2 id="compare-table-title">"Scores and pass rates"</h2>
            <div class="table-scroll">
                <table class="compare-table" data-testid="compare-table">
                    <thead><tr><th scope="col">"Group"</th>{head}</tr></thead>
                    {overall}
                    {envs}
                    {tags}
                </table>
            </div>
        </section>
        <section aria-labelledby="compare-paired-title">
            <h2 id="compare-paired-title">"Paired comparisons"</h2>
            <p class="muted">
                "On the tasks and seeds both rows played: the mean score difference (first minus second, in points) \
                 with a bootstrap 95% interval over the pairs, and the pairs the first row won, tied and lost."
            </p>
            {if no_pairs {
                view! { <p class="notice" data-testid="paired-none">"No two rows share a task and seed."</p> }.into_any()
            } else {
                view! {
                    <table class="compare-table" data-testid="paired-table">
                        <thead><tr>
                            <th scope="col">"Rows"</th>
                            <th scope="col">"Paired tasks"</th>
                            <th scope="col">"Mean difference [95% CI]"</th>
                            <th scope="col">"Wins / ties / losses"</th>
                        </tr></thead>
                        <tbody>{pairs}</tbody>
                    </table>
                }.into_any()
            }}
        </section>
    }
}

/// A score and a pass rate with their intervals, each opening its episodes.
#[component]
fn StatCell(row: StatRow, who: String, selection: RwSignal<Option<Selection>>) -> impl IntoView {
    let title = format!("{who}: {}", row.name);
    let episodes = row.episodes.clone();
    let (t1, e1) = (title.clone(), episodes.clone());
    let n = row.episodes.len();
    view! {
        <button
            type="button"
            class="link-button"
            data-testid="score-cell"
            title=format!("{n} episodes on {} tasks: list them", row.tasks)
            on:click=move |_| selection.set(Some(Selection { title: t1.clone(), episodes: e1.clone() }))
        >
            {score_text(&row.score)}
        </button>
        <br />
        <button
            type="button"
            class="link-button muted"
            data-testid="pass-cell"
            on:click=move |_| selection.set(Some(Selection { title: title.clone(), episodes: episodes.clone() }))
        >
            {pass_text(&row.pass_rate)}
        </button>
    }
}

/// Overall scores as horizontal bars (0-100) with their interval as a whisker.
fn chart(c: &Computed) -> impl IntoView + use<> {
    // Each label sits above its bar, so the chart is narrow enough to read at a
    // phone's width without shrinking its text (a label column beside the bars did).
    const W: f64 = 400.0;
    const LEFT: f64 = 4.0;
    const LABEL: f64 = 16.0;
    const BAR: f64 = 18.0;
    const GAP: f64 = 10.0;
    const ROW: f64 = LABEL + BAR + GAP;
    // Room on the right for the value written past the whisker.
    let plot = W - LEFT - 44.0;
    let x = move |v: f64| LEFT + plot * v.clamp(0.0, 100.0) / 100.0;
    let n = c.entries.len();
    let height = (n as f64) * ROW + 24.0;
    let bars = c
        .entries
        .iter()
        .zip(&c.tables)
        .enumerate()
        .map(|(i, (e, t))| {
            let Estimate { value, low, high } = t.overall.score;
            let top = i as f64 * ROW;
            let y = top + LABEL;
            let mid = y + BAR / 2.0;
            let label: String = e.label.chars().take(60).collect();
            let class = format!("bar kind-{}", kind_text(e.kind));
            view! {
                <g data-testid="chart-bar">
                    <title>{format!("{}: {}", e.label, score_text(&t.overall.score))}</title>
                    <text x=LEFT y=top + 12.0 class="chart-label">{label}</text>
                    <rect x=LEFT y=y width=x(value) - LEFT height=BAR class=class></rect>
                    <line x1=x(low) x2=x(high) y1=mid y2=mid class="whisker"></line>
                    <line x1=x(low) x2=x(low) y1=mid - 6.0 y2=mid + 6.0 class="whisker"></line>
                    <line x1=x(high) x2=x(high) y1=mid - 6.0 y2=mid + 6.0 class="whisker"></line>
                    <text x=x(high) + 6.0 y=mid + 4.0 class="chart-value">{plain_score(value)}</text>
                </g>
            }
        })
        .collect_view();
    let axis_y = (n as f64) * ROW;
    let ticks = [0.0, 25.0, 50.0, 75.0, 100.0]
        .into_iter()
        .map(|v| {
            view! {
                <line x1=x(v) x2=x(v) y1=LABEL y2=axis_y class="grid"></line>
                <text x=x(v) y=axis_y + 16.0 text-anchor="middle" class="chart-tick">{plain_score(v)}</text>
            }
        })
        .collect_view();
    view! {
        <svg
            class="compare-chart"
            data-testid="compare-chart"
            viewBox=format!("0 0 {W} {height}")
            role="img"
            aria-label="Overall score of each row, 0 to 100, with its 95% confidence interval"
        >
            {ticks}
            {bars}
        </svg>
    }
}

/// The episodes behind a number, each with a link to its replay.
#[component]
fn EpisodeList(
    selection: Selection,
    computed: Computed,
    on_close: impl Fn() + 'static + Copy,
) -> impl IntoView {
    let items = selection
        .episodes
        .iter()
        .filter_map(|r| {
            let file = computed.files.get(r.file)?;
            let rec = &file.episodes.get(r.episode)?.record;
            let text = format!(
                "{} · {} · seed {} · {} · score {}",
                file.label,
                rec.task,
                rec.seed,
                if rec.passed { "passed" } else { "failed" },
                plain_score(rec.score)
            );
            // A stored episode is written before the link can be followed.
            let link = match episode_link(file, r.episode).and_then(|l| {
                l.prepare(&local())
                    .map(str::to_string)
                    .map_err(|e| e.to_string())
            }) {
                Ok(href) => {
                    view! { <a href=href data-testid="episode-link">"Replay"</a> }.into_any()
                }
                Err(e) => view! { <span class="field-error">{e}</span> }.into_any(),
            };
            Some(view! { <li>{text}" "{link}</li> })
        })
        .collect_view();
    view! {
        <section class="compare-episodes" data-testid="episode-list" role="region" aria-labelledby="episodes-title">
            <h2 id="episodes-title">{format!("Episodes: {}", selection.title)}</h2>
            <button type="button" class="secondary small" on:click=move |_| on_close()>"Close"</button>
            <ul>{items}</ul>
        </section>
    }
}

/// The gain of reflect-and-retry per task and condition.
#[component]
fn Gains(rows: Vec<Gain>) -> impl IntoView {
    let body = rows
        .into_iter()
        .map(|g| {
            let (gain, per_attempt) = (gain_text(&g), by_attempt_text(&g));
            view! {
                <tr data-testid="gain-row" data-condition=g.condition.clone()>
                    <th scope="row">{g.task.clone()}</th>
                    <td>{format!("{} ({})", g.label, g.condition)}</td>
                    <td data-testid="gain-runs">{g.runs}</td>
                    <td data-testid="gain-value">{gain}</td>
                    <td data-testid="gain-by-attempt">{per_attempt}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section aria-labelledby="compare-gains-title">
            <h2 id="compare-gains-title">"Reflect and retry: gain per condition"</h2>
            <p class="muted" data-testid="gains-method">
                "For each task and condition, over its runs of attempts: the mean gain in points (the last attempt's score \
                 minus the first's) with a 95% Student t confidence interval over the runs (none for a single run), the \
                 number of runs, and the mean score at each attempt number. Scores are as the files claim them: open a \
                 run on /attempts to verify it."
            </p>
            <div class="table-scroll">
                <table class="compare-table" data-testid="gains-table">
                    <thead><tr>
                        <th scope="col">"Task"</th>
                        <th scope="col">"Condition"</th>
                        <th scope="col">"Runs"</th>
                        <th scope="col">"Mean gain [95% CI]"</th>
                        <th scope="col">"Mean score by attempt"</th>
                    </tr></thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
        </section>
    }
}
