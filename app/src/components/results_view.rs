//! A results file shown as the protocol's table (overall, per environment, per tag,
//! outcomes, usage) with a bar chart of the per-environment scores.

use bench::report::Row;
use bench::results::ResultsFile;
use leptos::prelude::*;

use crate::runner::suite_run::env_bars;
use crate::suite_data::{pass_cell, score_cell};

/// Environment rows count tasks; overall and tag rows count environments.
fn count_text(r: &Row, kind: &str) -> String {
    let unit = if kind == "env" { "task" } else { "env" };
    format!("{} {unit}{}", r.count, if r.count == 1 { "" } else { "s" })
}

fn rows_view(rows: Vec<Row>, kind: &'static str) -> impl IntoView {
    rows.into_iter()
        .map(|r| {
            view! {
                <tr data-row=kind>
                    <th scope="row">{crate::task_text::row_label(&r.name)}</th>
                    <td>{count_text(&r, kind)}</td>
                    <td>{r.episodes}</td>
                    <td>{score_cell(Some(&r))}</td>
                    <td>{pass_cell(Some(&r))}</td>
                </tr>
            }
        })
        .collect_view()
}

#[component]
pub fn ResultsTable(results: ResultsFile) -> impl IntoView {
    let r = results.report.clone();
    let outcomes = r
        .failures
        .iter()
        .map(|(k, v)| format!("{} {v}", k.replace('_', " ")))
        .collect::<Vec<_>>()
        .join(" · ");
    let usage = results.usage.as_ref().map(bench::results::Usage::summary);
    view! {
        <table class="results-table" data-testid="results-table">
            <caption>{format!("{} on {}", results.label, r.suite)}</caption>
            <thead>
                <tr>
                    <th scope="col"></th>
                    <th scope="col">"of"</th>
                    <th scope="col">"episodes"</th>
                    <th scope="col">"score"</th>
                    <th scope="col">"pass"</th>
                </tr>
            </thead>
            <tbody>
                <tr class="overall" data-row="overall" data-testid="results-overall">
                    <th scope="row">"Overall (environments weighted equally)"</th>
                    <td>{count_text(&r.overall, "overall")}</td>
                    <td>{r.overall.episodes}</td>
                    <td data-testid="results-score">{score_cell(Some(&r.overall))}</td>
                    <td data-testid="results-pass">{pass_cell(Some(&r.overall))}</td>
                </tr>
                <tr class="section"><th colspan="5" scope="rowgroup">"Per environment"</th></tr>
                {rows_view(r.by_env.clone(), "env")}
                <tr class="section"><th colspan="5" scope="rowgroup">"Per tag"</th></tr>
                {rows_view(r.by_tag.clone(), "tag")}
            </tbody>
        </table>
        <p data-testid="results-outcomes">"Outcomes: " {outcomes}</p>
        {usage.map(|u| view! { <p data-testid="results-usage">"Usage: " {u}</p> })}
        <EnvChart results=results />
    }
}

/// Horizontal bars, one per environment: the score (0-100), the pass rate in the label.
#[component]
pub fn EnvChart(results: ResultsFile) -> impl IntoView {
    let bars = env_bars(&results);
    view! {
        <figure class="env-chart" data-testid="env-chart">
            <figcaption>"Score per environment (0-100)"</figcaption>
            <ul>
                {bars
                    .into_iter()
                    .map(|(name, score, pass)| {
                        view! {
                            <li>
                                <span class="bar-label">{name.clone()}</span>
                                <span class="bar-track" role="img"
                                    aria-label=format!("{name}: score {score:.1}, pass rate {:.0}%", pass * 100.0)>
                                    <span class="bar" style:width=format!("{:.1}%", score.clamp(0.0, 100.0))></span>
                                </span>
                                <span class="bar-value">{format!("{score:.1} · {:.0}%", pass * 100.0)}</span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </figure>
    }
}
