//! Runs a [`ModelEpisode`] (or an audit) against its endpoint with `fetch`: sleeping
//! between retries, pausing and stopping on request, measuring latency and the app's
//! own work.

use std::cell::RefCell;
use std::rc::Rc;

use bench::audit::run::{AuditRun, AuditStep};
use bench::model_episode::{FrameEncoder, ModelEpisode, Step};
use bench::protocol::endpoint::HttpRequest;

use super::http::{post_json, HttpAnswer};
use super::time::{now_ms, sleep, unix_s};
use crate::runner::control::Control;

/// How the drive ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The episode is over (its record is ready).
    Finished,
    /// Stopped by the person before the end.
    Stopped,
}

/// Records the demonstrations the episode wants as video, at `fps`; a failure ends
/// the episode (the run says why).
async fn record_videos(episode: &Rc<RefCell<ModelEpisode>>, fps: u32) {
    let clips = episode.borrow_mut().videos_needed();
    for clip in clips {
        let frames = episode
            .borrow()
            .demos()
            .get(clip)
            .cloned()
            .unwrap_or_default();
        match super::video::record(&frames, fps).await {
            Ok(video) => episode.borrow_mut().provide_video(clip, video),
            Err(e) => {
                let why = format!(
                    "demonstration {} could not be recorded as video: {e}",
                    clip + 1
                );
                episode.borrow_mut().abort(&why);
                return;
            }
        }
    }
}

/// A conversation with a model the page drives over `fetch`: a model episode, or an
/// audit of a results file (`bench::audit::run::AuditRun`).
pub trait Conversation {
    /// The next request and the wait before it, or `None` when it is over.
    fn next_request(
        &mut self,
        encoder: &mut dyn FrameEncoder,
        api_key: Option<&str>,
    ) -> Option<(HttpRequest, u64)>;
    /// The answer to the last request (an HTTP answer, or why none came).
    fn on_answer(
        &mut self,
        answer: Result<HttpAnswer, String>,
        latency: f64,
        api_key: Option<&str>,
    );
    /// The app's own time spent around the last request.
    fn add_work(&mut self, _ms: f64) {}
}

/// `on_answer` for the state machines that take an HTTP answer as `on_response` and
/// its absence as `on_network_error` (both of bench's).
macro_rules! answer_by_http {
    () => {
        fn on_answer(
            &mut self,
            answer: Result<HttpAnswer, String>,
            latency: f64,
            api_key: Option<&str>,
        ) {
            match answer {
                Ok(a) => self.on_response(
                    a.status,
                    a.retry_after.as_deref(),
                    unix_s(),
                    &a.body,
                    latency,
                    api_key,
                ),
                Err(message) => self.on_network_error(&message, latency, api_key),
            }
        }
    };
}

impl Conversation for ModelEpisode {
    fn next_request(
        &mut self,
        encoder: &mut dyn FrameEncoder,
        api_key: Option<&str>,
    ) -> Option<(HttpRequest, u64)> {
        match self.next(encoder, api_key) {
            Step::Send { request, wait_ms } => Some((request, wait_ms)),
            Step::Done => None,
        }
    }

    answer_by_http!();

    fn add_work(&mut self, ms: f64) {
        ModelEpisode::add_work(self, ms);
    }
}

impl Conversation for AuditRun {
    fn next_request(
        &mut self,
        encoder: &mut dyn FrameEncoder,
        api_key: Option<&str>,
    ) -> Option<(HttpRequest, u64)> {
        match self.next(encoder, api_key) {
            AuditStep::Send { request, wait_ms } => Some((request, wait_ms)),
            AuditStep::Done => None,
        }
    }

    answer_by_http!();
}

/// Plays the episode to its end; `changed` is called after every change.
#[allow(clippy::too_many_arguments)] // the run's parts, each used once
pub async fn drive(
    episode: Rc<RefCell<ModelEpisode>>,
    encoder: &mut dyn FrameEncoder,
    api_key: Option<String>,
    timeout_s: u32,
    base_url: String,
    video_fps: u32,
    control: Rc<Control>,
    changed: impl Fn(),
) -> Ended {
    record_videos(&episode, video_fps).await;
    changed();
    converse(
        episode, encoder, api_key, timeout_s, base_url, control, changed,
    )
    .await
}

/// Sends the conversation's requests until it is over, sleeping between retries,
/// pausing and stopping on request; `changed` is called after every change.
pub async fn converse<C: Conversation>(
    subject: Rc<RefCell<C>>,
    encoder: &mut dyn FrameEncoder,
    api_key: Option<String>,
    timeout_s: u32,
    base_url: String,
    control: Rc<Control>,
    changed: impl Fn(),
) -> Ended {
    loop {
        while control.is_paused() && !control.is_stopped() {
            sleep(100).await;
        }
        if control.is_stopped() {
            return Ended::Stopped;
        }
        let t0 = now_ms();
        let next = subject
            .borrow_mut()
            .next_request(encoder, api_key.as_deref());
        subject.borrow_mut().add_work(now_ms() - t0);
        let Some((request, wait_ms)) = next else {
            changed();
            return Ended::Finished;
        };
        changed();
        sleep(wait_ms).await;
        let sent = now_ms();
        let answer = post_json(
            &request.url,
            &request.headers,
            &request.body,
            timeout_s,
            &base_url,
        )
        .await;
        let latency = now_ms() - sent;
        if control.is_stopped() {
            return Ended::Stopped;
        }
        let t1 = now_ms();
        {
            let mut s = subject.borrow_mut();
            s.on_answer(answer, latency, api_key.as_deref());
            s.add_work(now_ms() - t1);
        }
        changed();
    }
}
