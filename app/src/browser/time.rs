//! Clocks and sleeping (timers through `gloo-timers`).

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
