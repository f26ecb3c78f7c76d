//! One model episode as a plain state machine, the same for the browser and the command
//! line: ask it for the next request, send it however the platform sends things (the
//! browser's fetch, the CLI's blocking client), hand back the answer. It owns the
//! episode engine and the protocol session, the image cache, usage accounting and a log
//! of every request for the live view. No IO, so native tests run whole episodes
//! against canned answers.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::demo::DemoReels;
pub use crate::encode::FrameEncoder;
use crate::encode::{ImageEncoder, ImageSettings};
use crate::latency::{LatencyClock, LatencySource};
use crate::protocol::endpoint::{redact, Endpoint, Prices};
use crate::protocol::gameverse::GameVerseSession;
use crate::protocol::prompt::{DemoMode, ImageRef};
use crate::protocol::providers::{ApiError, EncodedImage, ErrorKind};
use crate::protocol::session::{ModelSession, Next, Protocol, RequestPlan, SessionConfig};
use crate::protocol::visgym::VisGymSession;
use crate::results::Usage;
use crate::{EpisodeRecord, EpisodeRunner, FailureMode, Reply, Task};
use envs::Frame;

/// Why a request was sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// The decision's first request.
    First,
    /// After a malformed reply (with the retry message).
    FormatRetry(u32),
    /// After a transport error (network, 429, 5xx, timeout).
    TransportRetry(u32),
}

/// One request and what came of it, for the live view.
#[derive(Clone, Debug, PartialEq)]
pub struct Turn {
    /// Decisions made before this request (0 = the first turn).
    pub step: u32,
    pub attempt: Attempt,
    pub wait_before_ms: u64,
    pub request_bytes: usize,
    pub images: usize,
    pub image_bytes: usize,
    /// Time to the answer; `None` while in flight.
    pub latency_ms: Option<f64>,
    /// The app's own time (render, encode, build, parse), measured by the caller.
    pub work_ms: f64,
    pub reply: Option<String>,
    /// The parsed action, when the reply was accepted.
    pub action: Option<String>,
    /// A rejected reply's reason or the request's error (key redacted).
    pub problem: Option<String>,
    pub tokens: Option<(u64, u64)>,
}

/// Encoded demonstration frames shared by the episodes of one task (a suite run
/// encodes each clip once, not once per episode). Keyed by the encoder settings' text
/// as well, so episodes with other image settings never share.
pub type DemoCache = Rc<RefCell<HashMap<(String, ImageRef), EncodedImage>>>;

/// What to do next (`Done`: [`ModelEpisode::record`] has the episode).
pub use crate::exchange::Step;

/// The protocol's conversation: V-ICAL's, VisGym's or GameVerse's.
enum Conversation {
    Vical(ModelSession),
    VisGym(VisGymSession),
    GameVerse(GameVerseSession),
}

impl Conversation {
    fn next_request(&mut self, runner: &EpisodeRunner) -> Option<RequestPlan> {
        match self {
            Self::Vical(s) => s.next_request(runner),
            Self::VisGym(s) => s.next_request(runner),
            Self::GameVerse(s) => s.next_request(runner),
        }
    }

    fn on_reply(&mut self, text: &str) -> Next {
        match self {
            Self::Vical(s) => s.on_reply(text),
            Self::VisGym(s) => s.on_reply(text),
            Self::GameVerse(s) => s.on_reply(text),
        }
    }

    fn on_error(&mut self, error: ApiError) -> Next {
        match self {
            Self::Vical(s) => s.on_error(error),
            Self::VisGym(s) => s.on_error(error),
            Self::GameVerse(s) => s.on_error(error),
        }
    }

    fn transport_retries(&self) -> u32 {
        match self {
            Self::Vical(s) => s.transport_retries(),
            Self::VisGym(s) => s.transport_retries(),
            Self::GameVerse(s) => s.transport_retries(),
        }
    }

    fn last_parse_error(&self) -> Option<String> {
        match self {
            Self::Vical(s) => s.last_parse_error().map(ToString::to_string),
            Self::VisGym(_) | Self::GameVerse(_) => None,
        }
    }

    /// The session's own last error (a request it could not build).
    fn own_error(&self) -> Option<&ApiError> {
        match self {
            Self::GameVerse(s) => s.last_error(),
            Self::Vical(_) | Self::VisGym(_) => None,
        }
    }
}

/// The frame after the oracle's whole plan from the environment's current state, when
/// its last step succeeds (VisGym's final goal; the reference raises otherwise).
pub fn final_goal_frame(env: &dyn envs::Env) -> Result<Frame, String> {
    let mut solved = env.clone_box();
    let mut oracle = solved
        .oracle(envs::core::oracle::Control::default())
        .ok_or_else(|| format!("{} has no solver for the final goal", env.id()))?;
    let mut last = None;
    while let Some(action) = oracle.next_action(solved.as_ref()) {
        last = Some(solved.step(action).map_err(|e| e.to_string())?);
    }
    match last {
        Some(step) if step.terminated && step.reward == 1.0 => {
            let mut frame = Frame::default();
            solved.render(&mut frame);
            Ok(frame)
        }
        _ => Err("ValueError: The episode did not terminate successfully.".into()),
    }
}

