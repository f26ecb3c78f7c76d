//! The app shell: header with the site navigation, router and the pages.

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::hooks::use_location;
use leptos_router::path;

use crate::components::error_box::ErrorBox;
use crate::pages::compare::ComparePage;
use crate::pages::episode::EpisodePage;
use crate::pages::home::Home;
use crate::pages::models::ModelsPage;
use crate::pages::play::Play;
use crate::pages::run::RunPage;
use crate::pages::study::StudyPage;
use crate::pages::study_take::StudyTakePage;
use crate::pages::suite::SuitePage;
use crate::pages::suite_run::SuiteRunPage;
use crate::pages::task::TaskPage;
use crate::pages::task_play::TaskPlay;

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
                <SiteNav />
            </header>
            <main id="main">
                <Routes fallback=NotFound>
                    <Route path=path!("/") view=Home />
                    <Route path=path!("/play") view=Play />
                    <Route path=path!("/suite") view=SuitePage />
                    <Route path=path!("/task") view=TaskPage />
                    <Route path=path!("/task/play") view=TaskPlay />
                    <Route path=path!("/models") view=ModelsPage />
                    <Route path=path!("/run") view=RunPage />
                    <Route path=path!("/run/suite") view=SuiteRunPage />
                    <Route path=path!("/episode") view=EpisodePage />
                    <Route path=path!("/study") view=StudyPage />
                    <Route path=path!("/study/take") view=StudyTakePage />
                    <Route path=path!("/compare") view=ComparePage />
                </Routes>
            </main>
        </Router>
    }
}

/// The main links; the current section is marked for assistive technology.
#[component]
fn SiteNav() -> impl IntoView {
    let location = use_location();
    let section = Memo::new(move |_| {
        let path = location.pathname.get();
        if path == "/suite" || path.starts_with("/task") {
            "suite"
        } else if path == "/" || path == "/play" {
            "envs"
        } else if path == "/models" || path.starts_with("/run") {
            "run"
        } else if path == "/episode" {
            "episode"
        } else if path.starts_with("/study") {
            "study"
        } else if path == "/compare" {
            "compare"
        } else {
            ""
        }
    });
    let current = move |name: &'static str| (section.get() == name).then_some("page");
    view! {
        <nav class="site-nav" aria-label="Main">
            <a href="/" aria-current=move || current("envs") data-testid="nav-envs">
                "Environments"
            </a>
            <a href="/suite" aria-current=move || current("suite") data-testid="nav-suite">
                "Benchmark suite"
            </a>
            <a href="/run/suite" aria-current=move || current("run") data-testid="nav-run">
                "Run a model"
            </a>
            <a href="/episode" aria-current=move || current("episode") data-testid="nav-episode">
                "Replay"
            </a>
            <a href="/study" aria-current=move || current("study") data-testid="nav-study">
                "Human study"
            </a>
            <a href="/compare" aria-current=move || current("compare") data-testid="nav-compare">
                "Compare"
            </a>
        </nav>
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
