//! `/study`: build a human study link (being built).

use leptos::prelude::*;

#[component]
pub fn StudyPage() -> impl IntoView {
    view! { <h1>"Build a human study link"</h1> }
}
