//! Every request of a model episode: why it was sent, its size, the wait, the reply
//! (reasoning included), the parsed action or what was wrong, latency and tokens.

use leptos::prelude::*;

use bench::model_episode::{Attempt, Turn};

/// `45.2 KB`, `812 B`.
pub fn bytes_text(n: usize) -> String {
    if n >= 1024 {
        format!("{:.1} KB", n as f64 / 1024.0)
    } else {
        format!("{n} B")
    }
}

fn heading(t: &Turn) -> String {
    let turn = if t.step == 0 {
        "First turn".to_string()
    } else {
        format!("Step {}", t.step)
    };
    match t.attempt {
        Attempt::First => turn,
        Attempt::FormatRetry(n) => format!("{turn} · format retry {n} of 3"),
        Attempt::TransportRetry(n) => format!("{turn} · transport retry {n} of 3"),
    }
}

#[component]
pub fn TurnLog(turns: Signal<Vec<Turn>>) -> impl IntoView {
    view! {
        <ol class="turn-log" data-testid="turn-log" aria-label="Requests and replies">
            <For
                each=move || turns.get().into_iter().enumerate()
                key=|(i, t)| (*i, t.latency_ms.is_some(), t.action.clone(), t.problem.clone())
                children=move |(_, t)| {
                    let state = if t.action.is_some() {
                        "accepted"
                    } else if t.problem.is_some() {
                        "rejected"
                    } else if t.latency_ms.is_none() {
                        "waiting"
                    } else {
                        "answered"
                    };
                    let size = format!(
                        "{} request · {} image(s), {}",
                        bytes_text(t.request_bytes),
                        t.images,
                        bytes_text(t.image_bytes)
                    );
                    let timing = match t.latency_ms {
                        Some(ms) => format!("{ms:.0} ms"),
                        None => "waiting for the answer\u{2026}".to_string(),
                    };
                    let tokens = t
                        .tokens
                        .map(|(i, o)| format!(" · {i} in / {o} out tokens"))
                        .unwrap_or_default();
                    let wait = if t.wait_before_ms > 0 {
                        format!(" · waited {:.1} s before sending", t.wait_before_ms as f64 / 1000.0)
                    } else {
                        String::new()
                    };
                    view! {
                        <li class=format!("turn turn-{state}") data-testid="turn" data-state=state
                            data-work-ms=format!("{:.3}", t.work_ms)>
                            <p class="turn-head">
                                <strong>{heading(&t)}</strong>
                                <span class="turn-meta">{format!(" · {size} · {timing}{tokens}{wait}")}</span>
                            </p>
                            {t.reply.clone().map(|r| view! { <pre class="reply" data-testid="reply" tabindex="0" aria-label="Reply">{r}</pre> })}
                            {t.action.clone().map(|a| view! {
                                <p class="turn-action" data-testid="turn-action">"Action: " <code>{a}</code></p>
                            })}
                            {t.problem.clone().map(|p| view! {
                                <p class="turn-problem" data-testid="turn-problem">{p}</p>
                            })}
                        </li>
                    }
                }
            />
        </ol>
    }
}
