//! The first-load build (`playbench-first`, docs/app.md "First load"): the home page and
//! `/play` for the families it makes (Toy Text, Classic Control, MiniGrid), small enough
//! to show a first frame after a light download. Everything else is the full app's:
//! `public/start.js` loads it for other pages, the first-load build hands over to it for
//! an environment it does not make, and it draws the home page's previews of the other
//! families (`crate::catalog::Thumbnail::Elsewhere`) from a second, hidden instance.

use crate::routes::Page;

/// Whether the first-load build shows the page at `path` whose `env=` is `env`: the home
/// page, and `/play` unless it names an environment whose family is not built in (an
/// unknown id or none at all is its error to show).
pub fn serves(path: &str, env: Option<&str>) -> bool {
    match Page::at(path) {
        Some(Page::Home) => true,
        Some(Page::Play) => env
            .and_then(envs::spec)
            .is_none_or(|spec| spec.family.built_in()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_home_page_and_play_of_built_in_families_are_served_the_rest_is_not() {
        assert!(serves("/", None));
        assert!(serves("/play", Some("Taxi-v3")));
        assert!(serves("/play/", Some("MiniGrid-DoorKey-8x8-v0")));
        assert!(serves("/play", Some("CartPole-v1")));
        assert!(serves("/play", None));
        assert!(serves("/play", Some("Nope-v0")));
        for page in [
            "/suite", "/task", "/run", "/roms", "/episode", "/nope", "/play/x",
        ] {
            assert!(!serves(page, None), "{page}");
        }
        // Natively every family is built in; the first-load build hands these over, as
        // envs' registry test (run both ways) and the end-to-end tests check.
        for id in [
            "ALE/Breakout-v5",
            "tetris_gymnasium/Tetris",
            "maze_2d/easy",
            "highway-v0",
        ] {
            assert!(envs::spec(id).unwrap().family.built_in());
            assert!(serves("/play", Some(id)));
        }
    }
}
