use leptos::prelude::*;

/// A message box for a page that cannot be shown, with a way back home.
#[component]
pub fn ErrorBox(title: String, message: String) -> impl IntoView {
    view! {
        <section class="error-box" role="alert" data-testid="error">
            <h1>{title}</h1>
            <p>{message}</p>
            <p>
                <a href="/">"Back to all environments"</a>
            </p>
        </section>
    }
}
