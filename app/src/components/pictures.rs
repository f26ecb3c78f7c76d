//! Pictures for VisGym's image environments: the gate that loads the set an episode
//! plays (the bundled set is fetched at once; a picked folder must be picked again in a
//! new tab, since pages cannot reopen a person's folders), and the folder picker that
//! plays an environment on a person's own pictures (`crate::image_sets`).

use leptos::prelude::*;
use leptos::task::spawn_local;

use envs::visgym::images::{BUNDLES, PICTURES};

use crate::components::loading::loading;

/// Loads the set `name` and then calls `on_loaded`; says how it goes.
#[component]
pub fn NeedsPictures(name: String, on_loaded: Callback<()>) -> impl IntoView {
    let Some(bundle) = BUNDLES.iter().copied().find(|b| b.name == name) else {
        let text = format!(
            "This episode plays the pictures of your folder {name:?}, which this tab has not \
             read. Pick that folder again (the same files give the same episode)."
        );
        return view! {
            <section class="needs-pictures" data-testid="needs-folder">
                <h2>"Pictures needed"</h2>
                <p>{text}</p>
                <FolderPicker on_picked=Callback::new(move |_| on_loaded.run(())) />
            </section>
        }
        .into_any();
    };
    let what = if bundle == PICTURES {
        "Loading the bundled pictures (public-domain and CC0 photographs and drawings, 2 MB)…"
    } else {
        "Loading the bundled scenes (generated pictures with their annotations, CC0)…"
    };
    let load = move || async move {
        crate::browser::image_sets::load_bundled(bundle)
            .await
            .map(|_| ())
    };
    loading(
        what.to_string(),
        "pictures",
        "The pictures could not be loaded",
        load,
        on_loaded,
    )
    .into_any()
}

/// A folder picker: reads the folder's pictures into this tab and calls `on_picked` with
/// the folder's name (the `sample_dir` that plays them).
#[component]
pub fn FolderPicker(on_picked: Callback<String>) -> impl IntoView {
    let status = RwSignal::new(String::new());
    let failed = RwSignal::new(false);
    view! {
        <div class="folder-pick">
            <label class="file-pick">
                <span>"Play on pictures from a folder…"</span>
                <input
                    type="file"
                    multiple=true
                    prop:webkitdirectory=true
                    data-testid="picture-folder"
                    on:change=move |ev| {
                        let input = event_target::<web_sys::HtmlInputElement>(&ev);
                        let Some(list) = input.files() else { return };
                        let files = crate::browser::image_sets::picked_files(&list);
                        failed.set(false);
                        spawn_local(async move {
                            let progress = move |done: usize, of: usize| {
                                status.set(format!("Reading {done} of {of} pictures…"));
                            };
                            match crate::browser::image_sets::read_folder(files, progress).await {
                                Ok(name) => {
                                    status.set(String::new());
                                    on_picked.run(name);
                                }
                                Err(e) => {
                                    failed.set(true);
                                    status.set(e);
                                }
                            }
                        });
                        input.set_value("");
                    }
                />
            </label>
            <span class="hint">
                " The pictures stay in this tab; episodes on them replay where the same folder is picked."
            </span>
            <p
                class="hint"
                class:error=move || failed.get()
                role="status"
                data-testid="picture-folder-status"
            >
                {move || status.get()}
            </p>
        </div>
    }
}