pub struct ModelEpisode {
    runner: Option<EpisodeRunner>,
    session: Conversation,
    /// The protocol's own image encoder (VisGym's harness fixes its images), used
    /// instead of the caller's.
    own_encoder: Option<Box<dyn FrameEncoder>>,
    endpoint: Endpoint,
    prices: Prices,
    agent: String,
    demos: DemoReels,
    images: HashMap<ImageRef, EncodedImage>,
    /// How many demonstration frames, in order, are known to be encoded: the search for
    /// the next one to prepare starts there (an image once made is kept), so preparing
    /// a session's frames one per slice is not quadratic in their number.
    demo_frames_ready: usize,
    /// Demonstration images shared with other episodes of the task, and the key part
    /// naming the encoder settings.
    demo_cache: Option<(DemoCache, String)>,
    /// Demonstrations go as one video per clip (recorded by the caller).
    videos: bool,
    /// The frame the episode ended on (while it runs, its runner holds the frame).
    frame: Frame,
    turns: Vec<Turn>,
    usage: Usage,
    record: Option<EpisodeRecord>,
    /// The last error of any request (people see it even after a successful retry).
    last_error: Option<ApiError>,
    /// Whether the last request carried an API key (an empty key is not sent).
    key_sent: bool,
    /// Real-time tasks whose clock waits for actions: thinking time is game time.
    timing: Option<(LatencyClock, LatencySource)>,
    /// Replies played on that clock so far.
    timed_replies: usize,
    /// Work measured before the first request (demonstration frames encoded ahead),
    /// counted in that request's work.
    work_before_ms: f64,
    /// V-ICAL's session settings until its first request is planned, which needs the
    /// demonstrations' frame counts (`plan_session`).
    unplanned: Option<SessionConfig>,
}

/// The agent name records carry: `endpoint:<provider>:<model>`.
pub fn agent_name(endpoint: &Endpoint) -> String {
    format!(
        "endpoint:{}:{}",
        endpoint.provider.name(),
        endpoint.sampling.model
    )
}

impl ModelEpisode {
    pub fn new(
        task: &Task,
        endpoint: Endpoint,
        config: SessionConfig,
        prices: Prices,
    ) -> Result<Self, String> {
        let demos = DemoReels::new(task).map_err(|e| e.to_string())?;
        let runner = EpisodeRunner::start(task).map_err(|e| e.to_string())?;
        let session = match config.protocol {
            // Planned again once the demonstrations are counted (`plan_session`).
            Protocol::Vical => {
                Conversation::Vical(ModelSession::with_demo_frames(task, config, &[]))
            }
            Protocol::Visgym => Conversation::VisGym(VisGymSession::new(task, &runner, config)?),
            Protocol::Gameverse => {
                Conversation::GameVerse(GameVerseSession::new(task, &runner, config)?)
            }
        };
        // VisGym's and GameVerse's harnesses encode their frames themselves; V-ICAL's
        // encoder is the caller's.
        let own_encoder = (config.protocol != Protocol::Vical).then(|| {
            Box::new(ImageEncoder::for_protocol(
                config.protocol,
                ImageSettings::default(),
            )) as Box<dyn FrameEncoder>
        });
        let timing = LatencyClock::for_runner(&runner).map(|c| (c, LatencySource::Measured));
        let unplanned = (config.protocol == Protocol::Vical).then_some(config);
        Ok(Self {
            unplanned,
            timing,
            timed_replies: 0,
            work_before_ms: 0.0,
            videos: config.demo_mode == DemoMode::Video && config.protocol == Protocol::Vical,
            runner: Some(runner),
            session,
            own_encoder,
            agent: agent_name(&endpoint),
            endpoint,
            prices,
            demos,
            images: HashMap::new(),
            demo_frames_ready: 0,
            demo_cache: None,
            frame: Frame::default(),
            turns: Vec::new(),
            usage: Usage::default(),
            record: None,
            last_error: None,
            key_sent: false,
        })
    }

    /// Where the thinking times of a real-time task come from (measured by default);
    /// no effect on other tasks.
    pub fn set_latency_source(&mut self, source: LatencySource) {
        if let Some((_, s)) = &mut self.timing {
            *s = source;
        }
    }

    /// The latency setting, when the task plays the model's thinking time as game time.
    pub fn latency_source(&self) -> Option<&LatencySource> {
        self.timing.as_ref().map(|(_, s)| s)
    }

    /// The wall time of decision `step`: from its first request to its last answer,
    /// the waits before retries included.
    fn thinking_ms(&self, step: u32) -> u64 {
        let ms: f64 = self
            .turns
            .iter()
            .filter(|t| t.step == step)
            .enumerate()
            .map(|(k, t)| {
                let wait = if k > 0 { t.wait_before_ms as f64 } else { 0.0 };
                wait + t.latency_ms.unwrap_or(0.0)
            })
            .sum();
        ms.round() as u64
    }

    /// Hands a decision to the runner: at once, or on the virtual clock after the
    /// thinking time (`crate::latency`).
    fn play(&mut self, reply: Reply) -> Result<(), crate::episode::EpisodeError> {
        let step = self.step();
        let measured = self.thinking_ms(step);
        let Some(r) = &mut self.runner else {
            return Ok(());
        };
        let Some((clock, source)) = self
            .timing
            .as_mut()
            .filter(|_| !matches!(reply, Reply::Fail { .. }))
        else {
            return ModelSession::settle(r, reply);
        };
        let latency = match source.latency(self.timed_replies, measured) {
            Ok(ms) => ms,
            Err(e) => {
                self.last_error = Some(ApiError::new(ErrorKind::BadResponse, e));
                r.fail(FailureMode::ApiError, Vec::new());
                return Ok(());
            }
        };
        self.timed_replies += 1;
        clock.play(r, latency, |r| ModelSession::settle(r, reply))
    }

