//! Clocks, sleeping (timers through `gloo-timers`) and the page's load milestone.

use std::time::Duration;

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
    if ms > 0 {
        gloo_timers::future::sleep(Duration::from_millis(ms)).await;
    }
}

/// Gives the page a turn (a zero-delay timeout) before going on.
pub async fn yield_to_page() {
    gloo_timers::future::TimeoutFuture::new(0).await;
}

/// The name of the performance mark set when the page first draws a frame: the
/// benchmark's time to first frame (`tests/e2e/load-bench.mjs`).
pub const FIRST_FRAME_MARK: &str = "playbench:first-frame";

/// Marks the first frame drawn since the page loaded (later calls do nothing).
pub fn mark_first_frame() {
    thread_local! {
        static MARKED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    if !MARKED.with(|m| m.replace(true)) {
        if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
            // A page without the User Timing API just goes unmeasured.
            let _ = p.mark(FIRST_FRAME_MARK);
        }
    }
}
