//! The first-load build and the full app in one page (`crate::first_load`): the
//! first-load build hands a page over to the full app, and asks a hidden instance of it
//! for the home page's previews of the families it does not make. `public/start.js`
//! loads either build and offers both as functions on `globalThis`.

use envs::Frame;
use js_sys::{Function, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::catalog::Thumbnail;

/// Set by `start.js` before it starts the full app only to draw previews.
const PREVIEWS_ONLY: &str = "playbenchPreviewsOnly";
/// The full app's preview function (`envId` → a preview object), set by [`serve_previews`].
const PREVIEW: &str = "playbenchPreview";
/// `start.js`: a promise of [`PREVIEW`], starting the hidden full app once.
const PREVIEWS: &str = "playbenchPreviews";
/// `start.js`: loads and starts the full app in this page.
const START_FULL: &str = "playbenchStartFull";

fn global(name: &str) -> JsValue {
    Reflect::get(&js_sys::global(), &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

fn message(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| {
            Reflect::get(e, &JsValue::from_str("message"))
                .ok()?
                .as_string()
        })
        .unwrap_or_else(|| format!("{e:?}"))
}

/// Whether the full app was started only to draw previews (no page of its own).
pub fn previews_only() -> bool {
    global(PREVIEWS_ONLY).is_truthy()
}

/// The full app, started for previews: offers [`PREVIEW`] to the first-load build.
pub fn serve_previews() {
    let preview = Closure::<dyn Fn(String) -> JsValue>::new(|env_id: String| {
        to_js(&env_id, crate::catalog::thumbnail_of(&env_id))
    });
    let _ = Reflect::set(
        &js_sys::global(),
        &JsValue::from_str(PREVIEW),
        &preview.into_js_value(),
    );
}

fn set(object: &Object, key: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(object, &JsValue::from_str(key), &value.into());
}

fn to_js(env_id: &str, thumbnail: Thumbnail) -> JsValue {
    let o = Object::new();
    match thumbnail {
        Thumbnail::Frame(frame) => {
            set(&o, "width", frame.width());
            set(&o, "height", frame.height());
            set(&o, "rgb", Uint8Array::from(frame.data()));
        }
        Thumbnail::NeedsRom(_) => set(&o, "needsRom", true),
        Thumbnail::NeedsPictures => set(&o, "needsPictures", true),
        Thumbnail::NeedsPhysics => set(&o, "needsPhysics", true),
        Thumbnail::Failed(why) => set(&o, "failed", why),
        // The full app makes every family.
        Thumbnail::Elsewhere => set(&o, "failed", format!("{env_id}: not built in")),
    }
    o.into()
}

fn from_js(env_id: &str, value: &JsValue) -> Result<Thumbnail, String> {
    let get = |key: &str| Reflect::get(value, &JsValue::from_str(key)).unwrap_or_default();
    if let Some(why) = get("failed").as_string() {
        return Ok(Thumbnail::Failed(why));
    }
    if get("needsPictures").is_truthy() {
        return Ok(Thumbnail::NeedsPictures);
    }
    if get("needsPhysics").is_truthy() {
        return Ok(Thumbnail::NeedsPhysics);
    }
    if get("needsRom").is_truthy() {
        return crate::rom_shelf::missing_rom(env_id)
            .map(Thumbnail::NeedsRom)
            .ok_or_else(|| format!("{env_id} needs a ROM this page has"));
    }
    let side = |key: &str| get(key).as_f64().map(|v| v as u32).unwrap_or(0);
    let (width, height) = (side("width"), side("height"));
    let rgb = get("rgb")
        .dyn_into::<Uint8Array>()
        .map_err(|e| message(&e))?;
    let mut frame = Frame::new(width, height);
    if rgb.length() as usize != frame.data().len() {
        return Err(format!("{env_id}: a preview of the wrong size"));
    }
    rgb.copy_to(frame.data_mut());
    Ok(Thumbnail::Frame(frame))
}

/// The full app's preview of an environment this build does not make.
pub async fn preview(env_id: &str) -> Thumbnail {
    let asked = async {
        let previews = global(PREVIEWS)
            .dyn_into::<Function>()
            .map_err(|_| "the page did not start the full app".to_string())?;
        let promise = previews
            .call0(&JsValue::NULL)
            .map_err(|e| message(&e))?
            .dyn_into::<Promise>()
            .map_err(|e| message(&e))?;
        let preview = JsFuture::from(promise)
            .await
            .map_err(|e| format!("the full app did not load: {}", message(&e)))?
            .dyn_into::<Function>()
            .map_err(|_| "the full app offers no previews".to_string())?;
        let value = preview
            .call1(&JsValue::NULL, &JsValue::from_str(env_id))
            .map_err(|e| message(&e))?;
        from_js(env_id, &value)
    };
    asked.await.unwrap_or_else(Thumbnail::Failed)
}

/// Starts the full app in this page, where the first-load build mounted nothing. Without
/// `start.js`'s loader the page cannot go on: said on the loading screen (`public/boot.js`),
/// where a failure to load also shows; loading the page again would only come back here.
pub fn hand_over() {
    match global(START_FULL).dyn_into::<Function>() {
        Ok(start) => drop(start.call0(&JsValue::NULL)),
        Err(_) => wasm_bindgen::throw_str("the page offers no way to start the full app"),
    }
}

/// Loads `url` (a path on this site) as a new page: `start.js` then starts the full
/// app, or the first-load build hands over before mounting anything.
pub fn load(url: &str) {
    if let Some(window) = web_sys::window() {
        let _ = window.location().assign(url);
    }
}
