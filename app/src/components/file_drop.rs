//! A drop zone with a file chooser (the pages that read the user's files: `/audit`,
//! `/judge`): choose or drop, and `on_files` gets the files; the chooser is cleared so
//! the same file can be chosen again.

use leptos::prelude::*;

/// `name` makes the ids: the chooser `{name}-file` (its label's target and test id),
/// the zone `{name}-drop`.
#[component]
pub fn FileDrop<F>(
    name: &'static str,
    label: &'static str,
    /// The chooser's `accept` list.
    accept: &'static str,
    #[prop(optional)] multiple: bool,
    on_files: F,
) -> impl IntoView
where
    F: Fn(web_sys::FileList) + Copy + 'static,
{
    let dragging = RwSignal::new(false);
    let input_id = format!("{name}-file");
    view! {
        <div
            class="compare-drop"
            class:dragging=move || dragging.get()
            data-testid=format!("{name}-drop")
            on:dragover=move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                dragging.set(true);
            }
            on:dragleave=move |_| dragging.set(false)
            on:drop=move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                dragging.set(false);
                if let Some(files) = ev.data_transfer().and_then(|d| d.files()) {
                    on_files(files);
                }
            }
        >
            <label for=input_id.clone()>{label}</label>
            <input
                id=input_id.clone()
                type="file"
                accept=accept
                multiple=multiple
                data-testid=input_id
                on:change=move |ev| {
                    let input: web_sys::HtmlInputElement = event_target(&ev);
                    if let Some(files) = input.files() {
                        on_files(files);
                    }
                    input.set_value("");
                }
            />
        </div>
    }
}