    /// Replaces the protocol's own image encoder (VisGym's harness encodes its frames
    /// itself, whatever the caller passes to [`next`](Self::next)); for tests that
    /// look at which frames are sent.
    pub fn replace_protocol_encoder(&mut self, encoder: Box<dyn FrameEncoder>) {
        if self.own_encoder.is_some() {
            self.own_encoder = Some(encoder);
        }
    }

    /// Fills GameVerse's experience slot (the lead-in of reflect-and-retry): the system
    /// prompt carries `text`, or GameVerse's no-experience sentence for `None`, and the
    /// record names it. Only before the first request and with the GameVerse protocol.
    pub fn set_experience(&mut self, text: Option<String>) -> Result<(), String> {
        match &mut self.session {
            Conversation::GameVerse(s) if self.turns.is_empty() => s.set_experience(text),
            Conversation::GameVerse(_) => {
                Err("the experience is set before the episode's first request".into())
            }
            _ => Err("only the gameverse protocol has an experience slot".into()),
        }
    }

    /// GameVerse's memory agent's long-term memories, oldest first (`None` for other
    /// protocols and agents).
    pub fn gameverse_memories(&self) -> Option<Vec<String>> {
        match &self.session {
            Conversation::GameVerse(s) => s.memories(),
            _ => None,
        }
    }

    /// Shares demonstration images with other episodes through `cache`; `encoding`
    /// names the image settings (e.g. their JSON).
    pub fn share_demo_images(&mut self, cache: DemoCache, encoding: String) {
        self.demo_cache = Some((cache, encoding));
    }

    /// The clips still to be recorded as video before the first request (none unless
    /// the session sends demonstrations as video); videos already in the shared cache
    /// are taken from it.
    pub fn videos_needed(&mut self) -> Vec<usize> {
        if !self.videos {
            return Vec::new();
        }
        (0..self.demos.clips())
            .filter(|&clip| {
                let r = ImageRef::DemoVideo { clip };
                if self.images.contains_key(&r) {
                    return false;
                }
                let cached = self
                    .demo_cache
                    .as_ref()
                    .and_then(|(c, e)| c.borrow().get(&(e.clone(), r)).cloned());
                match cached {
                    Some(v) => {
                        self.images.insert(r, v);
                        false
                    }
                    None => true,
                }
            })
            .collect()
    }

    /// Clip `clip` recorded as a video (shared with the other episodes of the task).
    pub fn provide_video(&mut self, clip: usize, video: EncodedImage) {
        let r = ImageRef::DemoVideo { clip };
        if let Some((c, e)) = &self.demo_cache {
            c.borrow_mut().insert((e.clone(), r), video.clone());
        }
        self.images.insert(r, video);
    }

    /// Encodes the clips still needed as video (`videos_needed`) as WebM at `fps`
    /// frames per second, in Rust (`crate::video`: the same bytes in the command line
    /// and every browser, no real-time recording); an error names the clip.
    pub fn encode_videos(&mut self, fps: u32) -> Result<(), String> {
        for clip in self.videos_needed() {
            let frames = self
                .demos
                .all()?
                .get(clip)
                .map(Vec::as_slice)
                .unwrap_or_default();
            let video = crate::video::webm_video(frames, f64::from(fps)).map_err(|e| {
                format!(
                    "demonstration {} could not be encoded as video: {e}",
                    clip + 1
                )
            })?;
            self.provide_video(clip, video);
        }
        Ok(())
    }

    /// Does one more piece of the first request's work ahead of it, so that a caller
    /// can yield between pieces (a task's clips take tens of milliseconds to replay,
    /// draw and encode, longer than a browser should go without drawing): counts a
    /// decision of the demonstrations, draws or encodes one of the frames V-ICAL's
    /// first request carries (its images mode), then draws and encodes the current
    /// frame. Returns how many demonstration frames are encoded and of how many (0 of 0
    /// while they are counted, n of n for the current frame), or `None` when nothing
    /// is left. `next` does whatever this left.
    pub fn prepare_first_request(
        &mut self,
        enc: &mut dyn FrameEncoder,
    ) -> Result<Option<(usize, usize)>, String> {
        if self.runner.is_none() || !self.turns.is_empty() {
            return Ok(None);
        }
        let sends_frames = matches!(self.session, Conversation::Vical(_)) && !self.videos;
        let mut total = 0;
        if sends_frames {
            if self.plan_session(true)? {
                return Ok(Some((0, 0)));
            }
            let counts = self.demos.count_all()?;
            total = counts.iter().sum();
            if let Some(done) = self.prepare_demo_frame(&counts, enc)? {
                return Ok(Some((done, total)));
            }
        }
        let Some(runner) = &mut self.runner else {
            return Ok(None);
        };
        let current = ImageRef::Current {
            step: runner.step_count(),
        };
        if self.images.contains_key(&current) {
            return Ok(None);
        }
        // Drawn in one call, encoded in the next (with the protocol's encoder, as
        // `next` would).
        if runner.current_frame().is_none() {
            runner.draw_current();
            return Ok(Some((total, total)));
        }
        let mut own = self.own_encoder.take();
        let enc: &mut dyn FrameEncoder = match own.as_mut() {
            Some(e) => e.as_mut(),
            None => enc,
        };
        let encoded = self.image(&current, enc);
        self.own_encoder = own;
        encoded.map(|_| Some((total, total)))
    }

