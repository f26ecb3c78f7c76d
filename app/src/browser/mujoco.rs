//! MuJoCo in the page, for VisGym's Fetch tasks (docs/fetch.md, "Physics host"): the
//! official WebAssembly module (`mujoco/mujoco.js` and `.wasm`, copied from npm
//! `@mujoco/mujoco` at build time) and the Fetch model files (`fetch/assets.zip`),
//! loaded the first time a Fetch task opens and kept for the tab's life. The module runs
//! `mujoco_host.mjs`, the same host as the command line's Node process, so both simulate
//! the same steps bit for bit.

use std::rc::Rc;

use envs::visgym::fetch::host::{self, PhysicsHost};
use envs::visgym::fetch::{asset_files, ASSETS_ZIP};
use js_sys::{Array, Uint8Array};
use wasm_bindgen::prelude::*;

use crate::browser::suite_files::{beside_app, bytes_beside_app};

#[wasm_bindgen(inline_js = "
export async function playbench_start_mujoco(base, names, blobs) {
  const { default: createModule } = await import(base + 'mujoco.js');
  const { createHost } = await import(base + 'mujoco_host.mjs');
  const module = await createModule();
  const files = new Map();
  for (let i = 0; i < names.length; i++) files.set(names[i], blobs[i]);
  return createHost(module, files);
}
")]
extern "C" {
    /// `mujoco_host.mjs`'s host object.
    type JsHost;

    #[wasm_bindgen(method, catch)]
    fn exchange(this: &JsHost, request: &str) -> Result<String, JsValue>;

    #[wasm_bindgen(catch)]
    async fn playbench_start_mujoco(
        base: &str,
        names: Array,
        blobs: Array,
    ) -> Result<JsValue, JsValue>;
}

struct PageHost(JsHost);

impl PhysicsHost for PageHost {
    fn exchange(&self, request: &str) -> Result<String, String> {
        self.0
            .exchange(request)
            .map_err(|e| format!("MuJoCo failed in the page: {}", describe(&e)))
    }
}

fn describe(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

/// Loads MuJoCo and the Fetch model files into this tab (once) and installs the host the
/// Fetch environments run on.
pub async fn load() -> Result<(), String> {
    if host::installed() {
        return Ok(());
    }
    let zip = bytes_beside_app(ASSETS_ZIP).await?;
    let names = Array::new();
    let blobs = Array::new();
    for (name, data) in asset_files(&zip)? {
        names.push(&JsValue::from_str(&name));
        blobs.push(&Uint8Array::from(data.as_slice()));
    }
    let base = beside_app("mujoco/")?;
    let js = playbench_start_mujoco(&base, names, blobs)
        .await
        .map_err(|e| format!("MuJoCo did not start: {}", describe(&e)))?;
    host::install(Rc::new(PageHost(js.unchecked_into())));
    Ok(())
}
