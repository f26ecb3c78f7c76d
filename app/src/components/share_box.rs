//! "Share": a finished episode's viewer link in a read-only field with a Copy button, or,
//! when the episode is too large for a link, its episode file to download.

use leptos::prelude::*;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

use crate::replay::share::ShareTarget;
use crate::task_session::json_data_url;

/// The site's origin (`https://host:port`), for absolute links.
pub fn page_origin() -> String {
    window().location().origin().unwrap_or_default()
}

/// Writes `text` to the clipboard; any failure (no API, no permission) is an `Err`.
async fn copy_text(text: String) -> Result<(), JsValue> {
    let navigator = window().navigator();
    // `navigator.clipboard` is undefined outside secure contexts: calling into it would throw.
    let api = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"))?;
    if api.is_undefined() || api.is_null() {
        return Err(JsValue::from_str("no clipboard"));
    }
    JsFuture::from(navigator.clipboard().write_text(&text))
        .await
        .map(|_| ())
}

#[component]
pub fn ShareBox(
    target: ShareTarget,
    /// The download's file name when the episode goes as a file.
    file_name: String,
    /// The heading (e.g. "Share this episode").
    #[prop(into)]
    title: String,
) -> impl IntoView {
    let body = match target {
        ShareTarget::Link(link) => {
            let status = RwSignal::new(String::new());
            let copy_link = link.clone();
            let copy = move |_| {
                let text = copy_link.clone();
                leptos::task::spawn_local(async move {
                    status.set(match copy_text(text).await {
                        Ok(()) => "Link copied.".to_string(),
                        Err(_) => "Could not copy automatically: select the link and copy it."
                            .to_string(),
                    });
                });
            };
            view! {
                <label class="share-field">
                    <span>"Link (the whole episode, re-verified by whoever opens it)"</span>
                    <input
                        type="text"
                        readonly
                        data-testid="share-link"
                        prop:value=link.clone()
                        on:focus=|ev| {
                            use wasm_bindgen::JsCast;
                            if let Some(input) = ev
                                .target()
                                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                            {
                                input.select();
                            }
                        }
                    />
                </label>
                <p class="share-buttons">
                    <button type="button" data-testid="copy-link" on:click=copy>"Copy link"</button>
                    <a class="button-link secondary" href=link data-testid="open-share-link">
                        "Open the replay"
                    </a>
                </p>
                <p class="share-status" role="status" data-testid="copy-status">{move || status.get()}</p>
            }
            .into_any()
        }
        ShareTarget::File { json, why } => view! {
            <p class="notice" data-testid="share-too-large">{format!("No link: {why}.")}</p>
            <p>
                <a
                    class="button-link"
                    data-testid="download-episode-file"
                    download=file_name
                    href=json_data_url(&json)
                >
                    "Download the episode file"
                </a>
            </p>
            <p class="muted">"It opens in the replay viewer by drag-and-drop or its file picker."</p>
        }
        .into_any(),
    };
    let label = title.clone();
    view! {
        <section class="share-box" data-testid="share-box" aria-label=label>
            <h2>{title}</h2>
            {body}
        </section>
    }
}
