//! Clocks and sleeping.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// Milliseconds from `performance.now()` (monotonic).
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Seconds since 1970 (for HTTP-date `Retry-After` values).
pub fn unix_s() -> u64 {
    (js_sys::Date::now() / 1000.0) as u64
}

/// Resolves after `ms` milliseconds.
pub async fn sleep(ms: u64) {
    if ms == 0 {
        return;
    }
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(
                &resolve,
                ms.min(i32::MAX as u64) as i32,
            );
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Calls `f` after `ms` milliseconds; returns the timer id.
pub fn after(ms: u32, f: impl FnOnce() + 'static) -> Option<i32> {
    let cb = Closure::once_into_js(f);
    web_sys::window()?
        .set_timeout_with_callback_and_timeout_and_arguments_0(
            cb.unchecked_ref(),
            ms.min(i32::MAX as u32) as i32,
        )
        .ok()
}

pub fn cancel(timer: Option<i32>) {
    if let (Some(id), Some(w)) = (timer, web_sys::window()) {
        w.clear_timeout_with_handle(id);
    }
}
