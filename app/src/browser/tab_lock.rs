//! One tab at a time for work that must not run twice (a suite run: two tabs would
//! play, and pay for, the same episodes): a Web Lock, held while the work goes on and
//! released when dropped or when the tab closes. Called through `Reflect` because
//! `web-sys` has the Web Locks API only behind its unstable flag.

use js_sys::{Function, Object, Promise, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The name of the lock a suite run holds (there is one stored run per browser).
pub const SUITE_RUN: &str = "playbench.suite-run";

/// A held lock; dropping it releases it.
pub struct TabLock {
    release: Function,
}

impl Drop for TabLock {
    fn drop(&mut self) {
        let _ = self.release.call0(&JsValue::UNDEFINED);
    }
}

fn js(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_else(|| format!("{e:?}"))
}

/// The lock `name`: `Ok(None)` when another tab holds it, unless `wait`, which waits
/// for it. `Err` when this browser has no Web Locks (an old browser, or a page not
/// served from a secure origin): the caller goes on without.
pub async fn acquire(name: &str, wait: bool) -> Result<Option<TabLock>, String> {
    let navigator = web_sys::window().ok_or("no window")?.navigator();
    let locks = Reflect::get(&navigator, &"locks".into()).map_err(js)?;
    if !locks.is_object() {
        return Err("this browser has no Web Locks".into());
    }
    let request: Function = Reflect::get(&locks, &"request".into())
        .map_err(js)?
        .dyn_into()
        .map_err(|_| "navigator.locks.request is not a function".to_string())?;
    let options = Object::new();
    if !wait {
        Reflect::set(&options, &"ifAvailable".into(), &true.into()).map_err(js)?;
    }
    // The lock is held until the promise its callback returns settles: `release`.
    let mut release = None;
    let held = Promise::new(&mut |resolve, _| release = Some(resolve));
    let mut grant = None;
    let granted = Promise::new(&mut |resolve, _| grant = Some(resolve));
    let (Some(release), Some(grant)) = (release, grant) else {
        return Err("a promise did not start".into());
    };
    let callback = Closure::once_into_js(move |lock: JsValue| -> JsValue {
        let got = !lock.is_null();
        let _ = grant.call1(&JsValue::UNDEFINED, &got.into());
        if got {
            held.into()
        } else {
            JsValue::UNDEFINED
        }
    });
    request
        .call3(&locks, &name.into(), &options, &callback)
        .map_err(js)?;
    let got = JsFuture::from(granted).await.map_err(js)?.as_bool() == Some(true);
    Ok(got.then_some(TabLock { release }))
}
