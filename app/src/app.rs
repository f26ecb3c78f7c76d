//! The app shell: header with the site navigation, router and the pages (paths and
//! sections from `crate::routes`).

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::hooks::use_location;
use leptos_router::StaticSegment;

use crate::components::error_box::ErrorBox;
use crate::components::needs_suites::{self, NeedsSuites};
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
/// loading screen (`#boot`).
pub fn start() {
    console_error_panic_hook::set_once();
    // The Atari ROMs people supplied on this device go back on the shelf first.
    crate::rom_shelf::restore(&crate::browser::storage::local());
    leptos::mount::mount_to_body(App);
    if let Some(boot) = document().get_element_by_id("boot") {
        boot.remove();
    }
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
            <a class="skip-link" href="#main">"Skip to content"</a>
            <header class="site-header">
                <a class="brand" href=routes::HOME>"Playbench"</a>
                <span class="tagline">"Reference environments of V-ICAL, VisGym and GameVerse, played in your browser"</span>
                <SiteNav />
            </header>
            <main id="main">
                <Routes fallback=NotFound>
                    <Route path=one(Page::Home) view=Home />
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
