//! `/episode`: the replay viewer (being built).

use leptos::prelude::*;

#[component]
pub fn EpisodePage() -> impl IntoView {
    view! { <h1>"The replay viewer"</h1> }
}