    /// Draws or encodes the first demonstration frame not yet encoded; frames another
    /// episode of the task encoded are taken at once (only a drawing or an encoding
    /// ends the call). Returns how many are encoded after it, or `None` when all are.
    fn prepare_demo_frame(
        &mut self,
        counts: &[usize],
        enc: &mut dyn FrameEncoder,
    ) -> Result<Option<usize>, String> {
        loop {
            let refs = counts.iter().enumerate().flat_map(|(clip, &frames)| {
                (0..frames).map(move |frame| ImageRef::DemoFrame { clip, frame })
            });
            let Some((ready, r)) = refs
                .enumerate()
                .skip(self.demo_frames_ready)
                .find(|(_, r)| !self.images.contains_key(r))
            else {
                self.demo_frames_ready = counts.iter().sum();
                return Ok(None);
            };
            self.demo_frames_ready = ready;
            let shared = self
                .demo_cache
                .as_ref()
                .is_some_and(|(c, e)| c.borrow().contains_key(&(e.clone(), r)));
            if let ImageRef::DemoFrame { clip, frame } = r {
                if !shared && !self.demos.is_drawn(clip, frame) {
                    self.demos.frame(clip, frame)?;
                    return Ok(Some(ready));
                }
            }
            self.image(&r, enc)?;
            if !shared {
                return Ok(Some(ready + 1));
            }
        }
    }

    /// Plans V-ICAL's session once the demonstrations' frames are counted: when
    /// `slice`, one decision of the counting at most (`true`: more to count), else all
    /// that is left. Nothing to do for other protocols or once planned.
    fn plan_session(&mut self, slice: bool) -> Result<bool, String> {
        let (Some(config), Some(runner)) = (self.unplanned, &self.runner) else {
            return Ok(false);
        };
        if slice && self.demos.count_step()? {
            return Ok(true);
        }
        let counts = self.demos.count_all()?;
        self.session = Conversation::Vical(ModelSession::with_demo_frames(
            runner.task(),
            config,
            &counts,
        ));
        self.unplanned = None;
        Ok(false)
    }

    /// Ends the episode before its first request (e.g. a demonstration could not be
    /// recorded): an `api_error`, with the reason as the last error.
    pub fn abort(&mut self, why: &str) {
        self.last_error = Some(ApiError::new(ErrorKind::BadResponse, why));
        self.fail(FailureMode::ApiError);
    }

    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    pub fn usage(&self) -> &Usage {
        &self.usage
    }

    pub fn record(&self) -> Option<&EpisodeRecord> {
        self.record.as_ref()
    }

    pub fn runner(&self) -> Option<&EpisodeRunner> {
        self.runner.as_ref()
    }

    pub fn last_error(&self) -> Option<&ApiError> {
        self.last_error.as_ref()
    }

    /// Decisions made so far.
    pub fn step(&self) -> u32 {
        self.runner.as_ref().map_or_else(
            || self.record.as_ref().map_or(0, |r| r.decisions.len() as u32),
            EpisodeRunner::step_count,
        )
    }

    /// The demonstration frames (captioned), by clip, drawing those not drawn yet.
    /// How many demonstration clips the task has (nothing drawn).
    pub fn demo_clips(&self) -> usize {
        self.demos.clips()
    }

    pub fn demos(&mut self) -> Result<&[Vec<Frame>], String> {
        self.demos.all()
    }

    /// Demonstration frames drawn so far (none until one is needed that no other
    /// episode of the task encoded).
    pub fn demo_frames_drawn(&self) -> usize {
        self.demos.drawn()
    }

    /// The current frame (after the last decision): the one drawn when it was recorded
    /// while nothing has moved since, else drawn now.
    /// Once the episode is over, the frame it ended on.
    pub fn frame(&mut self) -> &Frame {
        match &mut self.runner {
            Some(r) => {
                if r.current_frame().is_none() {
                    r.draw_current();
                }
                r.current_frame().unwrap_or(&self.frame)
            }
            None => &self.frame,
        }
    }

    fn finish(&mut self) {
        if let Some(r) = self.runner.take() {
            match r.current_frame() {
                Some(drawn) => self.frame.clone_from(drawn),
                None => r.env().render(&mut self.frame),
            }
            let mut record = r.finish(&self.agent);
            if let Conversation::GameVerse(s) = &self.session {
                record.experience = s.experience().map(str::to_string);
            }
            self.record = Some(record);
        }
    }

    /// Ends the episode as failed (e.g. the frame could not be encoded).
    fn fail(&mut self, mode: FailureMode) {
        if let Some(r) = &mut self.runner {
            r.fail(mode, Vec::new());
        }
        self.finish();
    }

    fn image(&mut self, r: &ImageRef, enc: &mut dyn FrameEncoder) -> Result<EncodedImage, String> {
        if let Some(img) = self.images.get(r) {
            return Ok(img.clone());
        }
        let img = match *r {
            ImageRef::DemoFrame { clip, frame } => {
                let shared_key = self.demo_cache.as_ref().map(|(_, e)| (e.clone(), *r));
                let shared = self.demo_cache.as_ref().zip(shared_key.as_ref());
                if let Some(img) = shared.and_then(|((c, _), k)| c.borrow().get(k).cloned()) {
                    img
                } else {
                    let img = enc.encode(self.demos.frame(clip, frame)?)?;
                    if let Some(((c, _), k)) = shared {
                        c.borrow_mut().insert(k.clone(), img.clone());
                    }
                    img
                }
            }
            ImageRef::Current { step }
                if Some(step) == self.runner.as_ref().map(|r| r.step_count()) =>
            {
                enc.encode(self.frame())?
            }
            ImageRef::FinalGoal => {
                let runner = self.runner.as_ref().ok_or("the episode is over")?;
                enc.encode(&final_goal_frame(runner.env())?)?
            }
            _ => return Err(format!("image {r:?} is not available")),
        };
        self.images.insert(*r, img.clone());
        Ok(img)
    }

