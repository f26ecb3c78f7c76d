//! The Trunk entry point: mounts the app (a no-op natively, where there is no page).

fn main() {
    #[cfg(target_arch = "wasm32")]
    playbench_app::start();
}
