//! A reflect-and-retry run as a plain state machine (`docs/gameverse.md`, "Reflect and
//! retry"), the same for the browser and the command line, like
//! `crate::model_episode`: ask it for the next request, send it, hand back the answer.
//! It plays attempts at one task with the model; after a failed attempt the same model
//! reads the attempt's step video (stage 1, failure analysis) and then the expert
//! tutorial with that analysis in context (stage 2, experience), as the condition says;
//! the experience fills the experience slot of the next attempt's system prompt.
//! Everything lands in a run of attempts (`crate::attempts`), whose link re-simulates
//! and re-checks what each attempt carried in. No IO, no clock.

use std::collections::HashMap;

use envs::Frame;

use super::experience::{Condition, STAGE_EXPERIENCE, STAGE_FAILURE, STAGE_IMPORTED};
use super::prompts::{
    failure_messages, failure_user, tutorial_messages, tutorial_user, Media, MAX_EXPERIENCE_WORDS,
    NO_FAILURE_ANALYSIS,
};
use crate::attempts::{Attempt, AttemptRun, ReflectionTurn};
use crate::demo::play_clip;
use crate::model_episode::{FrameEncoder, ModelEpisode, Step};
use crate::protocol::endpoint::{Endpoint, Prices};
use crate::protocol::prompt::{ImageRef, Message};
use crate::protocol::providers::{ApiError, EncodedImage, ErrorKind, Provider};
use crate::protocol::session::{Protocol, SessionConfig};
use crate::protocol::transport::{Outcome, Transport};
use crate::results::Usage;
use crate::share::TaskRef;
use crate::step_video::{
    fit_to_budget, halve, sample_every, step_frames, step_video_webm, STEP_VIDEO_FPS,
};
use crate::video::{webm_video, VideoSent};
use crate::Task;

/// The tutorial clip's rate: one expert step per 2 s, so that the reference's sampling
/// of one frame per 2 s shows every step (`docs/gameverse.md`, "Reflect and retry").
pub const TUTORIAL_FPS: f64 = 0.5;
/// The rate the reference samples a tutorial at for image-only endpoints.
const TUTORIAL_SAMPLE_FPS: f64 = 0.5;

/// Times a request is sent with fewer frames after the endpoint said it was too long.
const MAX_SHRINKS: u32 = 8;

/// The settings of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct ReflectConfig {
    pub condition: Condition,
    /// Attempts in all (at least one).
    pub attempts: u32,
    /// The experience's word limit.
    pub max_words: usize,
    /// Images one reflection request may carry; `None`: the provider's limit.
    pub image_budget: Option<usize>,
    /// The condition `other`: the experience to give every attempt after a failure,
    /// and where it came from.
    pub imported: Option<(String, String)>,
}

impl Default for ReflectConfig {
    fn default() -> Self {
        Self {
            condition: Condition::Both,
            attempts: 3,
            max_words: MAX_EXPERIENCE_WORDS,
            image_budget: None,
            imported: None,
        }
    }
}

/// Images per request the provider's API takes (Anthropic's Messages API: 100);
/// `None` where no limit is documented.
pub fn provider_image_limit(provider: Provider) -> Option<usize> {
    match provider {
        Provider::Anthropic => Some(100),
        Provider::OpenAi | Provider::Gemini => None,
    }
}

/// What the run is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Playing attempt `attempt` (1-based).
    Playing {
        attempt: usize,
    },
    /// Reflecting on attempt `attempt`: `stage` is `failure_analysis` or `experience`.
    Reflecting {
        attempt: usize,
        stage: &'static str,
    },
    Done,
}

/// One reflection request in flight.
struct Pending {
    stage: &'static str,
    /// The frames sent as images, by number in their video.
    frames: Vec<usize>,
    /// The video sent instead (endpoints that take video).
    video: Option<VideoSent>,
    media: String,
    /// The user message's texts (without the frames' lead and markers).
    prompt: String,
    messages: Vec<Message>,
    shrinks: u32,
}

/// A reflection request carrying one video of `frames` frames at `fps` (`what` names
/// it for people), for endpoints that take video.
fn video_request(
    stage: &'static str,
    messages: Vec<Message>,
    prompt: String,
    (frames, fps): (usize, f64),
    what: &str,
) -> Pending {
    Pending {
        stage,
        messages,
        prompt,
        frames: Vec::new(),
        video: Some(VideoSent::webm(frames, fps)),
        media: format!("{what} as one WebM video of its {frames} frames at {fps} fps"),
        shrinks: 0,
    }
}