    /// Whether the last request carried an API key: errors name a missing key.
    pub fn key_sent(&self) -> bool {
        self.key_sent
    }

    /// The next request, or `Done`.
    pub fn next(&mut self, enc: &mut dyn FrameEncoder, api_key: Option<&str>) -> Step {
        if let Err(e) = self.plan_session(false) {
            self.last_error = Some(ApiError::new(
                ErrorKind::BadResponse,
                format!("replaying a demonstration: {e}"),
            ));
            self.fail(FailureMode::ApiError);
            return Step::Done;
        }
        let Some(runner) = &self.runner else {
            return Step::Done;
        };
        let Some(plan) = self.session.next_request(runner) else {
            if let Some(e) = self.session.own_error() {
                self.last_error = Some(e.clone());
                self.fail(FailureMode::ApiError);
            }
            self.finish();
            return Step::Done;
        };
        let step = runner.step_count();
        // Encode every image first (the borrow of `self` for the cache ends here).
        let refs: Vec<ImageRef> = plan
            .messages
            .iter()
            .flat_map(|m| m.images().copied())
            .collect();
        let mut own = self.own_encoder.take();
        let enc: &mut dyn FrameEncoder = match own.as_mut() {
            Some(e) => e.as_mut(),
            None => enc,
        };
        let encoded = refs.iter().try_for_each(|r| self.image(r, enc).map(|_| ()));
        self.own_encoder = own;
        if let Err(e) = encoded {
            self.last_error = Some(ApiError::new(
                ErrorKind::BadResponse,
                format!("encoding a frame: {e}"),
            ));
            self.fail(FailureMode::ApiError);
            return Step::Done;
        }
        let api_key = api_key.map(str::trim).filter(|k| !k.is_empty());
        self.key_sent = api_key.is_some();
        let images = &self.images;
        let request = match self.endpoint.request(api_key, &plan.messages, |r| {
            images
                .get(r)
                .cloned()
                .ok_or_else(|| format!("image {r:?} is not available"))
        }) {
            Ok(req) => req,
            Err(e) => {
                self.last_error = Some(e);
                self.fail(FailureMode::ApiError);
                return Step::Done;
            }
        };
        let attempt = match self.turns.last() {
            Some(t) if t.step == step && t.action.is_none() => {
                // GameVerse never re-asks a reply: another request of the step is the
                // memory agent's next module.
                if t.reply.is_some() && matches!(self.session, Conversation::GameVerse(_)) {
                    Attempt::First
                } else if t.reply.is_some() {
                    let rejected = self
                        .turns
                        .iter()
                        .filter(|t| t.step == step && t.reply.is_some())
                        .count();
                    Attempt::FormatRetry(rejected as u32)
                } else {
                    Attempt::TransportRetry(self.session.transport_retries())
                }
            }
            _ => Attempt::First,
        };
        self.turns.push(Turn {
            step,
            attempt,
            wait_before_ms: plan.wait_before_ms,
            request_bytes: request.body.len(),
            images: request.images,
            image_bytes: request.image_bytes,
            latency_ms: None,
            work_ms: std::mem::take(&mut self.work_before_ms),
            reply: None,
            action: None,
            problem: None,
            tokens: None,
        });
        Step::Send {
            request,
            wait_ms: plan.wait_before_ms,
        }
    }

    /// Adds the caller's measured work time to the last request (before the first,
    /// to the first).
    pub fn add_work(&mut self, ms: f64) {
        match self.turns.last_mut() {
            Some(t) => t.work_ms += ms,
            None => self.work_before_ms += ms,
        }
    }

    fn settle(&mut self, next: Next) {
        if let Next::Decide(reply) = next {
            match (&reply, self.turns.last_mut(), self.runner.as_ref()) {
                (Reply::Act { action, .. }, Some(t), Some(r)) => {
                    t.action = r.task().actions.get(*action).cloned();
                }
                (Reply::Text { text, .. }, Some(t), _) => t.action = Some(text.clone()),
                _ => {}
            }
            let raw = match &reply {
                Reply::Act { raw, .. } | Reply::Text { raw, .. } => raw.clone(),
                Reply::Fail { .. } => None,
            };
            let played = self.play(reply);
            if let Some(r) = &mut self.runner {
                match played {
                    Ok(()) => {}
                    // The environment could not take the action (VisGym: the
                    // reference raises on it): the model's action ended the episode.
                    Err(e @ crate::episode::EpisodeError::Env(_)) => {
                        self.last_error =
                            Some(ApiError::new(ErrorKind::BadResponse, e.to_string()));
                        r.fail(FailureMode::InvalidAction, raw.into_iter().collect());
                    }
                    Err(e) => {
                        self.last_error =
                            Some(ApiError::new(ErrorKind::BadResponse, e.to_string()));
                        r.fail(FailureMode::ApiError, Vec::new());
                    }
                }
                if r.is_done() {
                    self.finish();
                }
            }
        }
    }

