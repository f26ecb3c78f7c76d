//! How a model run is conducted, beyond the endpoint: the protocol controls
//! (strictness, history window, observation, feedback, reward) and how frames are
//! encoded. Stored with every episode and results file, so a run says how it was made.

pub use bench::encode::{ImageFormat, ImageSettings};
use bench::protocol::parse::Strictness;
use bench::protocol::prompt::DemoMode;
use bench::protocol::providers::Provider;
use bench::protocol::session::{
    GameVerseAgent, HistoryWindow, ObservationMode, Protocol, RewardMode, SessionConfig,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::profiles::Profile;
use crate::storage::{Store, StoreError};
use crate::storage_keys::RUN_SETTINGS;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunSettings {
    pub session: SessionConfig,
    pub image: ImageSettings,
    /// Ask for demonstrations as video where the API takes video (Gemini) and the
    /// browser can record it; images otherwise.
    pub video_demos: bool,
    /// Frames per second of recorded demonstrations (Gemini samples 1 per second).
    pub video_fps: u32,
    /// Why the demonstrations went as images although video was asked for (set by
    /// [`RunSettings::resolved`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub demos_note: Option<String>,
}

impl Default for RunSettings {
    fn default() -> Self {
        Self {
            session: SessionConfig::default(),
            image: ImageSettings::default(),
            video_demos: false,
            video_fps: 1,
            demos_note: None,
        }
    }
}

impl RunSettings {
    pub fn image_key(&self) -> String {
        self.image.key()
    }

    pub fn from_storage(text: Option<&str>) -> Self {
        text.and_then(|t| serde_json::from_str(t).ok())
            .unwrap_or_default()
    }

    pub fn to_storage(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The settings last saved (the defaults when none are, or they are unreadable).
    pub fn load(store: &dyn Store) -> Self {
        Self::from_storage(store.get(RUN_SETTINGS.key).as_deref())
    }

    pub fn save(&self, store: &dyn Store) -> Result<(), StoreError> {
        store.set(RUN_SETTINGS.key, &self.to_storage())
    }

    /// The settings a run uses with `provider`: the demonstration mode decided, and
    /// why when video was asked for but the API takes none. (Videos are encoded in
    /// Rust, `bench::video`, so every browser can make them.)
    pub fn resolved(&self, provider: Provider) -> Self {
        let mut s = self.clone();
        s.demos_note = None;
        s.session.demo_mode = DemoMode::Images;
        if self.video_demos {
            if provider.takes_video() {
                s.session.demo_mode = DemoMode::Video;
            } else {
                s.demos_note = Some(format!("{} takes no video", provider.name()));
            }
        }
        s
    }

    /// Everything wrong, in words.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !(1..=30).contains(&self.video_fps) {
            out.push("The video frame rate must be between 1 and 30 frames per second.".into());
        }
        if !(0.1..=1.0).contains(&self.image.quality) {
            out.push("JPEG quality must be between 0.1 and 1.".into());
        }
        if !(0.1..=4.0).contains(&self.image.scale) {
            out.push("The image scale must be between 0.1 and 4.".into());
        }
        let visgym = self.session.protocol == Protocol::Visgym;
        if self.session.history == HistoryWindow::Last(0) && !visgym {
            out.push("Keep at least one turn of history (0 is VisGym's harness only).".into());
        }
        if visgym && self.session.observation == ObservationMode::Both {
            out.push("VisGym's harness shows the image or the text rendering, not both.".into());
        }
        if self.session.protocol == Protocol::Gameverse
            && (self.session.history != HistoryWindow::Full
                || self.session.observation != ObservationMode::Image)
        {
            out.push(
                "GameVerse's agent sends every step alone with screenshots: keep the history full and the observation an image."
                    .into(),
            );
        }
        out
    }

    /// The settings stored with episodes and results: the endpoint without its key,
    /// the protocol controls and the image encoding.
    pub fn record(&self, profile: &Profile) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("provider".into(), profile.provider.name().into());
        m.insert("base_url".into(), profile.base_url.trim().into());
        m.insert("model".into(), profile.model.trim().into());
        m.insert("profile".into(), profile.name.clone().into());
        if let Some(t) = profile.temperature {
            m.insert("temperature".into(), t.into());
        }
        if let Some(n) = profile.max_output_tokens {
            m.insert("max_output_tokens".into(), n.into());
        }
        m.insert("timeout_s".into(), profile.timeout_s.into());
        let s = &self.session;
        let visgym = s.protocol == Protocol::Visgym;
        m.insert(
            "protocol".into(),
            match s.protocol {
                Protocol::Vical => "vical",
                Protocol::Visgym => "visgym",
                Protocol::Gameverse => "gameverse",
            }
            .into(),
        );
        if s.protocol == Protocol::Gameverse {
            // GameVerse's agent and its fixed images, named as `playbench run` records
            // them (docs/gameverse.md, "Harness").
            let agent = match s.gameverse_agent {
                GameVerseAgent::ZeroShot => "zero-shot",
                GameVerseAgent::Memory => "memory",
            };
            m.insert("gameverse_agent".into(), agent.into());
            m.insert("image_format".into(), "image/png".into());
            m.insert("image_scale".into(), 1.0.into());
            return m;
        }
        if visgym {
            // VisGym's options, named as `playbench run` records them.
            for (set, name) in [
                (s.verbalize, "verbalize"),
                (s.final_goal, "final_goal"),
                (s.repeat_instructions, "repeat_instructions"),
            ] {
                if set {
                    m.insert(name.into(), true.into());
                }
            }
        }
        m.insert(
            "strictness".into(),
            match s.strictness {
                Strictness::Exact => "exact",
                Strictness::Lenient => "lenient",
            }
            .into(),
        );
        m.insert(
            "history".into(),
            match s.history {
                HistoryWindow::Full => "full".to_string(),
                HistoryWindow::Last(k) => format!("last {k}"),
            }
            .into(),
        );
        m.insert(
            "observation".into(),
            match s.observation {
                ObservationMode::Image => "image",
                ObservationMode::Text => "text",
                ObservationMode::Both => "both",
            }
            .into(),
        );
        m.insert("feedback".into(), s.feedback.into());
        m.insert(
            "reward".into(),
            match s.reward {
                RewardMode::Task => "as the task says",
                RewardMode::Shown => "shown",
                RewardMode::Hidden => "hidden",
            }
            .into(),
        );
        let demos = match (self.session.demo_mode, &self.demos_note) {
            (DemoMode::Video, _) => format!("video (webm, {} fps)", self.video_fps),
            (DemoMode::Images, Some(why)) => format!("images (video asked for, but {why})"),
            (DemoMode::Images, None) => "images".to_string(),
        };
        if visgym {
            // VisGym's harness fixes its images (docs/visgym.md, "Harness") and sends
            // no demonstrations.
            m.insert("image_format".into(), "image/jpeg".into());
            m.insert("image_quality".into(), 0.75.into());
            m.insert(
                "image_max_long_side".into(),
                bench::encode::VISGYM_MAX_LONG_SIDE.into(),
            );
            return m;
        }
        m.insert("demos".into(), demos.into());
        m.insert("image_format".into(), self.image.format.mime().into());
        if self.image.format == ImageFormat::Jpeg {
            m.insert("image_quality".into(), self.image.quality.into());
        }
        m.insert("image_scale".into(), self.image.scale.into());
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_and_record_everything_but_the_key() {
        let mut s = RunSettings::default();
        s.session.history = HistoryWindow::Last(4);
        s.session.observation = ObservationMode::Both;
        s.image.format = ImageFormat::Jpeg;
        assert_eq!(RunSettings::from_storage(Some(&s.to_storage())), s);
        let store = crate::storage::MemoryStore::new();
        assert_eq!(RunSettings::load(&store), RunSettings::default());
        s.save(&store).unwrap();
        assert_eq!(RunSettings::load(&store), s);
        assert_eq!(
            RunSettings::from_storage(Some("garbage")),
            RunSettings::default()
        );
        let p = Profile {
            model: "m".into(),
            ..Profile::default()
        };
        let r = s.record(&p);
        assert_eq!(r["history"], "last 4");
        assert_eq!(r["observation"], "both");
        assert_eq!(r["image_format"], "image/jpeg");
        assert_eq!(r["demos"], "images");
        assert!(!serde_json::to_string(&r).unwrap().contains("key"));
    }

    #[test]
    fn gameverse_runs_record_its_agent_and_png_frames() {
        let mut s = RunSettings::default();
        s.session.protocol = Protocol::Gameverse;
        s.image.format = ImageFormat::Jpeg;
        let r = s.record(&Profile::default());
        assert_eq!(r["protocol"], "gameverse");
        assert_eq!(r["gameverse_agent"], "zero-shot");
        assert_eq!(r["image_format"], "image/png");
        s.session.gameverse_agent = GameVerseAgent::Memory;
        assert_eq!(s.record(&Profile::default())["gameverse_agent"], "memory");
        assert!(s.problems().is_empty());
        s.session.history = HistoryWindow::Last(2);
        assert!(s.problems()[0].starts_with("GameVerse's agent"));
    }

    #[test]
    fn visgym_runs_record_its_harness_and_its_fixed_images() {
        let mut s = RunSettings::default();
        let p = Profile::default();
        assert_eq!(s.record(&p)["protocol"], "vical");
        s.session.history = HistoryWindow::Last(0);
        assert_eq!(s.problems().len(), 1);
        s.session.protocol = Protocol::Visgym;
        s.session.verbalize = true;
        assert!(s.problems().is_empty());
        let r = s.record(&p);
        assert_eq!(r["protocol"], "visgym");
        assert_eq!(r["verbalize"], true);
        assert_eq!(r["history"], "last 0");
        assert_eq!(r["image_format"], "image/jpeg");
        assert_eq!(r["image_max_long_side"], 336);
        assert!(!r.contains_key("final_goal") && !r.contains_key("image_scale"));
        s.session.observation = ObservationMode::Both;
        assert_eq!(s.problems().len(), 1);
    }

    #[test]
    fn video_demonstrations_only_where_they_can_be_had() {
        let p = Profile::default();
        let asked = RunSettings {
            video_demos: true,
            video_fps: 2,
            ..RunSettings::default()
        };
        let g = asked.resolved(Provider::Gemini);
        assert_eq!(g.session.demo_mode, DemoMode::Video);
        assert_eq!(g.record(&p)["demos"], "video (webm, 2 fps)");
        let o = asked.resolved(Provider::OpenAi);
        assert_eq!(o.session.demo_mode, DemoMode::Images);
        assert_eq!(
            o.record(&p)["demos"],
            "images (video asked for, but openai takes no video)"
        );
        let plain = RunSettings::default().resolved(Provider::Gemini);
        assert_eq!(plain.record(&p)["demos"], "images");
    }

    #[test]
    fn bad_values_are_named_and_sizes_scaled() {
        let mut s = RunSettings::default();
        s.image.quality = 2.0;
        s.image.scale = 0.0;
        assert_eq!(s.problems().len(), 2);
        let i = ImageSettings {
            scale: 0.5,
            ..ImageSettings::default()
        };
        assert_eq!(i.scaled(600, 400), (300, 200));
        assert_eq!(i.scaled(1, 1), (1, 1));
    }
}
