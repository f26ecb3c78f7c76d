//! The app shell: header with the site navigation, router and the pages (paths and
//! sections from `crate::routes`).

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::hooks::{use_location, use_query_map};
use leptos_router::StaticSegment;

use crate::browser::full_app;
use crate::components::error_box::ErrorBox;
use crate::components::needs_suites::{self, NeedsSuites};
use crate::first_load;
use crate::pages::attempts::AttemptsPage;
use crate::pages::audit::AuditPage;
use crate::pages::compare::ComparePage;
use crate::pages::episode::EpisodePage;
use crate::pages::home::Home;
use crate::pages::judge::JudgePage;
use crate::pages::models::ModelsPage;
use crate::pages::play::Play;
use crate::pages::reflect::ReflectPage;
use crate::pages::roms::RomsPage;
use crate::pages::run::RunPage;
use crate::pages::study::StudyPage;
use crate::pages::study_take::StudyTakePage;
use crate::pages::suite::SuitePage;
use crate::pages::suite_run::SuiteRunPage;
use crate::pages::task::TaskPage;
use crate::pages::task_play::TaskPlay;
use crate::routes::{self, Page, Section};

/// Installs the panic hook, mounts the app on `<body>` and removes `index.html`'s
/// loading screen (`#boot`). Started by the first-load build only to draw previews, it
/// offers them and mounts nothing (`crate::first_load`).
pub fn start() {
    console_error_panic_hook::set_once();
    // The Atari ROMs people supplied on this device go back on the shelf first.
    crate::rom_shelf::restore(&crate::browser::storage::local());
    if full_app::previews_only() {
        full_app::serve_previews();
        return;
    }
    mount(App);
}

/// The first-load build's start (`playbench-first`): the home page and `/play` of the
/// families it makes; any other page goes to the full app before anything is mounted.
pub fn start_first() {
    console_error_panic_hook::set_once();
    crate::rom_shelf::restore(&crate::browser::storage::local());
    let location = window().location();
    let path = location.pathname().unwrap_or_default();
    let search = location.search().unwrap_or_default();
    if first_load::serves(&path, query_env(&search).as_deref()) {
        mount(FirstApp);
    } else {
        full_app::hand_over();
    }
}

fn mount<V: IntoView + 'static>(app: fn() -> V) {
    leptos::mount::mount_to_body(app);
    if let Some(boot) = document().get_element_by_id("boot") {
        boot.remove();
    }
}

/// `env=` of a query string (`?a=b&env=…`), decoded.
fn query_env(search: &str) -> Option<String> {
    web_sys::UrlSearchParams::new_with_str(search)
        .ok()?
        .get("env")
}

/// A route's path from its page (one or two segments).
fn one(page: Page) -> StaticSegment<&'static str> {
    StaticSegment(page.segments()[0])
}

fn two(page: Page) -> (StaticSegment<&'static str>, StaticSegment<&'static str>) {
    let s = page.segments();
    (StaticSegment(s[0]), StaticSegment(s[1]))
}

