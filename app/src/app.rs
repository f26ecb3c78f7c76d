//! The app shell: header, router and the two pages.

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

use crate::components::error_box::ErrorBox;
use crate::pages::home::Home;
use crate::pages::play::Play;

/// Installs the panic hook and mounts the app on `<body>`.
pub fn start() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}

#[component]
pub fn App() -> impl IntoView {
    view! {
        <Router>
            <a class="skip-link" href="#main">"Skip to content"</a>
            <header class="site-header">
                <a class="brand" href="/">"Playbench"</a>
                <span class="tagline">"Gymnasium reference environments, played in your browser"</span>
            </header>
            <main id="main">
                <Routes fallback=NotFound>
                    <Route path=path!("/") view=Home />
                    <Route path=path!("/play") view=Play />
                </Routes>
            </main>
        </Router>
    }
}

#[component]
fn NotFound() -> impl IntoView {
    view! {
        <ErrorBox
            title="Page not found".to_string()
            message="There is no page at this address.".to_string()
        />
    }
}
