//! `/run/suite`: whole-suite model runs (being built).

use leptos::prelude::*;

#[component]
pub fn SuiteRunPage() -> impl IntoView {
    view! { <h1>"Whole-suite model runs"</h1> }
}
