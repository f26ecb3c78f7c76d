//! Keyboard handling shared by the pages that play by key.

use wasm_bindgen::JsCast;

/// Whether a key belongs to the focused element rather than to the page: any key in a
/// text field, select or range (typing, choosing, scrubbing), and Enter or Space on a
/// button, link, disclosure or checkbox (activating it). Other keys on a checkbox still
/// reach the page, so the arrows work right after clicking a toggle.
pub fn left_to_focused_element(ev: &web_sys::KeyboardEvent) -> bool {
    let Some(el) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        return false;
    };
    let activates = matches!(ev.key().as_str(), "Enter" | " ");
    if let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>() {
        if input.type_() == "checkbox" {
            return activates;
        }
    }
    let tag = el.tag_name();
    if matches!(tag.as_str(), "INPUT" | "TEXTAREA" | "SELECT") || el.is_content_editable() {
        return true;
    }
    activates && matches!(tag.as_str(), "BUTTON" | "A" | "SUMMARY")
}

/// Whether a key event is one the page may act on at all: not a held-key repeat and
/// without Ctrl, Alt or Meta (browser shortcuts).
pub fn plain_press(ev: &web_sys::KeyboardEvent) -> bool {
    !(ev.repeat() || ev.ctrl_key() || ev.alt_key() || ev.meta_key())
}

/// While the calling component lives, hands every plain key press that is not meant
/// for a focused form element to `handle`, which says whether it used the key (the
/// browser's default action is then prevented).
pub fn on_page_keys(handle: impl Fn(&str) -> bool + 'static) {
    let listener = leptos::prelude::window_event_listener(leptos::ev::keydown, move |ev| {
        if plain_press(&ev) && !left_to_focused_element(&ev) && handle(&ev.key()) {
            ev.prevent_default();
        }
    });
    leptos::prelude::on_cleanup(move || listener.remove());
}
