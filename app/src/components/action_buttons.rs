use leptos::prelude::*;

use crate::play_state::{key_label, Control};

/// One real button per action, with the keys that play it; `disabled` once the
/// episode is over (nothing to play until it starts again).
#[component]
pub fn ActionButtons(
    controls: Vec<Control>,
    on_action: Callback<usize>,
    #[prop(optional, into)] disabled: Signal<bool>,
) -> impl IntoView {
    // Short names and few keys fit two to a row; anything longer gets a row each.
    let compact = controls
        .iter()
        .all(|c| c.name.chars().count() <= 12 && c.keys.len() <= 2);
    let class = if compact {
        "actions two-col"
    } else {
        "actions one-col"
    };
    let buttons = controls
        .into_iter()
        .map(|c| {
            let index = c.index;
            let keys = c.keys_label();
            let title = if keys.is_empty() {
                format!("{} (no key)", c.name)
            } else {
                format!("{} (key: {keys})", c.name)
            };
            // The first bound `KeyboardEvent.key`, for tests and scripts.
            let first_key = c.keys.first().cloned();
            let kbds = c
                .keys
                .iter()
                .map(|k| view! { <kbd>{key_label(k)}</kbd> })
                .collect_view();
            view! {
                <li>
                    <button
                        type="button"
                        class="action"
                        data-testid=format!("action-{index}")
                        data-key=first_key
                        title=title
                        disabled=move || disabled.get()
                        on:click=move |_| on_action.run(index)
                    >
                        <span class="action-name">{c.name}</span>
                        <span class="action-keys">{kbds}</span>
                    </button>
                </li>
            }
        })
        .collect_view();
    view! { <ul class=class aria-label="Actions">{buttons}</ul> }
}
