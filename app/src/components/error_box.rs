use leptos::prelude::*;

/// A message box for a page that cannot be shown, with a way back (home unless told
/// otherwise) and optional extra content (e.g. suggestions).
#[component]
pub fn ErrorBox(
    title: String,
    message: String,
    /// Where the way back leads (default: the home page).
    #[prop(optional, into)]
    back_href: Option<String>,
    /// The way back's text (default: "Back to all environments").
    #[prop(optional, into)]
    back_label: Option<String>,
    #[prop(optional)] children: Option<Children>,
) -> impl IntoView {
    let href = back_href.unwrap_or_else(|| crate::routes::HOME.to_string());
    let label = back_label.unwrap_or_else(|| "Back to all environments".to_string());
    view! {
        <section class="error-box" role="alert" data-testid="error">
            <h1>{title}</h1>
            <p>{message}</p>
            {children.map(|c| c())}
            <p>
                <a href=href>{label}</a>
            </p>
        </section>
    }
}