/// The reflection on one failed attempt.
struct Reflection {
    /// The failed attempt's step video.
    failure: Vec<Frame>,
    /// Stages still to ask, in order.
    stages: Vec<&'static str>,
    turns: Vec<ReflectionTurn>,
    pending: Option<Pending>,
    images: HashMap<ImageRef, EncodedImage>,
}

enum State {
    Playing(Box<ModelEpisode>),
    Reflecting(Box<Reflection>),
    Done,
}

pub struct ReflectRun {
    task: Task,
    session: SessionConfig,
    prices: Prices,
    config: ReflectConfig,
    game_name: String,
    /// The expert tutorial's frames (the task's first demonstration, uncaptioned).
    tutorial: Vec<Frame>,
    /// The tutorial as a video, encoded once (endpoints that take video).
    tutorial_video: Option<EncodedImage>,
    run: AttemptRun,
    state: State,
    /// The reflection requests (usage, retries, the last error of a reflection).
    transport: Transport,
    /// Usage of the attempts played.
    played: Usage,
    last_error: Option<ApiError>,
}

/// The expert tutorial: the frames of the task's first demonstration, one per step,
/// without captions (GameVerse's tutorials are plain gameplay).
pub fn tutorial_frames(task: &Task) -> Result<Vec<Frame>, String> {
    let clip = task
        .demos
        .first()
        .ok_or_else(|| format!("task {:?} has no expert demonstration", task.id))?;
    let mut play = play_clip(task, clip).map_err(|e| e.to_string())?;
    // The clip repeats its last frame to show the outcome label; a video does not.
    play.frames.pop();
    Ok(play.frames)
}

/// The game's name in the reflection prompts: GameVerse's internal name, from the
/// environment's agent prompts (an environment without them has no reflection).
pub fn game_name(task: &Task) -> Result<String, String> {
    let env = task.make_env().map_err(|e| e.to_string())?;
    env.agent_prompts()
        .map(|p| p.game_name.to_string())
        .ok_or_else(|| {
            format!(
                "{} is not a GameVerse game: it has no reflection prompts",
                task.env
            )
        })
}

impl ReflectRun {
    /// A run of `task` with `endpoint`; `game_name` is the game's name in the
    /// reflection prompts (see [`game_name`]).
    pub fn new(
        task: &Task,
        task_ref: TaskRef,
        endpoint: Endpoint,
        session: SessionConfig,
        prices: Prices,
        config: ReflectConfig,
        game_name: &str,
    ) -> Result<Self, String> {
        if config.attempts == 0 {
            return Err("a run has at least one attempt".into());
        }
        if config.condition == Condition::Other && config.imported.is_none() {
            return Err("the condition \"other\" needs an experience to import".into());
        }
        let tutorial = if config.condition.watches_tutorial() {
            tutorial_frames(task)?
        } else {
            Vec::new()
        };
        // Reflect and retry is GameVerse's method: its attempts play GameVerse's
        // harness, whose system prompt has the experience slot.
        let session = SessionConfig {
            protocol: Protocol::Gameverse,
            ..session
        };
        let agent = crate::model_episode::agent_name(&endpoint);
        let mut run = AttemptRun::new(task_ref, &agent, Some(config.condition.name()));
        run.experience_limit = Some(config.max_words);
        let mut me = Self {
            task: task.clone(),
            session,
            prices,
            config,
            game_name: game_name.to_string(),
            tutorial,
            tutorial_video: None,
            run,
            state: State::Done,
            transport: Transport::new(endpoint),
            played: Usage::default(),
            last_error: None,
        };
        me.state = State::Playing(Box::new(me.start_attempt()?));
        Ok(me)
    }

    fn start_attempt(&self) -> Result<ModelEpisode, String> {
        let mut episode = ModelEpisode::new(
            &self.task,
            self.transport.endpoint().clone(),
            self.session,
            self.prices,
        )?;
        let carry = self.run.carry();
        episode.set_experience((!carry.is_empty()).then_some(carry))?;
        Ok(episode)
    }

    /// The run so far (every finished attempt and reflection).
    pub fn run(&self) -> &AttemptRun {
        &self.run
    }

    /// The attempt being played, for the live view.
    pub fn episode(&self) -> Option<&ModelEpisode> {
        match &self.state {
            State::Playing(e) => Some(e),
            _ => None,
        }
    }

    /// Free-form settings to record with the run (provider, model, …; secrets are
    /// stripped when it is written).
    pub fn set_settings(&mut self, settings: serde_json::Map<String, serde_json::Value>) {
        self.run.settings = Some(settings);
    }

