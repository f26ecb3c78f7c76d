//! The built-in suites' files, fetched when a page first needs a suite. The app is built
//! without them (bench's feature `embedded-suites` is off) so that pages which play an
//! environment load light; Trunk copies `bench/suites/` beside the app (`index.html`),
//! and each version's files go to `bench::suites::supply`, which checks them. The
//! browser's HTTP cache keeps them between visits.

use futures::future::{try_join3, try_join_all};
use gloo_net::http::Request;

/// The address of a file Trunk copied beside the app's wasm (the app may be served from
/// a sub-folder; the page's own path is a route, not a folder).
pub fn beside_app(rel: &str) -> Result<String, String> {
    let document = leptos::prelude::document();
    let wasm = document
        .query_selector("meta[name=playbench-wasm]")
        .ok()
        .flatten()
        .and_then(|m| m.get_attribute("content"))
        .unwrap_or_else(|| "/".into());
    let base = document.base_uri().ok().flatten().unwrap_or_default();
    let app = web_sys::Url::new_with_base(&wasm, &base)
        .map_err(|_| format!("the app's address {wasm:?} is not a URL"))?;
    let url = web_sys::Url::new_with_base(rel, &app.href())
        .map_err(|_| format!("no address for the file {rel}"))?;
    Ok(url.href())
}

/// The bytes of the file `rel` beside the app (a bundled zip); a failure names it and
/// says why.
pub async fn bytes_beside_app(rel: &str) -> Result<Vec<u8>, String> {
    let url = beside_app(rel)?;
    let answer = Request::get(&url)
        .send()
        .await
        .map_err(|_| format!("{rel} could not be fetched: the server did not answer"))?;
    if !answer.ok() {
        return Err(format!(
            "{rel} could not be fetched: the server answered {}",
            answer.status()
        ));
    }
    answer
        .binary()
        .await
        .map_err(|_| format!("{rel} could not be read"))
}

/// The text of `suites/<path><suffix>` beside the app; a failure says which file and why.
async fn text(path: &str, suffix: &str) -> Result<String, String> {
    let name = format!("suites/{path}{suffix}");
    let bytes = bytes_beside_app(&name).await?;
    String::from_utf8(bytes).map_err(|_| format!("{name} is not UTF-8 text"))
}

/// Fetches every version not yet in place, all at once, and supplies it; `done(n, of)`
/// hears each version as it arrives. The first failure is the error.
pub async fn fetch_missing(done: impl Fn(usize, usize)) -> Result<(), String> {
    let missing = bench::suites::missing();
    let total = missing.len();
    let count = std::cell::Cell::new(0);
    let one = |b: &'static bench::suites::BuiltinSuite| {
        let (count, done) = (&count, &done);
        async move {
            // A version's three files travel together.
            let (suite, baselines) = if b.has_baselines {
                let (suite, random, oracle) = try_join3(
                    text(b.path, ".json"),
                    text(b.path, ".baseline-random.json"),
                    text(b.path, ".baseline-oracle.json"),
                )
                .await?;
                (suite, Some((random, oracle)))
            } else {
                (text(b.path, ".json").await?, None)
            };
            bench::suites::supply(
                b.id,
                b.version,
                bench::suites::SuppliedFiles { suite, baselines },
            )
            .map_err(|e| e.to_string())?;
            count.set(count.get() + 1);
            done(count.get(), total);
            Ok::<(), String>(())
        }
    };
    try_join_all(missing.into_iter().map(one)).await.map(|_| ())
}
