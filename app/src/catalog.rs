//! What the home page lists: every registered environment, grouped by family, with the
//! links that start it and its seed-0 first frame for a thumbnail.

use envs::atari::Game;
use envs::{Family, Frame};
use serde_json::{Map, Value};

use crate::url::{LoadError, PlayRequest};

/// One link that starts an environment with some kwargs.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayLink {
    pub label: String,
    pub request: PlayRequest,
}

impl PlayLink {
    pub fn href(&self) -> String {
        self.request.href()
    }
}

/// One environment on the home page.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub id: &'static str,
    pub family: &'static Family,
    pub aliases: &'static [&'static str],
    pub summary: &'static str,
    pub kwargs_doc: &'static str,
    pub max_episode_steps: Option<u32>,
    /// A step limit the environment applies itself (MiniGrid levels).
    pub own_step_limit: Option<u32>,
    /// The first link plays the defaults; others are notable variants.
    pub links: Vec<PlayLink>,
}

impl Entry {
    /// The default link's request (also what the thumbnail shows).
    pub fn default_request(&self) -> PlayRequest {
        default_request(self.id)
    }

    /// Whether the home page's filter `query` finds this environment: every word
    /// (case-insensitive) in its id, aliases, family or summary.
    pub fn matches(&self, query: &str) -> bool {
        let text = format!(
            "{} {} {} {}",
            self.id,
            self.aliases.join(" "),
            self.family.label,
            self.summary
        )
        .to_lowercase();
        query
            .to_lowercase()
            .split_whitespace()
            .all(|w| text.contains(w))
    }

    /// "Time limit: 200 steps", or what stands in for one.
    pub fn limit_text(&self) -> String {
        match self.max_episode_steps.or(self.own_step_limit) {
            Some(n) => format!("Time limit: {n} steps"),
            None => "No time limit".to_string(),
        }
    }
}

/// An id's defaults with seed 0: the first link, and what the thumbnail shows.
fn default_request(env_id: &str) -> PlayRequest {
    PlayRequest::new(env_id, Map::new(), 0)
}

/// The environments of one family, in registry order.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    pub family: &'static Family,
    pub label: &'static str,
    pub entries: Vec<Entry>,
}

/// Every registered environment grouped by family, families in order of first appearance.
pub fn groups() -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for spec in envs::specs() {
        let mut links = vec![PlayLink {
            label: "Play".to_string(),
            request: default_request(spec.id),
        }];
        for v in spec.variants {
            let kwargs = serde_json::from_str::<Map<String, Value>>(v.kwargs).unwrap_or_default();
            links.push(PlayLink {
                label: format!("Play {}", v.label),
                request: PlayRequest::new(spec.id, kwargs, 0),
            });
        }
        // Families the first-load build does not make have none with their defaults
        // (`own_step_limits_are_the_first_load_builds`), so its cards say the same.
        let own_step_limit = envs::make_default(spec.id)
            .ok()
            .and_then(|e| e.own_step_limit());
        let entry = Entry {
            id: spec.id,
            family: spec.family,
            aliases: spec.aliases,
            summary: spec.summary,
            kwargs_doc: spec.kwargs_doc,
            max_episode_steps: spec.max_episode_steps,
            own_step_limit,
            links,
        };
        match groups.iter_mut().find(|g| g.family == spec.family) {
            Some(g) => g.entries.push(entry),
            None => groups.push(Group {
                family: spec.family,
                label: spec.family.label,
                entries: vec![entry],
            }),
        }
    }
    groups
}

/// The first frame of an episode: make, reset with the request's seed, render.
pub fn first_frame(request: &PlayRequest) -> Result<Frame, LoadError> {
    let session = crate::play_state::PlaySession::new(request.clone())?;
    Ok(session.frame().clone())
}

