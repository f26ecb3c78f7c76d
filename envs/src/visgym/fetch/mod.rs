//! VisGym's robot tasks, Fetch Reach and Fetch Pick-and-Place (docs/fetch.md): the
//! reference's rules in Rust over MuJoCo's official WebAssembly module, which a physics
//! host runs (the page's module in the browser, a Node process on the command line;
//! [`host`]). `mujoco_host.mjs` is that host, shared by both.

mod env;
pub mod host;
mod oracle;
mod prompt;
mod puzzle;
mod task;
pub mod view;

pub use env::{Camera, Fetch, FetchError, FetchStep, Kinematics, Obs};
pub use oracle::solve;
pub use puzzle::FetchPuzzle;
pub use task::Task;

/// The host's JavaScript (an ES module exporting `createHost(module, files)`).
pub const HOST_JS: &str = include_str!("mujoco_host.mjs");
/// The Node process's JavaScript, run after [`HOST_JS`] with `node --input-type=module`.
pub const NODE_JS: &str = include_str!("mujoco_node.mjs");

/// Where the app serves the Fetch model files (`public/fetch/assets.zip`, built by
/// `scripts/fetch-assets/build.py`; its manifest lists source and licence).
pub const ASSETS_ZIP: &str = "fetch/assets.zip";

/// The Fetch model files of an assets zip, by path (`fetch/reach.xml`, …), as the host
/// wants them.
pub fn asset_files(zip_bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    let entries = crate::core::zip::entries(zip_bytes).map_err(|e| format!("{ASSETS_ZIP}: {e}"))?;
    let mut files = Vec::new();
    for e in entries.iter().filter(|e| !e.name.ends_with('/')) {
        let data = crate::core::zip::extract(zip_bytes, e)
            .map_err(|err| format!("{ASSETS_ZIP}: {err}"))?;
        files.push((e.name.clone(), data.to_vec()));
    }
    if !files.iter().any(|(n, _)| n == "fetch/reach.xml") {
        return Err(format!("{ASSETS_ZIP} holds no fetch/reach.xml"));
    }
    Ok(files)
}
