//! `/run`: one task with a model, live (being built).

use leptos::prelude::*;

#[component]
pub fn RunPage() -> impl IntoView {
    view! { <h1>"One task with a model, live"</h1> }
}
