//! `/models`: endpoint profiles (being built).

use leptos::prelude::*;

#[component]
pub fn ModelsPage() -> impl IntoView {
    view! { <h1>"Endpoint profiles"</h1> }
}