/// Pages that read a suite wait behind [`NeedsSuites`]; playing an environment, the
/// ROM shelf and the model profiles do not.
#[component]
pub fn App() -> impl IntoView {
    needs_suites::provide();
    view! {
        <Router>
            <SiteHeader />
            <main id="main">
                <Routes fallback=NotFound>
                    <Route path=one(Page::Home) view=|| view! { <Home task_count=suite_task_count /> } />
                    <Route path=one(Page::Play) view=Play />
                    <Route path=one(Page::Suite) view=|| view! { <NeedsSuites><SuitePage /></NeedsSuites> } />
                    <Route path=one(Page::Task) view=|| view! { <NeedsSuites><TaskPage /></NeedsSuites> } />
                    <Route path=two(Page::TaskPlay) view=|| view! { <NeedsSuites><TaskPlay /></NeedsSuites> } />
                    <Route path=one(Page::Models) view=ModelsPage />
                    <Route path=one(Page::Run) view=|| view! { <NeedsSuites><RunPage /></NeedsSuites> } />
                    <Route path=two(Page::RunSuite) view=|| view! { <NeedsSuites><SuiteRunPage /></NeedsSuites> } />
                    <Route path=one(Page::Episode) view=|| view! { <NeedsSuites><EpisodePage /></NeedsSuites> } />
                    <Route path=one(Page::Study) view=|| view! { <NeedsSuites><StudyPage /></NeedsSuites> } />
                    <Route path=two(Page::StudyTake) view=|| view! { <NeedsSuites><StudyTakePage /></NeedsSuites> } />
                    <Route path=one(Page::Compare) view=|| view! { <NeedsSuites><ComparePage /></NeedsSuites> } />
                    <Route path=one(Page::Roms) view=RomsPage />
                    <Route path=one(Page::Audit) view=|| view! { <NeedsSuites><AuditPage /></NeedsSuites> } />
                    <Route path=one(Page::Judge) view=|| view! { <NeedsSuites><JudgePage /></NeedsSuites> } />
                    <Route path=one(Page::Reflect) view=|| view! { <NeedsSuites><ReflectPage /></NeedsSuites> } />
                    <Route path=one(Page::Attempts) view=|| view! { <NeedsSuites><AttemptsPage /></NeedsSuites> } />
                </Routes>
            </main>
        </Router>
    }
}

/// The built-in suite's size, once a page fetched the suites.
fn suite_task_count() -> Option<usize> {
    crate::suite_data::suite().ok().map(|s| s.tasks.len())
}

/// The first-load build's pages: the same header, the home page and `/play`; a link to
/// anything else loads that page anew, which starts the full app.
#[component]
fn FirstApp() -> impl IntoView {
    view! {
        <Router>
            <SiteHeader />
            <main id="main">
                <Routes fallback=HandOver>
                    // It fetches no suite: the count shows on the full app's home page.
                    <Route path=one(Page::Home) view=|| view! { <Home task_count=|| None /> } />
                    <Route path=one(Page::Play) view=FirstPlay />
                </Routes>
            </main>
        </Router>
    }
}

/// `/play` in the first-load build: an environment of a family it does not make (a link
/// from the home page) is the full app's.
#[component]
fn FirstPlay() -> impl IntoView {
    let query = use_query_map();
    let served =
        Memo::new(move |_| query.with(|q| first_load::serves(routes::PLAY, q.get_str("env"))));
    move || {
        if served.get() {
            view! { <Play /> }.into_any()
        } else {
            view! { <HandOver /> }.into_any()
        }
    }
}

/// Loads the page the router is going to as a new page, for the full app. (The router
/// changes the address only after the page is drawn: loading the current one again would
/// stay where the link was followed.)
#[component]
fn HandOver() -> impl IntoView {
    let location = use_location();
    let part = |text: String, mark: char| match text.as_str() {
        "" => text,
        t if t.starts_with(mark) => text,
        t => format!("{mark}{t}"),
    };
    let url = format!(
        "{}{}{}",
        location.pathname.get_untracked(),
        part(location.search.get_untracked(), '?'),
        part(location.hash.get_untracked(), '#'),
    );
    full_app::load(&url);
    view! { <p class="hint" role="status">"Loading…"</p> }
}

#[component]
fn SiteHeader() -> impl IntoView {
    view! {
        <a class="skip-link" href="#main">"Skip to content"</a>
        <header class="site-header">
            <a class="brand" href=routes::HOME>"Playbench"</a>
            <span class="tagline">"Reference environments of V-ICAL, VisGym and GameVerse, played in your browser"</span>
            <SiteNav />
        </header>
    }
}

/// The main links; the current section is marked for assistive technology.
#[component]
fn SiteNav() -> impl IntoView {
    let location = use_location();
    let section = Memo::new(move |_| Section::of_path(&location.pathname.get()));
    let links = Section::ALL
        .into_iter()
        .map(|s| {
            view! {
                <a
                    href=s.href()
                    aria-current=move || (section.get() == Some(s)).then_some("page")
                    data-testid=s.testid()
                >
                    {s.label()}
                </a>
            }
        })
        .collect_view();
    view! { <nav class="site-nav" aria-label="Main">{links}</nav> }
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
