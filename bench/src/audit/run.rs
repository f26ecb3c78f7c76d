//! An audit of a results file as a plain state machine (`docs/audit.md`), the same for
//! the browser and the command line, like `crate::model_episode`: ask it for the next
//! request, send it however the platform sends things, hand back the answer. It builds
//! each task's reference once, then for every episode the two audit requests; replies
//! that break the contract are asked again a bounded number of times, transport
//! failures are retried with the model runs' backoff. Everything it learns goes into
//! the audit file, which is also how a run resumes. No IO, no clock.

use std::collections::HashMap;

use envs::Frame;
use serde_json::{Map, Value};

use super::contract::{parse_attribution, parse_reference, parse_transfer, Reference};
use super::evidence::{build_evidence, session_config, Evidence};
use super::file::{
    results_fingerprint, AuditFile, AuditedEpisode, CriterionAudit, TaskReference, AUDIT_FORMAT,
};
use super::report::AuditReport;
use super::request::{audit_messages, reference_messages, Criterion};
use crate::demo::render_clip;
use crate::encode::FrameEncoder;
use crate::model_episode::agent_name;
use crate::protocol::endpoint::{Endpoint, HttpRequest};
use crate::protocol::prompt::{ImageRef, Message};
use crate::protocol::providers::{ApiError, EncodedImage, ErrorKind};
use crate::protocol::retry::MAX_TRANSPORT_RETRIES;
use crate::protocol::transport::{Outcome, Transport};
use crate::report::{env_name, tag_names};
use crate::results::{ResultsFile, ResultsKind, Usage};
use crate::share::EpisodeFile;
use crate::Task;

/// Replies asked for per request before its verdict is recorded as an error (the
/// first and two more after replies that break the contract).
pub const MAX_CONTRACT_ATTEMPTS: u32 = 3;

/// What to do next (`Done`: every episode has its verdicts or errors, and
/// [`AuditRun::file`] has them).
pub use crate::exchange::Step as AuditStep;

/// What a request is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    Reference {
        episode: usize,
    },
    Audit {
        episode: usize,
        criterion: Criterion,
    },
}

/// Where the images of the current requests come from.
struct Sources {
    episode: usize,
    /// The task's demonstrations (the reference request).
    demos: Vec<Vec<Frame>>,
    /// The episode's evidence (the audit requests).
    evidence: Option<Evidence>,
    images: HashMap<ImageRef, EncodedImage>,
}

/// An image of the current requests: the evidence's, else a demonstration frame.
fn frame_of<'a>(
    demos: &'a [Vec<Frame>],
    evidence: Option<&'a Evidence>,
    r: &ImageRef,
) -> Option<&'a Frame> {
    match (evidence, r) {
        (Some(e), _) => e.frame(r),
        (None, ImageRef::DemoFrame { clip, frame }) => demos.get(*clip)?.get(*frame),
        (None, _) => None,
    }
}

struct Current {
    job: Job,
    messages: Vec<Message>,
}

pub struct AuditRun {
    transport: Transport,
    results: ResultsFile,
    tasks: Vec<Task>,
    file: AuditFile,
    current: Option<Current>,
    sources: Option<Sources>,
}

fn fresh_file(results: &ResultsFile, transport: &Transport) -> AuditFile {
    AuditFile {
        format: AUDIT_FORMAT.to_string(),
        results_label: results.label.clone(),
        agent: results.agent.clone(),
        suite: results.suite.clone(),
        suite_version: results.suite_version,
        results_crc32: results_fingerprint(results),
        auditor: agent_name(transport.endpoint()),
        auditor_settings: transport.settings(),
        references: Vec::new(),
        episodes: Vec::new(),
        report: AuditReport::default(),
    }
}

/// The turn a justification names (`TURN 3`, `turn 3`), if any.
pub fn mentioned_turn(text: &str) -> Option<usize> {
    let low = text.to_lowercase();
    low.match_indices("turn").find_map(|(i, _)| {
        let rest = low[i + 4..].trim_start_matches([' ', '#']);
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    })
}

impl AuditRun {
    /// An audit of every episode of `results` (a model's results file) by `endpoint`.
    pub fn new(results: ResultsFile, endpoint: Endpoint) -> Result<Self, String> {
        if results.kind != ResultsKind::Model {
            return Err(format!(
                "the auditor audits model runs; this results file is of kind {:?}",
                results.kind
            )
            .to_lowercase());
        }
        let suite =
            crate::suites::get(&results.suite, results.suite_version).map_err(|e| e.to_string())?;
        let transport = Transport::new(endpoint);
        let file = fresh_file(&results, &transport);
        Ok(Self {
            tasks: suite.tasks.clone(),
            transport,
            results,
            file,
            current: None,
            sources: None,
        })
    }

