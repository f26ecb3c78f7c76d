//! A run's first request prepared before the run starts, a piece at a time: its
//! demonstration frames counted, drawn and encoded into the cache the run's episode
//! then shares ([`DemoCache`]), its current frame encoded, then the request built once
//! to know its size. The run page does it between its turns while the form is filled
//! in (`app/src/browser/ahead.rs`): Start then sends at once, and a fresh page's first
//! heavy work (drawing a family's art, the encoder's and the request's first use, the
//! browser compiling that code) is done before the run. `bench --turns` opens its cases
//! with it (issue 17, "Model turns at scale").

use crate::encode::{ImageEncoder, ImageSettings};
use crate::model_episode::{DemoCache, ModelEpisode, Step};
use crate::protocol::endpoint::{Endpoint, Prices};
use crate::protocol::prompt::DemoMode;
use crate::protocol::session::{Protocol, SessionConfig};
use crate::Task;

/// How far the preparation is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Not begun, or the demonstrations are being counted.
    Starting,
    /// Demonstration frames encoded, of how many.
    Frames { done: usize, total: usize },
    /// The first request is built: its images and body bytes (images as base64).
    Ready { images: usize, bytes: usize },
    /// The run could not build it (Start says why again).
    Failed(String),
}

impl Progress {
    pub fn is_over(&self) -> bool {
        matches!(self, Self::Ready { .. } | Self::Failed(_))
    }
}

/// The preparation of one run's first request (an episode of its own, never sent).
pub struct FirstRequestAhead {
    episode: ModelEpisode,
    encoder: ImageEncoder,
    progress: Progress,
}

impl FirstRequestAhead {
    /// Prepares the first request of a run of `task` with these settings, sharing its
    /// demonstration images through `cache` under `image`'s key as the run will. `None`
    /// when the demonstrations go as video (encoded at Start, all at once).
    pub fn new(
        task: &Task,
        endpoint: Endpoint,
        config: SessionConfig,
        prices: Prices,
        image: ImageSettings,
        cache: DemoCache,
    ) -> Result<Option<Self>, String> {
        if config.protocol == Protocol::Vical && config.demo_mode == DemoMode::Video {
            return Ok(None);
        }
        let mut episode = ModelEpisode::new(task, endpoint, config, prices)?;
        episode.share_demo_images(cache, image.key());
        Ok(Some(Self {
            episode,
            encoder: ImageEncoder::new(image),
            progress: Progress::Starting,
        }))
    }

    /// Does one more piece (a few milliseconds at most, bar the request's building)
    /// and says how far it is; once over, does nothing.
    pub fn step(&mut self) -> &Progress {
        if self.progress.is_over() {
            return &self.progress;
        }
        self.progress = match self.episode.prepare_first_request(&mut self.encoder) {
            Err(why) => Progress::Failed(why),
            Ok(Some((_, 0))) => Progress::Starting,
            Ok(Some((done, total))) => Progress::Frames { done, total },
            Ok(None) => match self.episode.next(&mut self.encoder, None) {
                Step::Send { request, .. } => Progress::Ready {
                    images: request.images,
                    bytes: request.body.len(),
                },
                Step::Done => Progress::Failed(
                    self.episode
                        .last_error()
                        .map_or("the episode ended before its first request".into(), |e| {
                            e.message.clone()
                        }),
                ),
            },
        };
        &self.progress
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vical_task() -> &'static Task {
        let suite = crate::suites::latest("vical").unwrap();
        suite.tasks.iter().find(|t| t.env == "Taxi-v3").unwrap()
    }

    fn endpoint() -> Endpoint {
        Endpoint {
            provider: crate::protocol::providers::Provider::OpenAi,
            base_url: "http://model.invalid/v1".into(),
            sampling: crate::protocol::providers::Sampling {
                model: "m".into(),
                temperature: None,
                max_output_tokens: None,
            },
            headers: vec![],
        }
    }

    #[test]
    fn the_run_sends_the_request_prepared_ahead_without_drawing_its_demonstrations() {
        let task = vical_task();
        let config = SessionConfig::default();
        let image = ImageSettings::default();
        let cache = DemoCache::default();
        let mut ahead = FirstRequestAhead::new(
            task,
            endpoint(),
            config,
            Prices::default(),
            image,
            cache.clone(),
        )
        .unwrap()
        .unwrap();
        let mut seen = Vec::new();
        while !ahead.step().is_over() {
            seen.push(ahead.progress.clone());
        }
        let total = crate::demo::demo_frame_count(task).unwrap();
        assert!(
            seen.contains(&Progress::Frames { done: total, total }),
            "{seen:?}"
        );
        let Progress::Ready { images, bytes } = ahead.progress.clone() else {
            panic!("{:?}", ahead.progress)
        };
        assert_eq!(
            images,
            total + 1,
            "the demonstrations and the current frame"
        );
        // The run: an episode sharing the cache, as the run page starts it.
        let mut run = ModelEpisode::new(task, endpoint(), config, Prices::default()).unwrap();
        run.share_demo_images(cache, image.key());
        let mut encoder = ImageEncoder::new(image);
        while run.prepare_first_request(&mut encoder).unwrap().is_some() {}
        assert_eq!(
            run.demo_frames_drawn(),
            0,
            "every demonstration frame came from the cache"
        );
        let Step::Send { request, .. } = run.next(&mut encoder, None) else {
            panic!("no request")
        };
        assert_eq!((request.images, request.body.len()), (images, bytes));
        // Other image settings share nothing: the run draws its own.
        let jpeg = ImageSettings {
            format: crate::encode::ImageFormat::Jpeg,
            ..image
        };
        let mut other = ModelEpisode::new(task, endpoint(), config, Prices::default()).unwrap();
        other.share_demo_images(DemoCache::default(), jpeg.key());
        let mut encoder = ImageEncoder::new(jpeg);
        while other.prepare_first_request(&mut encoder).unwrap().is_some() {}
        assert!(other.demo_frames_drawn() > 0);
    }

    #[test]
    fn video_demonstrations_and_other_protocols() {
        let task = vical_task();
        let video = SessionConfig {
            demo_mode: DemoMode::Video,
            ..SessionConfig::default()
        };
        let none = FirstRequestAhead::new(
            task,
            endpoint(),
            video,
            Prices::default(),
            ImageSettings::default(),
            DemoCache::default(),
        )
        .unwrap();
        assert!(none.is_none(), "videos are encoded at Start");
        // VisGym sends no demonstrations: its first request has the first frame.
        let visgym = crate::suites::latest("visgym").unwrap();
        let config = SessionConfig {
            protocol: Protocol::Visgym,
            ..SessionConfig::default()
        };
        let mut ahead = FirstRequestAhead::new(
            &visgym.tasks[0],
            endpoint(),
            config,
            Prices::default(),
            ImageSettings::default(),
            DemoCache::default(),
        )
        .unwrap()
        .unwrap();
        let mut pieces = 0;
        while !ahead.step().is_over() {
            pieces += 1;
        }
        assert!(pieces <= 3, "{pieces}");
        assert!(
            matches!(ahead.progress, Progress::Ready { images: 1, bytes } if bytes > 1000),
            "{:?}",
            ahead.progress
        );
    }
}
