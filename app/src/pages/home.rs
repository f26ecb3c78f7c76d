//! `/`: every environment, grouped by family, with its first frame and play links.

use leptos::prelude::*;

use crate::catalog::{self, Entry, Thumbnail};
use crate::components::frame_view::{FrameSource, FrameView};

/// `task_count`: the built-in suite's size once a page fetched it (`None`: not known; the
/// first-load build fetches no suite and leaves the suite's code out).
#[component]
pub fn Home(task_count: fn() -> Option<usize>) -> impl IntoView {
    set_title("Playbench");
    let query = RwSignal::new(String::new());
    let groups = catalog::groups();
    let total: usize = groups.iter().map(|g| g.entries.len()).sum();
    let all: Vec<Entry> = groups.iter().flat_map(|g| g.entries.clone()).collect();
    let shown = Memo::new(move |_| query.with(|q| all.iter().filter(|e| e.matches(q)).count()));
    let groups = groups
        .into_iter()
        .map(|g| {
            let slug = g.label.to_lowercase().replace(' ', "-");
            let heading_id = format!("family-{slug}");
            let labelled_by = heading_id.clone();
            let testid = format!("family-{slug}");
            let entries = g.entries.clone();
            let empty = move || query.with(|q| !entries.iter().any(|e| e.matches(q)));
            let cards = g
                .entries
                .into_iter()
                .map(|e| view! { <EnvCard entry=e query=query /> })
                .collect_view();
            view! {
                <section class="family" aria-labelledby=labelled_by data-testid=testid hidden=empty>
                    <h2 id=heading_id>{g.label}</h2>
                    <ul class="cards">{cards}</ul>
                </section>
            }
        })
        .collect_view();
    view! {
        <div class="home">
            <h1>"Environments"</h1>
            <p class="intro">
                "Each environment reproduces its reference implementation seed for seed. "
                "Pick one to play it with the keyboard, the pointer or the action buttons; "
                "the link keeps the environment, its arguments and the seed."
            </p>
            <BenchBanner task_count=task_count />
            <div class="env-filter">
                <label for="env-filter">"Find an environment"</label>
                <input
                    id="env-filter"
                    type="search"
                    data-testid="env-filter"
                    placeholder="e.g. frozen lake, minigrid door, atari"
                    prop:value=move || query.get()
                    on:input=move |ev| query.set(event_target_value(&ev))
                />
                <span class="hint" role="status" data-testid="env-count">
                    {move || format!("{} of {total} shown", shown.get())}
                </span>
            </div>
            {groups}
            <p class="hint" hidden=move || shown.get() != 0 data-testid="env-none">
                "No environment matches: try fewer or other words."
            </p>
        </div>
    }
}

/// The way into the benchmark: the suite's size and a link to it.
#[component]
fn BenchBanner(task_count: fn() -> Option<usize>) -> impl IntoView {
    // The suites are fetched when a page reads one (`NeedsSuites`): the count shows once
    // they are here, and this page never waits for them.
    let size = match task_count() {
        Some(n) => {
            format!("{n} tasks, each with demonstrations, a decision budget and a 0-100 score.")
        }
        None => {
            "Each task comes with demonstrations, a decision budget and a 0-100 score.".to_string()
        }
    };
    view! {
        <aside class="bench-banner" aria-labelledby="bench-banner-title">
            <div>
                <h2 id="bench-banner-title">"The benchmark"</h2>
                <p data-testid="bench-size">
                    "The built-in suite plays these environments as tasks for agents that learn from watching. "
                    {size}
                </p>
            </div>
            <a class="button-link" href=crate::routes::SUITE data-testid="suite-link">"Browse the suite"</a>
        </aside>
    }
}

#[component]
fn EnvCard(entry: Entry, query: RwSignal<String>) -> impl IntoView {
    let this = entry.clone();
    let hidden = move || query.with(|q| !this.matches(q));
    let play_href = entry.links.first().map(|l| l.href()).unwrap_or_default();
    let aliases = (!entry.aliases.is_empty()).then(|| {
        view! { <p class="aliases">"Also: " {entry.aliases.join(", ")}</p> }
    });
    let kwargs = (entry.kwargs_doc != "none").then(|| {
        view! { <p class="kwargs">"kwargs: " <code>{entry.kwargs_doc}</code></p> }
    });
    let links = entry
        .links
        .iter()
        .map(|l| {
            let label = l.label.clone();
            let aria = format!("{label}: {}", entry.id);
            view! {
                <a class="button-link" href=l.href() aria-label=aria>{label}</a>
            }
        })
        .collect_view();
    view! {
        <li class="card" data-testid="env-card" data-env-id=entry.id hidden=hidden>
            <a class="thumb-link" href=play_href tabindex="-1" aria-hidden="true">
                {match catalog::thumbnail(&entry) {
                    Thumbnail::Elsewhere => view! { <PreviewFromFullApp env_id=entry.id /> }.into_any(),
                    shown => thumbnail_view(entry.id, shown),
                }}
            </a>
            <div class="card-body">
                <h3 class="env-id">{entry.id}</h3>
                <p class="summary">{entry.summary}</p>
                {aliases}
                {kwargs}
                <p class="limit">{entry.limit_text()}</p>
                <p class="links">{links}</p>
            </div>
        </li>
    }
}

fn thumbnail_view(env_id: &'static str, thumbnail: Thumbnail) -> AnyView {
    match thumbnail {
        Thumbnail::Frame(frame) => view! {
            <FrameView
                frame=FrameSource::fixed(frame)
                label=format!("{env_id}: the first frame of seed 0")
                testid="thumb"
                class="thumb"
                unfocusable=true
            />
        }
        .into_any(),
        Thumbnail::NeedsRom(game) => view! {
            <span class="thumb rom-placeholder" data-testid="needs-rom-thumb">
                {format!("Needs its ROM ({}.bin)", game.id)}
            </span>
        }
        .into_any(),
        Thumbnail::NeedsPictures => view! {
            <span class="thumb rom-placeholder" data-testid="needs-pictures-thumb">
                "Plays pictures: they load when you open it"
            </span>
        }
        .into_any(),
        Thumbnail::NeedsPhysics => view! {
            <span class="thumb rom-placeholder" data-testid="needs-physics-thumb">
                "Runs MuJoCo: it loads when you open it"
            </span>
        }
        .into_any(),
        Thumbnail::Failed(why) => view! {
            <span class="thumb rom-placeholder" data-testid="thumb-error">{why}</span>
        }
        .into_any(),
        Thumbnail::Elsewhere => view! { <span class="thumb rom-placeholder">"…"</span> }.into_any(),
    }
}

/// The thumbnail of a family the first-load build does not make: drawn by the full app,
/// started hidden in this page the first time a card asks (`browser::full_app`).
#[component]
fn PreviewFromFullApp(env_id: &'static str) -> impl IntoView {
    let preview = LocalResource::new(move || crate::browser::full_app::preview(env_id));
    move || {
        match preview.get() {
        Some(thumbnail) => thumbnail_view(env_id, thumbnail),
        None => view! {
            <span class="thumb rom-placeholder" data-testid="thumb-loading">"Loading the preview…"</span>
        }
        .into_any(),
    }
    }
}

/// Sets the document title (best effort).
pub fn set_title(title: &str) {
    document().set_title(title);
}
