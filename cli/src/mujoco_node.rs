//! The Fetch tasks' physics on the command line (docs/fetch.md, "Physics host"): a Node
//! process running MuJoCo's official WebAssembly module with the same host code as the
//! page, one JSON line per request, so the command line simulates exactly what the
//! browser does.

use std::cell::RefCell;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::rc::Rc;

use bench::protocol::providers::base64;
use envs::visgym::fetch::host::{self, PhysicsHost};
use envs::visgym::fetch::{asset_files, HOST_JS, NODE_JS};

/// The npm package and version the host runs (docs/physics-engine.md).
pub const PACKAGE: &str = "@mujoco/mujoco@3.14.0";

/// The Fetch model files, built into the binary (`public/fetch/assets.zip`).
const ASSETS: &[u8] = include_bytes!("../../public/fetch/assets.zip");

/// The `@mujoco/mujoco` package folder (holding `mujoco.js` and `mujoco.wasm`):
/// `PLAYBENCH_MUJOCO`, else the first `node_modules/@mujoco/mujoco` in `start` or a folder
/// above it, or above the running program (the repository's `npm ci` puts it at the
/// root), else the one under `start`.
pub fn module_dir(start: &Path) -> PathBuf {
    if let Some(dir) = std::env::var_os("PLAYBENCH_MUJOCO").filter(|v| !v.is_empty()) {
        return PathBuf::from(dir);
    }
    let exe = std::env::current_exe().ok();
    let candidates = start
        .ancestors()
        .chain(exe.iter().flat_map(|p| p.ancestors()));
    for dir in candidates {
        let module = dir.join(MODULE_PATH);
        if module.join("mujoco.js").is_file() {
            return module;
        }
    }
    start.join(MODULE_PATH)
}

/// Where npm puts the package under a project folder.
const MODULE_PATH: &str = "node_modules/@mujoco/mujoco";

/// What is missing, in words a user can act on.
fn check(module: &Path) -> Result<(), String> {
    if module.join("mujoco.js").is_file() && module.join("mujoco.wasm").is_file() {
        return Ok(());
    }
    Err(format!(
        "the Fetch tasks need MuJoCo's WebAssembly module (npm {PACKAGE}), and {} has no \
         mujoco.js and mujoco.wasm: run `npm ci` in the repository, or `npm install {PACKAGE}` \
         and set PLAYBENCH_MUJOCO to its folder (docs/fetch.md)",
        module.display()
    ))
}

/// A running Node process answering the host's requests.
pub struct NodeHost {
    child: RefCell<Child>,
    stdin: RefCell<ChildStdin>,
    stdout: RefCell<BufReader<ChildStdout>>,
}

impl NodeHost {
    /// Starts `node` with the host and hands it the Fetch model files.
    pub fn start(module: &Path) -> Result<Self, String> {
        check(module)?;
        let script = format!(
            "{}\n{}",
            HOST_JS.replace("export function createHost", "function createHost"),
            NODE_JS
        );
        let mut child = Command::new("node")
            .arg("--input-type=module")
            .arg("-e")
            .arg(script)
            .arg(module)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| {
                format!("the Fetch tasks run MuJoCo under Node.js, and `node` did not start: {e}")
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("the Node process has no pipes".into());
        };
        let host = NodeHost {
            child: RefCell::new(child),
            stdin: RefCell::new(stdin),
            stdout: RefCell::new(BufReader::new(stdout)),
        };
        let files: serde_json::Map<String, serde_json::Value> = asset_files(ASSETS)?
            .into_iter()
            .map(|(name, data)| (name, serde_json::Value::String(base64(&data))))
            .collect();
        let answer = host.exchange(&serde_json::json!({ "files": files }).to_string())?;
        if !answer.starts_with("{\"ok\"") {
            return Err(format!(
                "MuJoCo did not start under Node: {}",
                answer.trim()
            ));
        }
        Ok(host)
    }
}

impl PhysicsHost for NodeHost {
    fn exchange(&self, request: &str) -> Result<String, String> {
        let gone = |e: std::io::Error| format!("the MuJoCo process stopped answering ({e})");
        {
            let mut stdin = self.stdin.borrow_mut();
            stdin.write_all(request.as_bytes()).map_err(gone)?;
            stdin.write_all(b"\n").map_err(gone)?;
            stdin.flush().map_err(gone)?;
        }
        let mut line = String::new();
        let n = self
            .stdout
            .borrow_mut()
            .read_line(&mut line)
            .map_err(gone)?;
        if n == 0 {
            return Err("the MuJoCo process exited (its error is above)".into());
        }
        Ok(line)
    }
}

impl Drop for NodeHost {
    fn drop(&mut self) {
        let mut child = self.child.borrow_mut();
        // Closing stdin ends its read loop; kill in case it is stuck.
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// Starts a Node host and installs it for this thread's Fetch environments, unless one
/// is installed already.
pub fn ensure_installed(module: &Path) -> Result<(), String> {
    if host::installed() {
        return Ok(());
    }
    host::install(Rc::new(NodeHost::start(module)?));
    Ok(())
}

/// Lets this thread start a Node host when a Fetch environment is first made (the
/// command line's commands and the driver call this once; nothing starts otherwise).
pub fn install_on_demand() {
    host::install_starter(|| {
        let module = module_dir(&std::env::current_dir().unwrap_or_default());
        Ok(Rc::new(NodeHost::start(&module)?) as Rc<dyn PhysicsHost>)
    });
}
