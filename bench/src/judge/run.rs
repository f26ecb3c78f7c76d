//! A judging of episodes as a plain state machine (`docs/judge.md`), the same for the
//! browser and the command line, like the auditor's (`crate::audit::run`): ask it for
//! the next request, send it, hand back the answer. Per episode: the game's milestone
//! list (from the environment), the exact answers (the record replayed), the step
//! video (one WebM for endpoints that take video, else images halved to the image
//! budget), one request; an unparsable reply is asked once
//! more, then the episode is scored 0 and flagged. Transport failures are retried with
//! the model runs' backoff. No IO, no clock.

use std::collections::HashMap;

use envs::Frame;

use super::exact::exact_completion;
use super::file::{JudgeFile, JudgedEpisode, MilestoneCheck, JUDGE_FORMAT};
use super::milestones::{parse_milestone_file, MilestoneList};
use super::prompts;
use super::verdict::parse_verdict;
use crate::encode::FrameEncoder;
use crate::model_episode::agent_name;
use crate::protocol::endpoint::Endpoint;
use crate::protocol::prompt::{ImageRef, Message, Part, Role};
use crate::protocol::providers::{ApiError, EncodedImage};
use crate::protocol::retry::MAX_TRANSPORT_RETRIES;
use crate::protocol::transport::{Outcome, Transport};
use crate::results::{ResultsFile, Usage};
use crate::share::{resolve_task, EpisodeFile};
use crate::step_video::{
    fit_to_budget, step_frames, step_video_webm, with_markers, STEP_VIDEO_FPS,
};
use crate::video::VideoSent;
use crate::{EpisodeRecord, Task};

/// Replies asked for per episode: the first and one more after an unparsable one.
pub const MAX_REPLIES: usize = 2;
/// A `(Displayed k frames)` marker follows every this many frames (GameVerse's
/// image-only failure video).
pub const MARKER_EVERY: usize = 10;
/// The images one request may carry unless the user says otherwise (Anthropic's limit
/// per request; ours).
pub const DEFAULT_MAX_IMAGES: usize = 100;

/// What to do next (`Done`: every episode is judged, flagged or failed, and
/// [`JudgeRun::file`] has them).
pub use crate::exchange::Step as JudgeStep;

/// One episode to judge.
#[derive(Clone, Debug)]
pub struct JudgeItem {
    pub task: Task,
    pub record: EpisodeRecord,
    pub repeat: u32,
    /// The episode in the replay viewer, when it fits a link.
    pub link: Option<String>,
}

/// The episodes to judge and where they come from.
#[derive(Clone, Debug)]
pub struct JudgeSource {
    pub label: String,
    pub agent: String,
    pub suite: String,
    pub suite_version: u32,
    pub items: Vec<JudgeItem>,
}