    /// The turns of the reflection under way (its replies as they arrive), for the
    /// live view; empty while an attempt is played.
    pub fn reflection_so_far(&self) -> &[ReflectionTurn] {
        match &self.state {
            State::Reflecting(r) => &r.turns,
            _ => &[],
        }
    }

    pub fn phase(&self) -> Phase {
        let attempt = self.run.attempts.len();
        match &self.state {
            State::Playing(_) => Phase::Playing {
                attempt: attempt + 1,
            },
            State::Reflecting(r) => Phase::Reflecting {
                attempt,
                stage: r
                    .pending
                    .as_ref()
                    .map(|p| p.stage)
                    .or_else(|| r.stages.first().copied())
                    .unwrap_or(STAGE_EXPERIENCE),
            },
            State::Done => Phase::Done,
        }
    }

    /// Requests of the attempts (the one playing included) and of the reflections.
    pub fn usage(&self) -> Usage {
        let mut reflections = self.transport.usage().clone();
        reflections.cost_usd = self
            .prices
            .cost(reflections.input_tokens, reflections.output_tokens);
        let mut u = self.played.clone();
        u.add(&reflections);
        if let State::Playing(e) = &self.state {
            u.add(e.usage());
        }
        u
    }

    pub fn last_error(&self) -> Option<&ApiError> {
        match &self.state {
            State::Playing(e) => e.last_error().or(self.last_error.as_ref()),
            _ => self.last_error.as_ref().or(self.transport.last_error()),
        }
    }

    /// The next request, or `Done` when every attempt is played.
    pub fn next(&mut self, enc: &mut dyn FrameEncoder, api_key: Option<&str>) -> Step {
        loop {
            match &mut self.state {
                State::Done => return Step::Done,
                State::Playing(episode) => match episode.next(enc, api_key) {
                    step @ Step::Send { .. } => return step,
                    Step::Done => self.finish_attempt(),
                },
                State::Reflecting(_) => match self.reflection_request(enc, api_key) {
                    Some(step) => return step,
                    None => self.finish_reflection(),
                },
            }
        }
    }

    /// Moves on as soon as the attempt being played has ended (so [`Self::phase`] says
    /// what comes next).
    fn settle_attempt(&mut self) {
        if let State::Playing(e) = &self.state {
            if e.record().is_some() {
                self.finish_attempt();
            }
        }
    }

    /// The attempt just played is over: record it, then reflect or play on.
    fn finish_attempt(&mut self) {
        let State::Playing(episode) = std::mem::replace(&mut self.state, State::Done) else {
            return;
        };
        self.played.add(episode.usage());
        let Some(record) = episode.record().cloned() else {
            return;
        };
        if let Some(e) = episode.last_error() {
            self.last_error = Some(e.clone());
        }
        let passed = record.passed;
        let carried_in = self.run.carry();
        self.run.attempts.push(Attempt {
            carried_in,
            record,
            reflection: Vec::new(),
        });
        if self.run.attempts.len() >= self.config.attempts as usize {
            return;
        }
        if passed || self.config.condition == Condition::None {
            self.play_next();
            return;
        }
        if let Some((text, source)) = &self.config.imported {
            let turn = ReflectionTurn {
                stage: STAGE_IMPORTED.into(),
                prompt: format!("experience imported from {source}"),
                reply: text.clone(),
                ..ReflectionTurn::default()
            };
            if let Some(a) = self.run.attempts.last_mut() {
                a.reflection.push(turn);
            }
            self.play_next();
            return;
        }
        let failure = match self
            .run
            .attempts
            .last()
            .map(|a| step_frames(&self.task, &a.record))
        {
            Some(Ok(f)) => f,
            Some(Err(e)) => {
                self.last_error = Some(ApiError::new(ErrorKind::BadResponse, e));
                return;
            }
            None => return,
        };
        let mut stages = Vec::new();
        if self.config.condition.analyses_failure() {
            stages.push(STAGE_FAILURE);
        }
        if self.config.condition.watches_tutorial() {
            stages.push(STAGE_EXPERIENCE);
        }
        self.state = State::Reflecting(Box::new(Reflection {
            failure,
            stages,
            turns: Vec::new(),
            pending: None,
            images: HashMap::new(),
        }));
    }

    fn play_next(&mut self) {
        match self.start_attempt() {
            Ok(e) => self.state = State::Playing(Box::new(e)),
            Err(e) => {
                self.last_error = Some(ApiError::new(ErrorKind::BadResponse, e));
                self.state = State::Done;
            }
        }
    }

