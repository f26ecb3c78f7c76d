//! `/study/take`: a participant takes a study (being built).

use leptos::prelude::*;

#[component]
pub fn StudyTakePage() -> impl IntoView {
    view! { <h1>"A participant takes a study"</h1> }
}