impl JudgeSource {
    /// Every episode of a results file (any kind: model, baseline or people).
    pub fn from_results(results: &ResultsFile) -> Result<Self, String> {
        let suite =
            crate::suites::get(&results.suite, results.suite_version).map_err(|e| e.to_string())?;
        let items = results
            .episodes
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let task = suite.task(&e.record.task).ok_or_else(|| {
                    format!(
                        "episode {}: no task {:?} in the suite",
                        i + 1,
                        e.record.task
                    )
                })?;
                let link = results
                    .episode_file(i)
                    .and_then(|f| f.to_link_fragment().ok())
                    .map(|fragment| format!("/episode#{fragment}"));
                Ok(JudgeItem {
                    task: task.clone(),
                    record: e.record.clone(),
                    repeat: e.repeat,
                    link,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Self {
            label: results.label.clone(),
            agent: results.agent.clone(),
            suite: results.suite.clone(),
            suite_version: results.suite_version,
            items,
        })
    }

    /// Episode files (or links, read into files), in the order given.
    pub fn from_episode_files(files: &[EpisodeFile]) -> Result<Self, String> {
        let items = files
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let task = resolve_task(&f.task).map_err(|e| format!("episode {}: {e}", i + 1))?;
                Ok(JudgeItem {
                    task,
                    record: f.record.clone(),
                    repeat: 0,
                    link: f.to_link_fragment().ok().map(|l| format!("/episode#{l}")),
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let mut agents: Vec<&str> = files.iter().map(|f| f.agent.as_str()).collect();
        agents.dedup();
        Ok(Self {
            label: "episode files".into(),
            agent: agents.join(", "),
            suite: String::new(),
            suite_version: 0,
            items,
        })
    }

    fn fingerprint(&self) -> String {
        let records: Vec<&EpisodeRecord> = self.items.iter().map(|i| &i.record).collect();
        let json = serde_json::to_string(&records).unwrap_or_default();
        format!("{:08x}", crate::share::crc32(json.as_bytes()))
    }
}

/// The environment's milestone list (`Env::milestones`).
pub fn milestone_list(task: &Task) -> Result<MilestoneList, String> {
    let env = task.make_env().map_err(|e| e.to_string())?;
    let json = env
        .milestones()
        .ok_or_else(|| format!("{} has no milestone list", task.env))?;
    parse_milestone_file(json).map_err(|e| format!("{}'s milestone list: {e}", task.env))
}

/// The request in flight: one episode's messages and images.
struct Current {
    episode: usize,
    messages: Vec<Message>,
    frames: Vec<Frame>,
    images: HashMap<ImageRef, EncodedImage>,
}

pub struct JudgeRun {
    transport: Transport,
    source: JudgeSource,
    file: JudgeFile,
    current: Option<Current>,
}

impl JudgeRun {
    /// A judging of every episode of `source` by `endpoint`, at most `max_images`
    /// frames per request.
    pub fn new(source: JudgeSource, endpoint: Endpoint, max_images: usize) -> Self {
        let transport = Transport::new(endpoint);
        let mut file = JudgeFile {
            format: JUDGE_FORMAT.to_string(),
            source_label: source.label.clone(),
            agent: source.agent.clone(),
            suite: source.suite.clone(),
            suite_version: source.suite_version,
            source_crc32: source.fingerprint(),
            judge: agent_name(transport.endpoint()),
            judge_settings: transport.settings(),
            max_images: max_images.max(1),
            episodes: Vec::new(),
            report: Default::default(),
        };
        file.refresh();
        Self {
            transport,
            source,
            file,
            current: None,
        }
    }

    /// Continues `previous`, a judging of the same episodes: its settled episodes are
    /// kept, the others asked.
    pub fn resume(&mut self, previous: JudgeFile) -> Result<(), String> {
        if previous.source_crc32 != self.file.source_crc32 {
            return Err("the judge file is of other episodes".into());
        }
        self.file.episodes = previous
            .episodes
            .into_iter()
            .filter(JudgedEpisode::is_settled)
            .collect();
        self.file.refresh();
        Ok(())
    }

    pub fn file(&self) -> &JudgeFile {
        &self.file
    }

    pub fn usage(&self) -> &Usage {
        self.transport.usage()
    }

    pub fn last_error(&self) -> Option<&ApiError> {
        self.transport.last_error()
    }

    pub fn total(&self) -> usize {
        self.source.items.len()
    }

    pub fn settled(&self) -> usize {
        self.file.episodes.iter().filter(|e| e.is_settled()).count()
    }

    /// What the request in flight is for, for people:
    /// `episode 2 of 5 (maze-s1): 7 of 7 frames, reply 2 of 2`.
    pub fn describe_current(&self) -> Option<String> {
        let c = self.current.as_ref()?;
        let e = self.file.episodes.iter().find(|e| e.index == c.episode)?;
        let mut s = format!(
            "episode {} of {} ({}): {} of {} frames",
            c.episode + 1,
            self.total(),
            e.task,
            e.frames_sent,
            e.frames_total
        );
        if !e.replies.is_empty() {
            s.push_str(&format!(", reply {} of {MAX_REPLIES}", e.replies.len() + 1));
        }
        let retries = self.transport.transport_retries();
        if retries > 0 {
            s.push_str(&format!(
                ", transport retry {retries} of {MAX_TRANSPORT_RETRIES}"
            ));
        }
        Some(s)
    }

    fn entry_mut(&mut self, index: usize) -> Option<&mut JudgedEpisode> {
        self.file.episodes.iter_mut().find(|e| e.index == index)
    }

    /// Prepares episode `index`: its entry (milestones, exact answers, frame counts)
    /// and, unless that failed, its request.
    fn prepare(&mut self, index: usize) -> Option<Current> {
        let item = &self.source.items[index];
        let mut entry = JudgedEpisode {
            index,
            task: item.task.id.clone(),
            env: item.task.env.clone(),
            agent: item.record.agent.clone(),
            repeat: item.repeat,
            passed: item.record.passed,
            score: item.record.score,
            game: String::new(),
            link: item.link.clone(),
            frames_total: 0,
            frames_sent: 0,
            video: None,
            milestones: Vec::new(),
            replies: Vec::new(),
            problems: Vec::new(),
            ignored: Vec::new(),
            flagged: false,
            error: None,
        };
        let prepared = (|| {
            let list = milestone_list(&item.task)?;
            entry.game = list.game.clone().unwrap_or_else(|| item.task.env.clone());
            let exact = if list.is_exact() {
                exact_completion(&item.task, &item.record, &list)?
            } else {
                vec![None; list.milestones.len()]
            };
            entry.milestones = list
                .milestones
                .iter()
                .zip(&exact)
                .map(|(m, step)| MilestoneCheck {
                    title: m.title.clone(),
                    judge: None,
                    evidence: String::new(),
                    exact: m.exact.as_ref().map(|_| step.is_some()),
                    exact_step: *step,
                })
                .collect();
            let frames = step_frames(&item.task, &item.record)?;
            if frames.is_empty() {
                return Err("the episode has no decisions: there is nothing to watch".into());
            }
            entry.frames_total = frames.len();
            let mut user = if self.transport.endpoint().provider.takes_video() {
                // GameVerse's judge watches a video: every frame, no image budget.
                entry.frames_sent = frames.len();
                entry.video = Some(VideoSent::webm(frames.len(), f64::from(STEP_VIDEO_FPS)));
                vec![Part::Image(ImageRef::StepVideo)]
            } else {
                let kept = fit_to_budget((0..frames.len()).collect(), self.file.max_images);
                entry.frames_sent = kept.len();
                with_markers(
                    kept.iter()
                        .map(|&k| ImageRef::Current { step: k as u32 + 1 }),
                    MARKER_EVERY,
                )
            };
            user.push(Part::TextBlock(prompts::user_text(&entry.game, &list)));
            let messages = vec![
                Message {
                    role: Role::System,
                    parts: vec![Part::Text(prompts::system().to_string())],
                },
                Message {
                    role: Role::User,
                    parts: user,
                },
            ];
            Ok::<_, String>(Current {
                episode: index,
                messages,
                frames,
                images: HashMap::new(),
            })
        })();
        let current = match prepared {
            Ok(c) => Some(c),
            Err(e) => {
                entry.error = Some(e);
                None
            }
        };
        let at = self
            .file
            .episodes
            .iter()
            .position(|x| x.index > index)
            .unwrap_or(self.file.episodes.len());
        self.file.episodes.insert(at, entry);
        current
    }

    /// The next request, or `Done`.
    pub fn next(&mut self, enc: &mut dyn FrameEncoder, api_key: Option<&str>) -> JudgeStep {
        loop {
            if self.current.is_none() {
                let pending = (0..self.total()).find(|&i| {
                    !self
                        .file
                        .episodes
                        .iter()
                        .any(|e| e.index == i && e.is_settled())
                });
                let Some(index) = pending else {
                    self.file.refresh();
                    return JudgeStep::Done;
                };
                // An unsettled entry (an interrupted request) is made again.
                self.file.episodes.retain(|e| e.index != index);
                self.transport.begin();
                self.current = self.prepare(index);
                continue;
            }
            let Some(c) = self.current.as_mut() else {
                continue;
            };
            if c.messages
                .iter()
                .flat_map(Message::images)
                .any(|r| *r == ImageRef::StepVideo)
                && !c.images.contains_key(&ImageRef::StepVideo)
            {
                match step_video_webm(&c.frames) {
                    Ok(v) => {
                        c.images.insert(ImageRef::StepVideo, v);
                    }
                    Err(e) => {
                        self.fail_current(e);
                        continue;
                    }
                }
            }
            let frames = &c.frames;
            let frame = |r: &ImageRef| match r {
                ImageRef::Current { step } => frames.get((*step as usize).checked_sub(1)?),
                _ => None,
            };
            match self
                .transport
                .request(&c.messages, &mut c.images, frame, enc, api_key)
            {
                Ok(request) => {
                    let wait_ms = self.transport.wait_ms();
                    return JudgeStep::Send { request, wait_ms };
                }
                Err(e) => self.fail_current(e.message),
            }
        }
    }

    fn fail_current(&mut self, error: String) {
        if let Some(c) = self.current.take() {
            if let Some(e) = self.entry_mut(c.episode) {
                e.error = Some(error);
            }
        }
        self.file.refresh();
    }

    crate::answer_through_transport!();

    fn on_outcome(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Reply(text) => self.on_reply(text),
            Outcome::Retry => {}
            Outcome::Failed(message) => self.fail_current(message),
        }
    }

    /// A reply: the answers when it parses, else asked once more, then flagged.
    fn on_reply(&mut self, text: String) {
        let Some(episode) = self.current.as_ref().map(|c| c.episode) else {
            return;
        };
        let Some(e) = self.entry_mut(episode) else {
            return;
        };
        e.replies.push(text.clone());
        let settled = match parse_verdict(&text, e.milestones.len()) {
            Ok(v) => {
                for (m, answer) in e.milestones.iter_mut().zip(&v.matches) {
                    m.judge = Some(answer.as_ref().is_some_and(|a| a.completed));
                    m.evidence = answer
                        .as_ref()
                        .map(|a| a.evidence.clone())
                        .unwrap_or_default();
                }
                e.ignored = v.ignored;
                true
            }
            Err(p) => {
                e.problems.push(p);
                e.flagged = e.replies.len() >= MAX_REPLIES;
                e.flagged
            }
        };
        if settled {
            self.current = None;
            self.file.refresh();
        }
    }
}

crate::exchange_by_inherent_methods!(JudgeRun);