    /// The reflection's turns go to its attempt; the next attempt starts.
    fn finish_reflection(&mut self) {
        let State::Reflecting(r) = std::mem::replace(&mut self.state, State::Done) else {
            return;
        };
        if let Some(a) = self.run.attempts.last_mut() {
            a.reflection = r.turns;
        }
        self.play_next();
    }

    /// The request of `stage` with at most `budget` images, or with exactly the frames
    /// `only` when given.
    fn stage_request(
        &self,
        r: &Reflection,
        stage: &'static str,
        budget: usize,
        only: Option<Vec<usize>>,
    ) -> Pending {
        let video = self.transport.endpoint().provider.takes_video();
        if stage == STAGE_FAILURE && video {
            return video_request(
                stage,
                failure_messages(&self.game_name, Media::Video(ImageRef::StepVideo)),
                failure_user(&self.game_name),
                (r.failure.len(), f64::from(STEP_VIDEO_FPS)),
                "the failed attempt's step video",
            );
        }
        if stage == STAGE_FAILURE {
            let frames =
                only.unwrap_or_else(|| fit_to_budget((0..r.failure.len()).collect(), budget));
            let media = format!(
                "the failed attempt's step video ({STEP_VIDEO_FPS} fps) as {} of its {} frames, in step order",
                frames.len(),
                r.failure.len()
            );
            let refs = frames
                .iter()
                .map(|&i| ImageRef::Current { step: i as u32 + 1 })
                .collect();
            Pending {
                stage,
                messages: failure_messages(&self.game_name, Media::Frames(refs)),
                prompt: failure_user(&self.game_name),
                frames,
                video: None,
                media,
                shrinks: 0,
            }
        } else {
            let analysis = r
                .turns
                .iter()
                .find(|t| t.stage == STAGE_FAILURE)
                .map(|t| envs::gameverse::py_str::strip(&t.reply).to_string())
                .unwrap_or_else(|| NO_FAILURE_ANALYSIS.to_string());
            if video {
                return video_request(
                    stage,
                    tutorial_messages(
                        &self.game_name,
                        &analysis,
                        self.config.max_words,
                        Media::Video(ImageRef::DemoVideo { clip: 0 }),
                    ),
                    tutorial_user(&self.game_name, &analysis).concat(),
                    (self.tutorial.len(), TUTORIAL_FPS),
                    "the synthetic expert tutorial (the task's oracle demonstration)",
                );
            }
            let sampled = sample_every(self.tutorial.len(), TUTORIAL_FPS, TUTORIAL_SAMPLE_FPS);
            let frames = only.unwrap_or_else(|| fit_to_budget(sampled, budget));
            let media = format!(
                "the synthetic expert tutorial (the task's oracle demonstration, one step per 2 s) as {} of its {} frames",
                frames.len(),
                self.tutorial.len()
            );
            let refs = frames
                .iter()
                .map(|&i| ImageRef::DemoFrame { clip: 0, frame: i })
                .collect();
            Pending {
                stage,
                messages: tutorial_messages(
                    &self.game_name,
                    &analysis,
                    self.config.max_words,
                    Media::Frames(refs),
                ),
                prompt: tutorial_user(&self.game_name, &analysis).concat(),
                frames,
                video: None,
                media,
                shrinks: 0,
            }
        }
    }

    fn budget(&self) -> usize {
        self.config
            .image_budget
            .or_else(|| provider_image_limit(self.transport.endpoint().provider))
            .unwrap_or(usize::MAX)
    }

    /// The current reflection request, or `None` when the reflection is complete.
    fn reflection_request(
        &mut self,
        enc: &mut dyn FrameEncoder,
        api_key: Option<&str>,
    ) -> Option<Step> {
        let State::Reflecting(mut r) = std::mem::replace(&mut self.state, State::Done) else {
            return None;
        };
        if r.pending.is_none() {
            let Some(&stage) = r.stages.first() else {
                self.state = State::Reflecting(r);
                return None;
            };
            r.stages.remove(0);
            r.pending = Some(self.stage_request(&r, stage, self.budget(), None));
            self.transport.begin();
        }
        match self.build(&mut r, enc, api_key) {
            Ok(step) => {
                self.state = State::Reflecting(r);
                Some(step)
            }
            Err(e) => {
                self.state = State::Reflecting(r);
                self.abandon(e);
                Some(Step::Done)
            }
        }
    }

