//! `/compare`: results files side by side (being built).

use leptos::prelude::*;

#[component]
pub fn ComparePage() -> impl IntoView {
    view! { <h1>"Results files side by side"</h1> }
}