    /// An HTTP answer to the last request.
    pub fn on_response(
        &mut self,
        status: u16,
        retry_after: Option<&str>,
        now_unix_s: u64,
        body: &str,
        latency_ms: f64,
        api_key: Option<&str>,
    ) {
        self.usage.count_request(latency_ms);
        let answer = self
            .endpoint
            .response(status, retry_after, now_unix_s, body);
        let next = match answer {
            Ok(a) => {
                if a.usage.is_some() {
                    self.usage.count_tokens(a.usage);
                    self.usage.cost_usd = self
                        .prices
                        .cost(self.usage.input_tokens, self.usage.output_tokens);
                }
                let next = self.session.on_reply(&a.text);
                if let Some(t) = self.turns.last_mut() {
                    t.latency_ms = Some(latency_ms);
                    t.tokens = a.usage;
                    t.reply = Some(a.text);
                    t.problem = self.session.last_parse_error();
                }
                next
            }
            Err(e) => self.on_error(e, latency_ms, api_key),
        };
        self.settle(next);
    }

    /// The request failed without an HTTP answer (network, CORS, timeout): `message`
    /// says which, for people.
    pub fn on_network_error(&mut self, message: &str, latency_ms: f64, api_key: Option<&str>) {
        self.usage.count_request(latency_ms);
        let next = self.on_error(
            ApiError::new(ErrorKind::Transport, message.to_string()),
            latency_ms,
            api_key,
        );
        self.settle(next);
    }

    fn on_error(&mut self, mut e: ApiError, latency_ms: f64, api_key: Option<&str>) -> Next {
        e.message = redact(&e.message, api_key);
        if let Some(t) = self.turns.last_mut() {
            t.latency_ms = Some(latency_ms);
            t.problem = Some(e.message.clone());
        }
        self.last_error = Some(e.clone());
        self.session.on_error(e)
    }
}