    fn build(
        &mut self,
        r: &mut Reflection,
        enc: &mut dyn FrameEncoder,
        api_key: Option<&str>,
    ) -> Result<Step, ApiError> {
        let Some(p) = r.pending.as_ref() else {
            return Ok(Step::Done);
        };
        // Videos are encoded before the request (frames are encoded as it is built).
        let encode = |e: String| ApiError::new(ErrorKind::BadResponse, e);
        for image in p.messages.iter().flat_map(Message::images) {
            if r.images.contains_key(image) {
                continue;
            }
            let video = match image {
                ImageRef::StepVideo => step_video_webm(&r.failure),
                ImageRef::DemoVideo { .. } => match &self.tutorial_video {
                    Some(v) => Ok(v.clone()),
                    None => webm_video(&self.tutorial, TUTORIAL_FPS),
                },
                _ => continue,
            }
            .map_err(encode)?;
            if matches!(image, ImageRef::DemoVideo { .. }) {
                self.tutorial_video = Some(video.clone());
            }
            r.images.insert(*image, video);
        }
        let (failure, tutorial) = (&r.failure, &self.tutorial);
        let frame = |image: &ImageRef| match *image {
            ImageRef::Current { step } => failure.get((step as usize).wrapping_sub(1)),
            ImageRef::DemoFrame { frame, .. } => tutorial.get(frame),
            _ => None,
        };
        let request = self
            .transport
            .request(&p.messages, &mut r.images, frame, enc, api_key)?;
        Ok(Step::Send {
            wait_ms: self.transport.wait_ms(),
            request,
        })
    }

    /// A reflection that cannot go on ends the run: what was played is kept.
    fn abandon(&mut self, e: ApiError) {
        if let State::Reflecting(r) = std::mem::replace(&mut self.state, State::Done) {
            if let Some(a) = self.run.attempts.last_mut() {
                a.reflection = r.turns;
            }
        }
        self.last_error = Some(e);
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
        if let State::Playing(e) = &mut self.state {
            e.on_response(status, retry_after, now_unix_s, body, latency_ms, api_key);
            self.settle_attempt();
            return;
        }
        let outcome =
            self.transport
                .on_response(status, retry_after, now_unix_s, body, latency_ms, api_key);
        self.on_outcome(outcome);
    }

    /// The last request failed without an HTTP answer (network, CORS, timeout).
    pub fn on_network_error(&mut self, message: &str, latency_ms: f64, api_key: Option<&str>) {
        if let State::Playing(e) = &mut self.state {
            e.on_network_error(message, latency_ms, api_key);
            self.settle_attempt();
            return;
        }
        let outcome = self
            .transport
            .on_network_error(message, latency_ms, api_key);
        self.on_outcome(outcome);
    }

    fn on_outcome(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Reply(text) => self.on_reply(text),
            Outcome::Retry => {}
            Outcome::Failed(_) => self.on_failure(),
        }
    }

    /// A reflection request that failed for good.
    fn on_failure(&mut self) {
        let Some(e) = self.transport.last_error().cloned() else {
            return;
        };
        let budget = self.budget();
        let State::Reflecting(mut r) = std::mem::replace(&mut self.state, State::Done) else {
            return;
        };
        // Too long for the endpoint: the sampling rate halves until it fits.
        if let Some(p) = r.pending.as_ref() {
            if e.kind == ErrorKind::ContextOverflow && p.frames.len() > 2 && p.shrinks < MAX_SHRINKS
            {
                let (stage, shrinks) = (p.stage, p.shrinks + 1);
                let fewer = halve(&p.frames);
                let mut next = self.stage_request(&r, stage, budget, Some(fewer));
                next.shrinks = shrinks;
                r.pending = Some(next);
                self.state = State::Reflecting(r);
                return;
            }
        }
        // The reference has no reflection then: the run ends with what it has.
        self.state = State::Reflecting(r);
        self.abandon(e);
    }

    /// A reply to the current reflection request.
    fn on_reply(&mut self, text: String) {
        let State::Reflecting(r) = &mut self.state else {
            return;
        };
        let Some(p) = r.pending.take() else {
            return;
        };
        let system = p.messages.first().map(Message::to_text).unwrap_or_default();
        let empty = envs::gameverse::py_str::strip(&text).is_empty();
        r.turns.push(ReflectionTurn {
            stage: p.stage.to_string(),
            system,
            prompt: p.prompt,
            media: vec![p.media],
            frames: p.frames,
            video: p.video,
            reply: text,
        });
        if empty {
            // The reference stops on an empty analysis: no experience this time.
            r.stages.clear();
        }
        if r.stages.is_empty() {
            self.finish_reflection();
        }
    }
}

crate::exchange_by_inherent_methods!(ReflectRun);
