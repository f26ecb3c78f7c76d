//! A run of attempts' reflection turns (`reflector::view::TurnView`): the stage, the
//! system message, the user texts, the frames and the reply, each as plain text (model
//! replies are untrusted input, never markup).

use leptos::prelude::*;

use crate::reflector::view::TurnView;

#[component]
pub fn ReflectionTurns(turns: Vec<TurnView>) -> impl IntoView {
    let items = turns
        .into_iter()
        .map(|t| {
            view! {
                <li class="reflection-turn" data-testid="reflection-turn">
                    <h4 data-testid="turn-stage">{t.stage}</h4>
                    {(!t.media.is_empty()).then(|| view! { <p class="muted" data-testid="turn-media">{t.media}</p> })}
                    {(!t.frames.is_empty()).then(|| view! { <p class="muted" data-testid="turn-frames">{t.frames}</p> })}
                    {(!t.system.is_empty()).then(|| view! {
                        <details>
                            <summary>"System message"</summary>
                            <pre class="turn-text" data-testid="turn-system">{t.system}</pre>
                        </details>
                    })}
                    <details>
                        <summary>"What the model was told"</summary>
                        <pre class="turn-text" data-testid="turn-prompt">{t.prompt}</pre>
                    </details>
                    <p class="turn-label">"Reply"</p>
                    <pre class="turn-text" data-testid="turn-reply">{t.reply}</pre>
                </li>
            }
        })
        .collect_view();
    view! { <ol class="reflection-turns">{items}</ol> }
}