/// What a card shows above its links.
#[derive(Clone, Debug, PartialEq)]
pub enum Thumbnail {
    /// The first frame of seed 0.
    Frame(Frame),
    /// The environment cannot start before its game's ROM is supplied (`/roms`).
    NeedsRom(&'static Game),
    /// The environment plays pictures of an image set that loads when it is opened
    /// (`crate::image_sets`): no preview before.
    NeedsPictures,
    /// The environment runs MuJoCo, which loads when it is opened (`crate::physics`): no
    /// preview before.
    NeedsPhysics,
    /// The environment failed to start for another reason (a bug: shown, never hidden).
    Failed(String),
    /// Drawn by the full app: this build does not make the family (`crate::first_load`).
    Elsewhere,
}

/// The card's thumbnail for an entry.
pub fn thumbnail(entry: &Entry) -> Thumbnail {
    thumbnail_of(entry.id)
}

/// The thumbnail of a registered id (an unknown one fails).
pub fn thumbnail_of(env_id: &str) -> Thumbnail {
    if envs::spec(env_id).is_some_and(|s| !s.family.built_in()) {
        return match crate::rom_shelf::missing_rom(env_id) {
            Some(game) => Thumbnail::NeedsRom(game),
            None => Thumbnail::Elsewhere,
        };
    }
    if crate::physics::needs_loading(env_id) {
        return Thumbnail::NeedsPhysics;
    }
    if crate::image_sets::plays_pictures(env_id)
        && !crate::image_sets::is_loaded(envs::visgym::images::default_bundle(env_id).name)
    {
        return Thumbnail::NeedsPictures;
    }
    match first_frame(&default_request(env_id)) {
        Ok(frame) => Thumbnail::Frame(frame),
        Err(LoadError::MissingAsset(why)) => match crate::rom_shelf::missing_rom(env_id) {
            Some(game) => Thumbnail::NeedsRom(game),
            None => Thumbnail::Failed(LoadError::MissingAsset(why).to_string()),
        },
        Err(e) => Thumbnail::Failed(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_finds_environments_by_any_of_their_words() {
        let all: Vec<Entry> = groups().into_iter().flat_map(|g| g.entries).collect();
        let found = |q: &str| {
            all.iter()
                .filter(|e| e.matches(q))
                .map(|e| e.id)
                .collect::<Vec<_>>()
        };
        assert_eq!(found("").len(), all.len());
        assert_eq!(found("  "), found(""));
        assert!(found("frozen").contains(&"FrozenLake-v1"));
        assert!(found("FROZEN lake 8x8").contains(&"FrozenLake8x8-v1"));
        assert!(!found("frozen 8x8").contains(&"FrozenLake-v1"));
        assert!(found("doorkey").iter().all(|id| id.contains("DoorKey")));
        assert!(found("no-such-thing-at-all").is_empty());
    }

    #[test]
    fn every_env_is_listed_once_under_its_family() {
        let groups = groups();
        let listed: Vec<&str> = groups
            .iter()
            .flat_map(|g| g.entries.iter().map(|e| e.id))
            .collect();
        let registered: Vec<&str> = envs::specs().map(|s| s.id).collect();
        let mut sorted_listed = listed.clone();
        sorted_listed.sort_unstable();
        let mut sorted_registered = registered.clone();
        sorted_registered.sort_unstable();
        assert_eq!(sorted_listed, sorted_registered);
        for g in &groups {
            for e in &g.entries {
                assert_eq!(envs::spec(e.id).map(|s| s.family), Some(g.family));
            }
        }
        let families: Vec<&Family> = groups.iter().map(|g| g.family).collect();
        let mut dedup = families.clone();
        dedup.dedup();
        assert_eq!(families, dedup, "a family appears twice");
    }

    #[test]
    fn frozen_lake_offers_a_non_slippery_link() {
        let groups = groups();
        let lake = groups
            .iter()
            .flat_map(|g| &g.entries)
            .find(|e| e.id == "FrozenLake-v1")
            .unwrap();
        let hrefs: Vec<String> = lake.links.iter().map(PlayLink::href).collect();
        assert_eq!(
            hrefs,
            [
                "/play?env=FrozenLake-v1&seed=0",
                "/play?env=FrozenLake-v1&seed=0&kwargs=%7B%22is_slippery%22:false%7D"
            ]
        );
        let taxi = groups
            .iter()
            .flat_map(|g| &g.entries)
            .find(|e| e.id == "Taxi-v3")
            .unwrap();
        assert_eq!(taxi.links.len(), 1);
        assert_eq!(taxi.limit_text(), "Time limit: 200 steps");
        let cliff = groups
            .iter()
            .flat_map(|g| &g.entries)
            .find(|e| e.id == "CliffWalking-v1")
            .unwrap();
        assert_eq!(cliff.limit_text(), "No time limit");
    }

    #[test]
    fn own_step_limits_are_the_first_load_builds() {
        // The first-load build cannot make these families to ask: none may have a limit of
        // its own at its defaults, or the two builds' cards would differ.
        assert!(playbench_tests::atari::shelve_test_roms().unwrap().len() >= 20);
        playbench_tests::visgym::shelve_bundled_images().unwrap();
        playbench_cli::mujoco_node::install_on_demand();
        for spec in envs::specs() {
            if !envs::core::spec::ALWAYS_BUILT_IN.contains(&spec.family.id) {
                let env = envs::make_default(spec.id).unwrap();
                assert_eq!(env.own_step_limit(), None, "{}", spec.id);
            }
        }
    }

    #[test]
    fn every_link_starts_and_every_thumbnail_draws() {
        // Atari ids start once their ROMs are on the shelf (`tests/missing_roms.rs` covers
        // the cards without them), VisGym's image environments once their pictures are.
        assert!(playbench_tests::atari::shelve_test_roms().unwrap().len() >= 20);
        playbench_tests::visgym::shelve_bundled_images().unwrap();
        playbench_cli::mujoco_node::install_on_demand();
        for g in groups() {
            for e in &g.entries {
                for link in &e.links {
                    let frame = first_frame(&link.request).unwrap();
                    assert!(frame.width() > 0 && frame.height() > 0, "{}", e.id);
                    assert_eq!(
                        frame.to_rgba().len(),
                        4 * frame.width() as usize * frame.height() as usize
                    );
                }
                assert!(first_frame(&e.default_request()).is_ok());
                assert!(matches!(thumbnail(e), Thumbnail::Frame(_)), "{}", e.id);
            }
        }
    }
}