crate::exchange_by_inherent_methods!(ModelEpisode, add_work);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::endpoint::HttpRequest;
    use crate::protocol::providers::{Provider, Sampling};

    struct Fake;
    impl FrameEncoder for Fake {
        fn encode(&mut self, f: &Frame) -> Result<EncodedImage, String> {
            Ok(EncodedImage::from_bytes(
                "image/png",
                &vec![0; (f.width() * f.height()) as usize % 97 + 1],
            ))
        }
    }

    fn episode() -> ModelEpisode {
        let task = crate::suites::latest(crate::suites::DEFAULT_SUITE)
            .unwrap()
            .task("frozenlake-4x4-det-s0")
            .unwrap();
        let endpoint = Endpoint {
            provider: Provider::OpenAi,
            base_url: "http://x/v1".into(),
            sampling: Sampling {
                model: "m".into(),
                temperature: None,
                max_output_tokens: None,
            },
            headers: vec![],
        };
        let prices = Prices {
            input_per_million: Some(1.0),
            output_per_million: None,
        };
        ModelEpisode::new(task, endpoint, SessionConfig::default(), prices).unwrap()
    }

    /// An episode whose demonstration images go through `cache` under `key`.
    fn sharing(cache: DemoCache, key: &str) -> ModelEpisode {
        let mut e = episode();
        e.share_demo_images(cache, key.into());
        e
    }

    fn ok(text: &str) -> String {
        serde_json::json!({"choices": [{"message": {"content": text}}],
            "usage": {"prompt_tokens": 1000, "completion_tokens": 3}})
        .to_string()
    }

    fn send(e: &mut ModelEpisode) -> HttpRequest {
        match e.next(&mut Fake, Some("sk-k")) {
            Step::Send { request, .. } => request,
            Step::Done => panic!("episode over"),
        }
    }

    #[test]
    fn a_whole_episode_to_the_goal() {
        let mut e = episode();
        let first = send(&mut e);
        assert!(first.images > 1, "demo frames and the initial state");
        assert!(first
            .headers
            .contains(&("Authorization".into(), "Bearer sk-k".into())));
        for (i, a) in ["Right", "Right", "Down", "Down", "Down", "Right"]
            .iter()
            .enumerate()
        {
            if e.record().is_none() {
                let r = if i == 0 { first.clone() } else { send(&mut e) };
                assert!(r.body.contains("CURRENT"));
                e.on_response(
                    200,
                    None,
                    0,
                    &ok(&format!("[Action: {a}]\nbecause")),
                    12.0,
                    None,
                );
            }
        }
        assert!(matches!(e.next(&mut Fake, None), Step::Done));
        let rec = e.record().unwrap();
        assert!(rec.passed, "{rec:?}");
        assert_eq!(rec.decisions.len(), 6);
        // The episode over, its frame is the one its last decision drew.
        let last_hash = rec.decisions[5].frame_hash.clone();
        assert_eq!(format!("{:016x}", e.frame().hash()), last_hash);
        let rec = e.record().unwrap();
        assert_eq!(
            rec.decisions[0].raw.as_deref(),
            Some("[Action: Right]\nbecause")
        );
        assert_eq!(e.usage().requests, 6);
        assert_eq!(e.usage().input_tokens, 6000);
        assert_eq!(e.usage().cost_usd, Some(0.006));
        assert_eq!(e.turns()[5].action.as_deref(), Some("Right"));
        assert_eq!(e.turns()[5].latency_ms, Some(12.0));
        // Later requests only encode the new frame.
        assert_eq!(e.turns()[1].images, e.turns()[0].images + 1);
    }

    #[test]
    fn retries_are_logged_and_errors_redacted() {
        let mut e = episode();
        send(&mut e);
        e.on_response(200, None, 0, &ok("I would go down"), 5.0, None);
        assert!(e.turns()[0].problem.as_deref().unwrap().contains("[Action"));
        send(&mut e);
        assert_eq!(e.turns()[1].attempt, Attempt::FormatRetry(1));
        e.on_response(
            429,
            Some("2"),
            0,
            r#"{"error":{"message":"slow down sk-k"}}"#,
            5.0,
            Some("sk-k"),
        );
        let Step::Send { wait_ms, .. } = e.next(&mut Fake, None) else {
            panic!()
        };
        assert_eq!(wait_ms, 2000);
        assert_eq!(e.turns()[2].attempt, Attempt::TransportRetry(1));
        assert!(e.turns()[1].problem.as_deref().unwrap().contains("***"));
        assert!(!e.turns()[1].problem.as_deref().unwrap().contains("sk-k"));
        e.on_network_error("the endpoint did not answer within 1 s", 1000.0, None);
        send(&mut e);
        e.on_response(200, None, 0, &ok("[Action: Down]"), 5.0, None);
        assert_eq!(e.step(), 1);
        assert_eq!(e.record(), None);
    }

    #[test]
    fn overflow_ends_the_episode_as_token_overflow() {
        let mut e = episode();
        send(&mut e);
        let body =
            r#"{"error":{"message":"maximum context length","code":"context_length_exceeded"}}"#;
        e.on_response(400, None, 0, body, 5.0, None);
        assert!(matches!(e.next(&mut Fake, None), Step::Done));
        assert_eq!(
            e.record().unwrap().failure,
            Some(FailureMode::TokenOverflow)
        );
    }

    /// Counts encodings.
    struct Counting(usize);
    impl FrameEncoder for Counting {
        fn encode(&mut self, f: &Frame) -> Result<EncodedImage, String> {
            self.0 += 1;
            Fake.encode(f)
        }
    }

    #[test]
    fn episodes_of_a_task_share_their_demonstration_images() {
        let cache = DemoCache::default();
        let mut first = Counting(0);
        let mut a = sharing(cache.clone(), "png");
        let Step::Send { request: ra, .. } = a.next(&mut first, None) else {
            panic!()
        };
        let mut second = Counting(0);
        let mut b = sharing(cache.clone(), "png");
        let Step::Send { request: rb, .. } = b.next(&mut second, None) else {
            panic!()
        };
        assert_eq!(ra.body, rb.body);
        assert_eq!(second.0, 1, "only the current frame is encoded again");
        assert_eq!(first.0, ra.images);
        // Other image settings do not share.
        let mut third = Counting(0);
        let mut c = sharing(cache, "jpeg");
        c.next(&mut third, None);
        assert_eq!(third.0, ra.images);
    }

    #[test]
    fn demonstration_frames_can_be_encoded_one_at_a_time_before_the_first_request() {
        let mut whole = Counting(0);
        let mut a = episode();
        let Step::Send { request: ra, .. } = a.next(&mut whole, None) else {
            panic!()
        };
        let mut slices = Counting(0);
        let mut b = episode();
        assert_eq!(
            b.demo_frames_drawn(),
            0,
            "nothing drawn before it is needed"
        );
        let total = crate::demo::demo_frame_count(b.runner().unwrap().task()).unwrap();
        assert!(total > 1, "the task has demonstration frames");
        b.add_work(1.0);
        // First the frames are counted, a decision per call, drawing nothing.
        let decisions: usize = b
            .runner()
            .unwrap()
            .task()
            .demos
            .iter()
            .map(|c| c.actions.len())
            .sum();
        let mut counting = 0;
        // The call after the last count draws the first frame.
        while let Some((0, 0)) = b.prepare_first_request(&mut slices).unwrap() {
            assert_eq!((b.demo_frames_drawn(), slices.0), (0, 0));
            counting += 1;
        }
        assert!(
            (1..=decisions).contains(&counting),
            "{counting} of {decisions}"
        );
        for done in 1..=total {
            // A call draws the frame, the next encodes it.
            if done > 1 {
                assert_eq!(
                    b.prepare_first_request(&mut slices).unwrap(),
                    Some((done - 1, total))
                );
            }
            assert_eq!((b.demo_frames_drawn(), slices.0), (done, done - 1));
            assert_eq!(
                b.prepare_first_request(&mut slices).unwrap(),
                Some((done, total))
            );
            assert_eq!((b.demo_frames_drawn(), slices.0), (done, done));
        }
        // Then the current frame: drawn, then encoded.
        for encoded in [total, total + 1] {
            assert_eq!(
                b.prepare_first_request(&mut slices).unwrap(),
                Some((total, total))
            );
            assert_eq!(slices.0, encoded);
        }
        assert_eq!(b.prepare_first_request(&mut slices).unwrap(), None);
        b.add_work(0.5);
        let Step::Send { request: rb, .. } = b.next(&mut slices, None) else {
            panic!()
        };
        assert_eq!(ra.body, rb.body, "the same request");
        assert_eq!(slices.0, whole.0, "no frame encoded twice");
        assert_eq!(
            b.turns()[0].work_ms,
            1.5,
            "work before the request counts in it"
        );
        // After the first request there is nothing to prepare.
        b.on_response(200, None, 0, &ok("[Action: Right]"), 1.0, None);
        assert_eq!(b.prepare_first_request(&mut slices).unwrap(), None);
    }

    #[test]
    fn every_protocol_draws_and_encodes_its_first_frame_ahead_with_its_own_encoder() {
        for (suite, protocol) in [
            ("visgym", Protocol::Visgym),
            ("gameverse", Protocol::Gameverse),
        ] {
            let task = &crate::suites::latest(suite).unwrap().tasks[0];
            let config = SessionConfig {
                protocol,
                ..SessionConfig::default()
            };
            let start = || {
                ModelEpisode::new(task, episode().endpoint.clone(), config, Prices::default())
                    .unwrap()
            };
            let mut caller = Counting(0);
            let mut a = start();
            let Step::Send { request: ra, .. } = a.next(&mut caller, None) else {
                panic!("{suite}")
            };
            let mut b = start();
            let mut pieces = 0;
            while b.prepare_first_request(&mut caller).unwrap().is_some() {
                pieces += 1;
            }
            assert_eq!(pieces, 2, "{suite}: drawn, then encoded");
            let Step::Send { request: rb, .. } = b.next(&mut caller, None) else {
                panic!("{suite}")
            };
            assert_eq!(ra.body, rb.body, "{suite}: the same request");
            assert_eq!(
                caller.0, 0,
                "{suite}: the protocol's encoder, not the caller's"
            );
        }
    }

    #[test]
    fn frames_another_episode_encoded_are_taken_without_a_slice() {
        let cache = DemoCache::default();
        let mut first = Counting(0);
        let mut a = sharing(cache.clone(), "png");
        while a.prepare_first_request(&mut first).unwrap().is_some() {}
        assert!(first.0 > 1);
        let mut second = Counting(0);
        let mut b = sharing(cache, "png");
        // Counted (a decision per call), then only the current frame is drawn and
        // encoded.
        let mut pieces = Vec::new();
        while let Some(piece) = b.prepare_first_request(&mut second).unwrap() {
            pieces.push(piece);
        }
        let total = pieces.last().unwrap().0;
        assert!(total > 1);
        assert!(pieces[..pieces.len() - 2].iter().all(|&p| p == (0, 0)));
        assert_eq!(pieces[pieces.len() - 2..], [(total, total); 2]);
        assert_eq!(second.0, 1, "only the current frame is encoded");
        assert!(matches!(b.next(&mut second, None), Step::Send { .. }));
        assert_eq!(second.0, 1, "the request encodes nothing more");
        assert_eq!(b.demo_frames_drawn(), 0, "no demonstration frame drawn");
        // Drawn when asked, as the first episode drew them.
        assert_eq!(b.demos().unwrap(), a.demos().unwrap());
    }

    #[test]
    fn video_demonstrations_are_provided_once_per_task() {
        let task = crate::suites::latest(crate::suites::DEFAULT_SUITE)
            .unwrap()
            .task("frozenlake-4x4-det-s0")
            .unwrap();
        let config = SessionConfig {
            demo_mode: DemoMode::Video,
            ..SessionConfig::default()
        };
        let gemini = Endpoint {
            provider: crate::protocol::providers::Provider::Gemini,
            base_url: "http://x/v1beta".into(),
            sampling: Sampling {
                model: "g".into(),
                temperature: None,
                max_output_tokens: None,
            },
            headers: vec![],
        };
        let cache = DemoCache::default();
        let mut a = ModelEpisode::new(task, gemini.clone(), config, Prices::default()).unwrap();
        a.share_demo_images(cache.clone(), "png".into());
        let clips = a.videos_needed();
        assert_eq!(clips, (0..task.demos.len()).collect::<Vec<_>>());
        for c in clips {
            a.provide_video(c, EncodedImage::from_bytes("video/webm", b"webm"));
        }
        let Step::Send { request, .. } = a.next(&mut Fake, None) else {
            panic!()
        };
        assert_eq!(
            request.images,
            task.demos.len() + 1,
            "one video per clip and the frame"
        );
        assert!(request.body.contains("video/webm"));
        let mut b = ModelEpisode::new(task, gemini, config, Prices::default()).unwrap();
        b.share_demo_images(cache, "png".into());
        assert!(
            b.videos_needed().is_empty(),
            "the videos come from the cache"
        );
        // Without the videos the episode cannot start.
        let mut c =
            ModelEpisode::new(task, episode().endpoint.clone(), config, Prices::default()).unwrap();
        c.abort("no recorder");
        assert!(matches!(c.next(&mut Fake, None), Step::Done));
        assert_eq!(c.record().unwrap().failure, Some(FailureMode::ApiError));
    }

    #[test]
    fn demonstrations_are_encoded_as_webm_in_rust() {
        let task = crate::suites::latest(crate::suites::DEFAULT_SUITE)
            .unwrap()
            .task("frozenlake-4x4-det-s0")
            .unwrap();
        let config = SessionConfig {
            demo_mode: DemoMode::Video,
            ..SessionConfig::default()
        };
        let mut gemini = episode().endpoint.clone();
        gemini.provider = crate::protocol::providers::Provider::Gemini;
        let mut a = ModelEpisode::new(task, gemini, config, Prices::default()).unwrap();
        a.encode_videos(2).unwrap();
        assert!(a.videos_needed().is_empty());
        let Step::Send { request, .. } = a.next(&mut Fake, None) else {
            panic!()
        };
        let body: serde_json::Value = serde_json::from_str(&request.body).unwrap();
        let videos: Vec<&str> = body["contents"][0]["parts"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["inline_data"]["mime_type"] == "video/webm")
            .map(|p| p["inline_data"]["data"].as_str().unwrap())
            .collect();
        assert_eq!(videos.len(), task.demos.len());
        for (clip, data) in videos.iter().enumerate() {
            crate::video::tests::assert_video_of(data, &a.demos().unwrap()[clip], 2.0);
        }
    }
}