    /// Continues `previous`, an audit of the same results file: its verdicts, errors
    /// and references are kept, what is missing is asked.
    pub fn resume(&mut self, previous: AuditFile) -> Result<(), String> {
        if previous.results_crc32 != self.file.results_crc32 {
            return Err("the audit file is of another results file".into());
        }
        self.file.references = previous.references;
        self.file.episodes = previous.episodes;
        self.file.refresh();
        Ok(())
    }

    /// Reuses the references of another audit of the same suite version (a reference
    /// depends only on the task).
    pub fn reuse_references(&mut self, other: &AuditFile) {
        if other.suite != self.results.suite || other.suite_version != self.results.suite_version {
            return;
        }
        for r in other.references.iter().filter(|r| r.reference.is_some()) {
            if self.file.reference(&r.task).is_none() {
                self.file.references.push(r.clone());
            }
        }
    }

    /// The audit so far (complete after [`AuditStep::Done`]).
    pub fn file(&self) -> &AuditFile {
        &self.file
    }

    pub fn usage(&self) -> &Usage {
        self.transport.usage()
    }

    pub fn last_error(&self) -> Option<&ApiError> {
        self.transport.last_error()
    }

    /// Episodes in the results file.
    pub fn total(&self) -> usize {
        self.results.episodes.len()
    }

    /// Episodes with both verdicts (or their errors).
    pub fn settled(&self) -> usize {
        self.file.episodes.iter().filter(|e| e.is_settled()).count()
    }

    /// What the request in flight is for, for people:
    /// `episode 2 of 5 (taxi-s1): information transfer, reply 2 of 3`.
    pub fn describe_current(&self) -> Option<String> {
        let c = self.current.as_ref()?;
        let (episode, what, replies) = match c.job {
            Job::Reference { episode } => {
                let task = &self.results.episodes[episode].record.task;
                let n = self.file.reference(task).map_or(0, |r| r.replies.len());
                (episode, "the task's reference".to_string(), n)
            }
            Job::Audit { episode, criterion } => {
                let n = self
                    .file
                    .episodes
                    .iter()
                    .find(|e| e.index == episode)
                    .map_or(0, |e| match criterion {
                        Criterion::InformationTransfer => e.information_transfer.replies.len(),
                        Criterion::FailureAttribution => e.failure_attribution.replies.len(),
                    });
                (episode, criterion.title().to_string(), n)
            }
        };
        let mut s = format!(
            "episode {} of {} ({}): {what}",
            episode + 1,
            self.total(),
            self.results.episodes[episode].record.task
        );
        if replies > 0 {
            s.push_str(&format!(
                ", reply {} of {MAX_CONTRACT_ATTEMPTS}",
                replies + 1
            ));
        }
        let retries = self.transport.transport_retries();
        if retries > 0 {
            s.push_str(&format!(
                ", transport retry {retries} of {MAX_TRANSPORT_RETRIES}"
            ));
        }
        Some(s)
    }

    fn task(&self, id: &str) -> Option<&Task> {
        self.tasks.iter().find(|t| t.id == id)
    }

    /// The file's entry for episode `index`, made when first needed.
    fn entry(&mut self, index: usize) -> Result<usize, String> {
        if let Some(at) = self.file.episodes.iter().position(|e| e.index == index) {
            return Ok(at);
        }
        let e = &self.results.episodes[index];
        let task = self
            .task(&e.record.task)
            .ok_or_else(|| format!("no task {:?} in the suite", e.record.task))?;
        let link = self
            .results
            .episode_file(index)
            .and_then(|f: EpisodeFile| f.to_link_fragment().ok())
            .map(|fragment| format!("/episode#{fragment}"));
        let entry = AuditedEpisode {
            index,
            task: task.id.clone(),
            env: env_name(task),
            agent: e.record.agent.clone(),
            repeat: e.repeat,
            tags: tag_names(task)
                .into_iter()
                .filter(|t| t.starts_with("memory: ") || t.starts_with("dynamics: "))
                .collect(),
            passed: e.record.passed,
            score: e.record.score,
            failure: e.record.failure,
            turns: 0,
            link,
            information_transfer: CriterionAudit::default(),
            failure_attribution: CriterionAudit::default(),
        };
        let at = self
            .file
            .episodes
            .iter()
            .position(|x| x.index > index)
            .unwrap_or(self.file.episodes.len());
        self.file.episodes.insert(at, entry);
        Ok(at)
    }

    /// Records `error` for both criteria of the episode at `at` where unsettled.
    fn fail_episode(&mut self, at: usize, error: &str) {
        let e = &mut self.file.episodes[at];
        if !e.information_transfer.is_settled() {
            e.information_transfer.error = Some(error.to_string());
        }
        if !e.failure_attribution.is_settled() {
            e.failure_attribution.error = Some(error.to_string());
        }
    }

