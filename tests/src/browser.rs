//! What the wasm tests need of the browser.

use wasm_bindgen::JsCast;

/// Gives the page's event loop a turn, so that the test runner's polling is answered
/// between long pieces of work (ChromeDriver gives up on a page that does not answer
/// for 30 s).
pub async fn yield_to_browser() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(window) = web_sys::window() {
            let _ = window
                .set_timeout_with_callback_and_timeout_and_arguments_0(resolve.unchecked_ref(), 0);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
