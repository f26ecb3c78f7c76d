//! The first-load build's entry point (`crate::first_load`): the home page and `/play`
//! of the families it makes, mounted after a light download (a no-op natively).

fn main() {
    #[cfg(target_arch = "wasm32")]
    playbench_app::start_first();
}