    /// The images of episode `index`'s requests (its reference's, with `reference`).
    fn load_sources(&mut self, index: usize, reference: bool) -> Result<(), String> {
        let have = self
            .sources
            .as_ref()
            .is_some_and(|s| s.episode == index && s.evidence.is_some() != reference);
        if have {
            return Ok(());
        }
        let record = &self.results.episodes[index].record;
        let task = self
            .task(&record.task)
            .ok_or_else(|| format!("no task {:?} in the suite", record.task))?;
        let (demos, evidence) = if reference {
            let demos = task
                .demos
                .iter()
                .map(|c| render_clip(task, c))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())?;
            (demos, None)
        } else {
            let config = session_config(self.results.config.as_ref());
            (Vec::new(), Some(build_evidence(task, record, config)?))
        };
        self.sources = Some(Sources {
            episode: index,
            demos,
            evidence,
            images: HashMap::new(),
        });
        Ok(())
    }

    /// The next job, preparing its sources; settles episodes that cannot be audited.
    fn plan(&mut self) -> Option<Job> {
        for index in 0..self.results.episodes.len() {
            let at = match self.entry(index) {
                Ok(at) => at,
                Err(_) => continue,
            };
            if self.file.episodes[at].is_settled() {
                continue;
            }
            let task = self.file.episodes[at].task.clone();
            match self.file.reference(&task) {
                // Not asked yet, or asked when the audit was interrupted.
                None
                | Some(TaskReference {
                    reference: None,
                    error: None,
                    ..
                }) => {
                    if let Err(e) = self.load_sources(index, true) {
                        self.fail_episode(at, &format!("the demonstrations: {e}"));
                        continue;
                    }
                    if self.file.reference(&task).is_none() {
                        self.file.references.push(TaskReference {
                            task,
                            reference: None,
                            replies: Vec::new(),
                            error: None,
                        });
                    }
                    return Some(Job::Reference { episode: index });
                }
                Some(r) if r.reference.is_none() => {
                    let why = r.error.clone().unwrap_or_default();
                    self.fail_episode(at, &format!("no reference for the task: {why}"));
                    continue;
                }
                Some(_) => {}
            }
            if let Err(e) = self.load_sources(index, false) {
                self.fail_episode(at, &format!("the episode's evidence: {e}"));
                continue;
            }
            let turns = self
                .sources
                .as_ref()
                .and_then(|s| s.evidence.as_ref())
                .map_or(0, |e| e.turns.len());
            let e = &mut self.file.episodes[at];
            e.turns = turns;
            let criterion = if e.information_transfer.is_settled() {
                Criterion::FailureAttribution
            } else {
                Criterion::InformationTransfer
            };
            return Some(Job::Audit {
                episode: index,
                criterion,
            });
        }
        None
    }

    fn messages(&self, job: Job) -> Option<Vec<Message>> {
        let s = self.sources.as_ref()?;
        match job {
            Job::Reference { episode } => {
                let task = self.task(&self.results.episodes[episode].record.task)?;
                let frames: Vec<usize> = s.demos.iter().map(Vec::len).collect();
                Some(reference_messages(task, &frames))
            }
            Job::Audit { episode, criterion } => {
                let task = self.task(&self.results.episodes[episode].record.task)?;
                let reference = self.file.reference(&task.id)?.reference.as_ref()?;
                Some(audit_messages(
                    criterion,
                    task,
                    reference,
                    s.evidence.as_ref()?,
                ))
            }
        }
    }

    /// The next request, or `Done`.
    pub fn next(&mut self, enc: &mut dyn FrameEncoder, api_key: Option<&str>) -> AuditStep {
        loop {
            if self.current.is_none() {
                let Some(job) = self.plan() else {
                    self.file.refresh();
                    return AuditStep::Done;
                };
                let Some(messages) = self.messages(job) else {
                    self.settle_error(job, "the request could not be built".into());
                    continue;
                };
                self.transport.begin();
                self.current = Some(Current { job, messages });
            }
            let Some(c) = self.current.as_ref() else {
                continue;
            };
            let job = c.job;
            match self.request(enc, api_key) {
                Ok(request) => {
                    let wait_ms = self.transport.wait_ms();
                    return AuditStep::Send { request, wait_ms };
                }
                Err(e) => {
                    self.current = None;
                    self.settle_error(job, e.message);
                }
            }
        }
    }

    fn request(
        &mut self,
        enc: &mut dyn FrameEncoder,
        api_key: Option<&str>,
    ) -> Result<HttpRequest, ApiError> {
        let (Some(c), Some(s)) = (self.current.as_ref(), self.sources.as_mut()) else {
            return Err(ApiError::new(ErrorKind::BadResponse, "nothing to send"));
        };
        let Sources {
            demos,
            evidence,
            images,
            ..
        } = s;
        let frame = |r: &ImageRef| frame_of(demos, evidence.as_ref(), r);
        self.transport
            .request(&c.messages, images, frame, enc, api_key)
    }

    fn settle_error(&mut self, job: Job, error: String) {
        match job {
            Job::Reference { episode } => {
                let task = self.results.episodes[episode].record.task.clone();
                if let Some(r) = self.file.references.iter_mut().find(|r| r.task == task) {
                    r.error = Some(error);
                }
            }
            Job::Audit { episode, criterion } => {
                if let Some(e) = self.file.episodes.iter_mut().find(|e| e.index == episode) {
                    match criterion {
                        Criterion::InformationTransfer => {
                            e.information_transfer.error = Some(error)
                        }
                        Criterion::FailureAttribution => e.failure_attribution.error = Some(error),
                    }
                }
            }
        }
        self.file.refresh();
    }

    crate::answer_through_transport!();

    fn on_outcome(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Reply(text) => self.on_reply(text),
            Outcome::Retry => {}
            Outcome::Failed(message) => {
                if let Some(c) = self.current.take() {
                    self.settle_error(c.job, message);
                }
            }
        }
    }

    /// A reply: the verdict when it keeps the contract, else asked again (up to
    /// [`MAX_CONTRACT_ATTEMPTS`] replies).
    fn on_reply(&mut self, text: String) {
        let Some(c) = self.current.as_ref() else {
            return;
        };
        let job = c.job;
        let turn_steps: Vec<u32> = self
            .sources
            .as_ref()
            .and_then(|s| s.evidence.as_ref())
            .map(|e| e.turns.iter().map(|t| t.step).collect())
            .unwrap_or_default();
        let problem = match job {
            Job::Reference { episode } => {
                let task = self.results.episodes[episode].record.task.clone();
                let parsed = parse_reference(&text);
                let Some(r) = self.file.references.iter_mut().find(|r| r.task == task) else {
                    return;
                };
                r.replies.push(text);
                match parsed {
                    Ok(reference) => {
                        r.reference = Some(reference);
                        None
                    }
                    Err(p) => Some((p, r.replies.len())),
                }
            }
            Job::Audit { episode, criterion } => {
                let final_step = self.results.episodes[episode].record.decisions.len() as u32;
                let Some(e) = self.file.episodes.iter_mut().find(|e| e.index == episode) else {
                    return;
                };
                let link = e.link.clone();
                let point = |justifications: &[&str]| -> u32 {
                    justifications
                        .iter()
                        .find_map(|j| mentioned_turn(j))
                        .and_then(|k| k.checked_sub(1))
                        .and_then(|k| turn_steps.get(k).copied())
                        .unwrap_or(final_step)
                };
                match criterion {
                    Criterion::InformationTransfer => {
                        let a = &mut e.information_transfer;
                        a.replies.push(text.clone());
                        match parse_transfer(&text) {
                            Ok(v) => {
                                a.step = point(&[
                                    &v.rule_transfer.justification,
                                    &v.strategy_transfer.justification,
                                ]);
                                a.link = link.map(|l| format!("{l}&t={}", a.step));
                                a.verdict = Some(v);
                                None
                            }
                            Err(p) => {
                                a.problems.push(p.clone());
                                Some((p, a.replies.len()))
                            }
                        }
                    }
                    Criterion::FailureAttribution => {
                        let a = &mut e.failure_attribution;
                        a.replies.push(text.clone());
                        match parse_attribution(&text) {
                            Ok(v) => {
                                a.step = point(&[&v.player_failure_stage.justification]);
                                a.link = link.map(|l| format!("{l}&t={}", a.step));
                                a.verdict = Some(v);
                                None
                            }
                            Err(p) => {
                                a.problems.push(p.clone());
                                Some((p, a.replies.len()))
                            }
                        }
                    }
                }
            }
        };
        match problem {
            None => {
                self.current = None;
                self.file.refresh();
            }
            Some((p, n)) if n as u32 >= MAX_CONTRACT_ATTEMPTS => {
                self.current = None;
                self.settle_error(
                    job,
                    format!("{n} replies broke the output contract; the last: {p}"),
                );
            }
            Some(_) => {}
        }
    }

    /// The reference of a task, once built.
    pub fn reference(&self, task: &str) -> Option<&Reference> {
        self.file.reference(task)?.reference.as_ref()
    }

    /// Requests handed out so far (transport and contract retries included).
    pub fn requests_sent(&self) -> u32 {
        self.transport.requests_sent()
    }

    /// The settings recorded for the audited run, as read from the results file.
    pub fn results_config(&self) -> Option<&Map<String, Value>> {
        self.results.config.as_ref()
    }
}

crate::exchange_by_inherent_methods!(AuditRun);
