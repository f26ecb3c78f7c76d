//! Runs a [`ModelEpisode`] (or any other model conversation, `bench::exchange`) against
//! its endpoint with `fetch`: sleeping
//! between retries, pausing and stopping on request, measuring latency and the app's
//! own work.

use std::cell::RefCell;
use std::rc::Rc;

use bench::encode::{ImageEncoder, ImageSettings};
use bench::exchange::{Exchange, Step};
use bench::model_episode::{FrameEncoder, ModelEpisode};

use super::http::{post_json, HttpAnswer};
use super::run_controller::RunController;
use super::time::{now_ms, sleep, unix_s, yield_to_page};
use crate::runner::control::Control;
use crate::runner::profiles::Profile;

/// How the drive ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The episode is over (its record is ready).
    Finished,
    /// Stopped by the person before the end.
    Stopped,
}

/// Encodes the demonstrations the episode wants as video, at `fps` (in Rust, the same
/// bytes as the command line's); a failure ends the episode (the run says why).
fn encode_videos(episode: &Rc<RefCell<ModelEpisode>>, fps: u32) {
    let result = episode.borrow_mut().encode_videos(fps);
    if let Err(why) = result {
        episode.borrow_mut().abort(&why);
    }
}

/// Does the first request's work ahead of it a piece at a time (its demonstration
/// frames counted, drawn and encoded, then its current frame), giving the page turns
/// between pieces (`in_slices`); a failure ends the episode (the run says why).
async fn prepare_first_request(
    episode: &Rc<RefCell<ModelEpisode>>,
    encoder: &mut dyn FrameEncoder,
    control: &Control,
) -> Ended {
    let piece = || {
        let t0 = now_ms();
        let prepared = episode.borrow_mut().prepare_first_request(encoder);
        episode.borrow_mut().add_work(now_ms() - t0);
        match prepared {
            Ok(p) => p.is_some(),
            Err(why) => {
                episode
                    .borrow_mut()
                    .abort(&format!("preparing the first request: {why}"));
                false
            }
        }
    };
    in_slices(piece, || control.is_stopped()).await
}

/// Calls `piece` until it returns `false` (nothing left) or `stopped` says so, giving
/// the page a turn after every few milliseconds of work (a task's clips take tens of
/// milliseconds at once; a zero-delay timeout waits 4 ms or more, so not after every
/// piece).
pub async fn in_slices(mut piece: impl FnMut() -> bool, stopped: impl Fn() -> bool) -> Ended {
    let mut turn_start = now_ms();
    loop {
        if stopped() {
            return Ended::Stopped;
        }
        if !piece() {
            return Ended::Finished;
        }
        if now_ms() - turn_start >= SLICE_MS {
            yield_to_page().await;
            turn_start = now_ms();
        }
    }
}

/// Work between the page's turns while the first request is prepared.
const SLICE_MS: f64 = 4.0;

/// Hands `answer` (an HTTP answer, or why none came) to the conversation.
fn hand_over<C: Exchange>(
    subject: &mut C,
    answer: Result<HttpAnswer, String>,
    latency: f64,
    api_key: Option<&str>,
) {
    match answer {
        Ok(a) => subject.on_response(
            a.status,
            a.retry_after.as_deref(),
            unix_s(),
            &a.body,
            latency,
            api_key,
        ),
        Err(message) => subject.on_network_error(&message, latency, api_key),
    }
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
    encode_videos(&episode, video_fps);
    changed();
    if prepare_first_request(&episode, encoder, &control).await == Ended::Stopped {
        return Ended::Stopped;
    }
    converse(
        episode, encoder, api_key, timeout_s, base_url, control, changed,
    )
    .await
}

/// Sends the conversation's requests until it is over, sleeping between retries,
/// pausing and stopping on request; `changed` is called after every change.
pub async fn converse<C: Exchange>(
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
        let next = subject.borrow_mut().next(encoder, api_key.as_deref());
        subject.borrow_mut().add_work(now_ms() - t0);
        let Step::Send { request, wait_ms } = next else {
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
            hand_over(&mut *s, answer, latency, api_key.as_deref());
            s.add_work(now_ms() - t1);
        }
        changed();
    }
}

/// Where a conversation goes: the profile's endpoint with its key, frames encoded as
/// `image` says.
pub struct Destination<'a> {
    pub profile: &'a Profile,
    pub key: Option<String>,
    pub image: ImageSettings,
}

/// Starts one worker of `run` conversing for `subject` (a run over a file's episodes:
/// the auditor's, the judge's) with `to`. `changed` sees the subject after every step;
/// the run is complete when `complete` says so, and `ended` hears of its end.
pub fn start_conversation<C: Exchange + 'static>(
    run: RunController,
    subject: Rc<RefCell<C>>,
    to: Destination,
    changed: impl Fn(&C) + 'static,
    complete: impl Fn(&C) -> bool + 'static,
    ended: impl Fn() + 'static,
) {
    let changed = Rc::new(changed);
    let Destination {
        profile,
        key,
        image,
    } = to;
    let (base_url, timeout_s) = (profile.base_url.clone(), profile.timeout_s);
    let done = subject.clone();
    run.start(
        1,
        move |control| {
            let subject = subject.clone();
            let key = key.clone();
            let base_url = base_url.clone();
            let changed = changed.clone();
            async move {
                let mut encoder = ImageEncoder::new(image);
                let seen = subject.clone();
                let changed = move || changed(&seen.borrow());
                converse(
                    subject,
                    &mut encoder,
                    key,
                    timeout_s,
                    base_url,
                    control,
                    changed,
                )
                .await;
            }
        },
        move || complete(&done.borrow()),
        move |_| ended(),
    );
}
