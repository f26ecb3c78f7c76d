//! The logic of `/reflect` and `/attempts` (`docs/gameverse.md`, "Reflect and retry",
//! "In the browser"): what a run is set up from ([`setup`]), what the page shows while
//! it runs ([`live`]), what it shows of a run of attempts and whether it verifies
//! ([`view`]), and the run kept across reloads ([`stored`]). The run itself is
//! `bench::reflect::ReflectRun`, shared with the command line. No IO here.

pub mod live;
pub mod setup;
pub mod stored;
pub mod view;
