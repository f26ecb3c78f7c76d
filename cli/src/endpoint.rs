//! `--agent endpoint`: a model behind an HTTP API (OpenAI-compatible, Anthropic,
//! Gemini), played by the model-episode state machine of `bench::model_episode` — the
//! one the browser drives — in a blocking loop. This file adds only the IO: the
//! HTTP(S) client, the sleeping before retries and the messages on stderr.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bench::encode::{ImageEncoder, ImageSettings};
use bench::exchange::{Exchange, Step};
use bench::latency::LatencySource;
use bench::model_episode::{agent_name, Attempt, DemoCache, ModelEpisode};
use bench::protocol::endpoint::{redact, Endpoint, HttpRequest, Prices};
use bench::protocol::prompt::DemoMode;
use bench::protocol::providers::Sampling;
use bench::protocol::retry::MAX_TRANSPORT_RETRIES;
use bench::protocol::session::SessionConfig;
use bench::results::Usage;
use bench::share::EpisodeFile;
use bench::{EpisodeRecord, FailureMode, Task};

use crate::args::{EndpointArgs, ImageArgs, ProtocolArg};
use crate::error::CliError;
use bench::protocol::session::HistoryWindow;

/// Everything needed to play with one model.
#[derive(Clone)]
pub struct EndpointConfig {
    pub endpoint: Endpoint,
    /// Never printed and never recorded.
    pub api_key: Option<String>,
    pub timeout: Duration,
    pub session: SessionConfig,
    pub prices: Prices,
    pub image: ImageSettings,
    /// Demonstration videos' frame rate (with `--demos-as-video`).
    pub video_fps: u32,
    /// Where thinking times come from on real-time tasks.
    pub latency: LatencySource,
}

/// `--latency`: `measured`, `fixed:MS` or `replay:FILE` (an episode file's latencies).
pub fn latency_source(text: &str) -> Result<LatencySource, CliError> {
    let usage = |m: String| CliError::Usage(format!("--latency: {m}"));
    let Some(path) = text.trim().strip_prefix("replay:") else {
        return LatencySource::parse(text).map_err(usage);
    };
    let json = std::fs::read_to_string(path).map_err(|error| CliError::Io {
        what: format!("reading {path}"),
        error,
    })?;
    let file = EpisodeFile::from_json(&json).map_err(|e| usage(format!("{path}: {e}")))?;
    LatencySource::replay_of(&file.record).map_err(|e| usage(format!("{path}: {e}")))
}

fn required(value: &Option<String>, flag: &str) -> Result<String, CliError> {
    value
        .clone()
        .ok_or_else(|| CliError::Usage(format!("{flag} is required with --agent endpoint")))
}

impl EndpointConfig {
    pub fn from_args(args: &EndpointArgs, image: &ImageArgs) -> Result<Self, CliError> {
        let provider = args.provider.ok_or_else(|| {
            CliError::Usage("--provider is required with --agent endpoint".into())
        })?;
        let api_key = match &args.api_key_env {
            Some(var) => Some(std::env::var(var).map_err(|_| {
                CliError::Usage(format!(
                    "--api-key-env: the environment variable {var} is not set"
                ))
            })?),
            None => None,
        };
        let visgym = args.protocol == ProtocolArg::Visgym;
        if !visgym {
            if args.history == HistoryWindow::Last(0) {
                return Err(CliError::Usage(
                    "--history 0 is VisGym's (with --protocol visgym); V-ICAL keeps at least one turn".into(),
                ));
            }
            for (set, flag) in [
                (args.verbalize, "--verbalize"),
                (args.final_goal, "--final-goal"),
                (args.repeat_instructions, "--repeat-instructions"),
            ] {
                if set {
                    return Err(CliError::Usage(format!(
                        "{flag} is an option of VisGym's harness: add --protocol visgym"
                    )));
                }
            }
        }
        if image.demos_as_video {
            if args.protocol != ProtocolArg::Vical {
                return Err(CliError::Usage(
                    "--demos-as-video: only V-ICAL's conversation sends demonstrations".into(),
                ));
            }
            if !provider.provider().takes_video() {
                return Err(CliError::Usage(format!(
                    "--demos-as-video: {} takes no video (Gemini does)",
                    provider.provider().name()
                )));
            }
        }
        if args.protocol == ProtocolArg::Gameverse && args.history != HistoryWindow::Full {
            return Err(CliError::Usage(
                "--history: GameVerse's agent sends every step alone (two messages); leave it at full".into(),
            ));
        }
        let mut config = Self {
            endpoint: Endpoint {
                provider: provider.provider(),
                base_url: required(&args.base_url, "--base-url")?,
                sampling: Sampling {
                    model: required(&args.model, "--model")?,
                    temperature: args.temperature,
                    max_output_tokens: args.max_tokens,
                },
                headers: args.header.clone(),
            },
            api_key,
            timeout: Duration::from_secs(args.timeout.max(1)),
            session: SessionConfig {
                strictness: args.strictness.into(),
                history: args.history,
                observation: args.observation.into(),
                feedback: args.feedback,
                reward: args.reward.into(),
                protocol: args.protocol.into(),
                verbalize: args.verbalize,
                final_goal: args.final_goal,
                repeat_instructions: args.repeat_instructions,
                gameverse_agent: args.gameverse_agent.into(),
                ..SessionConfig::default()
            },
            prices: Prices {
                input_per_million: args.price_in,
                output_per_million: args.price_out,
            },
            image: image.settings(),
            video_fps: image.video_fps,
            latency: latency_source(&args.latency)?,
        };
        if image.demos_as_video {
            config.session.demo_mode = DemoMode::Video;
        }
        Ok(config)
    }

    /// The agent name records carry (`endpoint:<provider>:<model>`).
    pub fn agent_name(&self) -> String {
        agent_name(&self.endpoint)
    }
}

/// One episode with a model.
pub struct ModelRun {
    pub record: EpisodeRecord,
    pub usage: Usage,
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Plays `task` with the model: asks the episode for its next request, sleeps the
/// backoff it names, sends, hands back the answer, until it is done. Request errors go
/// to stderr (key redacted) as they happen; `demos` shares the encoded demonstration
/// frames with other episodes of the task on this thread.
pub fn play(
    task: &Task,
    config: &EndpointConfig,
    demos: Option<&DemoCache>,
) -> Result<ModelRun, CliError> {
    let start_error = |message: String| CliError::ModelEpisode {
        task: task.id.clone(),
        message,
    };
    let mut episode =
        ModelEpisode::new(task, config.endpoint.clone(), config.session, config.prices)
            .map_err(start_error)?;
    episode.set_latency_source(config.latency.clone());
    if let Some(cache) = demos {
        episode.share_demo_images(cache.clone(), config.image.key());
    }
    if let Err(e) = episode.encode_videos(config.video_fps) {
        episode.abort(&e);
    }
    let mut encoder = ImageEncoder::new(config.image);
    let key = config.api_key.as_deref();
    loop {
        let work = Instant::now();
        let Step::Send { request, wait_ms } = episode.next(&mut encoder, key) else {
            break;
        };
        episode.add_work(millis(work.elapsed()));
        if let [.., failed, retry] = episode.turns() {
            if let (Attempt::TransportRetry(n), Some(problem)) = (retry.attempt, &failed.problem) {
                eprintln!("playbench: endpoint: {problem} (retry {n} of {MAX_TRANSPORT_RETRIES})");
            }
        }
        let (answer, latency) = send(&request, wait_ms, config.timeout);
        match answer {
            Ok(response) => {
                let body = String::from_utf8_lossy(&response.body);
                episode.on_response(
                    response.status,
                    response.header("retry-after"),
                    unix_now(),
                    &body,
                    latency,
                    key,
                );
            }
            Err(message) => episode.on_network_error(&message, latency, key),
        }
    }
    let record = episode
        .record()
        .cloned()
        .ok_or_else(|| start_error("the episode ended without a record".into()))?;
    if matches!(
        record.failure,
        Some(FailureMode::ApiError | FailureMode::TokenOverflow)
    ) {
        if let Some(e) = episode.last_error() {
            eprintln!("playbench: endpoint: {}", redact(&e.message, key));
        }
    }
    Ok(ModelRun {
        record,
        usage: episode.usage().clone(),
    })
}

/// Sends a model conversation's requests (`bench::exchange`) until it is over: sleeps
/// each backoff, says on stderr why a request is retried (`who` names the model's role),
/// and calls `progress` before every request and at the end.
pub fn converse<M: Exchange>(
    m: &mut M,
    config: &EndpointConfig,
    who: &str,
    mut progress: impl FnMut(&M),
) {
    let mut encoder = ImageEncoder::new(config.image);
    let key = config.api_key.as_deref();
    loop {
        progress(m);
        let work = Instant::now();
        let Step::Send { request, wait_ms } = m.next(&mut encoder, key) else {
            break;
        };
        m.add_work(millis(work.elapsed()));
        if wait_ms > 0 {
            if let Some(e) = m.last_error() {
                eprintln!(
                    "playbench: {who}: {} (retrying in {} s, at most {MAX_TRANSPORT_RETRIES} times)",
                    e.message,
                    wait_ms.div_ceil(1000)
                );
            }
        }
        let (answer, latency) = send(&request, wait_ms, config.timeout);
        match answer {
            Ok(response) => {
                let body = String::from_utf8_lossy(&response.body);
                m.on_response(
                    response.status,
                    response.header("retry-after"),
                    unix_now(),
                    &body,
                    latency,
                    key,
                );
            }
            Err(message) => m.on_network_error(&message, latency, key),
        }
    }
    progress(m);
}

/// Sleeps `wait_ms` (a retry's backoff), POSTs `request` and gives the answer with
/// its latency in milliseconds.
pub fn send(
    request: &HttpRequest,
    wait_ms: u64,
    timeout: Duration,
) -> (Result<HttpResponse, String>, f64) {
    std::thread::sleep(Duration::from_millis(wait_ms));
    let sent = Instant::now();
    let answer = http_post(&request.url, &request.headers, &request.body, timeout);
    (answer, millis(sent.elapsed()))
}

/// An HTTP answer.
pub struct HttpResponse {
    pub status: u16,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl HttpResponse {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// POSTs a JSON body over HTTP or HTTPS (rustls, Mozilla's roots); network failures,
/// TLS failures and `timeout` (the whole exchange) are errors, HTTP error statuses are
/// answers.
pub fn http_post(
    url: &str,
    headers: &[(String, String)],
    body: &str,
    timeout: Duration,
) -> Result<HttpResponse, String> {
    let agent = ureq::AgentBuilder::new()
        .timeout(timeout)
        .user_agent("playbench")
        .build();
    let mut request = agent.post(url).set("Accept", "application/json");
    for (n, v) in headers {
        request = request.set(n, v);
    }
    let response = match request.send_string(body) {
        Ok(r) | Err(ureq::Error::Status(_, r)) => r,
        Err(ureq::Error::Transport(t)) => {
            let timed_out = t.kind() == ureq::ErrorKind::Io
                && t.to_string().to_lowercase().contains("timed out");
            return Err(if timed_out {
                format!("no answer from {url} within {}s", timeout.as_secs())
            } else {
                format!("{url}: {t}")
            });
        }
    };
    let status = response.status();
    let headers = response
        .headers_names()
        .into_iter()
        .filter_map(|n| {
            let v = response.header(&n)?.to_string();
            Some((n.to_lowercase(), v))
        })
        .collect();
    let mut body = Vec::new();
    let limit = bench::protocol::endpoint::MAX_ANSWER_BYTES as u64;
    std::io::Read::read_to_end(
        &mut std::io::Read::take(response.into_reader(), limit + 1),
        &mut body,
    )
    .map_err(|e| format!("reading the answer from {url}: {e} (the connection broke off)"))?;
    if body.len() as u64 > limit {
        return Err(format!(
            "{url}: {}",
            bench::protocol::endpoint::answer_too_large()
        ));
    }
    Ok(HttpResponse {
        status,
        headers,
        body,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{Cli, Command};
    use bench::encode::ImageFormat;
    use bench::protocol::session::{HistoryWindow, ObservationMode, RewardMode};
    use clap::Parser;

    fn config(extra: &[&str]) -> Result<EndpointConfig, CliError> {
        let base = [
            "playbench",
            "run",
            "--task",
            "t",
            "--agent",
            "endpoint",
            "--provider",
            "gemini",
            "--base-url",
            "http://h/v1beta",
            "--model",
            "g",
        ];
        let cli = Cli::try_parse_from([&base[..], extra].concat())?;
        let Command::Run(run) = cli.command else {
            panic!("not run")
        };
        EndpointConfig::from_args(&run.agent.endpoint, &run.agent.image)
    }

    #[test]
    fn the_options_become_the_session_and_the_key_comes_from_the_environment() {
        let e = config(&["--api-key-env", "PLAYBENCH_TEST_SURELY_UNSET_VAR"])
            .err()
            .unwrap();
        assert!(e.to_string().contains("is not set"), "{e}");
        assert_eq!(e.exit_code(), 2);
        let c = config(&[
            "--history",
            "3",
            "--strictness",
            "lenient",
            "--header",
            "X-A: b",
            "--header",
            "X-C:d",
        ])
        .unwrap();
        assert_eq!(c.session.history, HistoryWindow::Last(3));
        assert_eq!(
            c.endpoint.headers,
            vec![("X-A".into(), "b".into()), ("X-C".into(), "d".into())]
        );
        assert_eq!(c.agent_name(), "endpoint:gemini:g");
        assert_eq!(c.timeout, Duration::from_secs(120));
        let c = config(&["--observation", "both", "--feedback", "--reward", "shown"]).unwrap();
        assert_eq!(c.session.observation, ObservationMode::Both);
        assert!(c.session.feedback);
        assert_eq!(c.session.reward, RewardMode::Shown);
        let c = config(&["--image-format", "jpeg", "--timeout", "0"]).unwrap();
        assert_eq!(c.image.format, ImageFormat::Jpeg);
        assert_eq!(c.timeout, Duration::from_secs(1));
        let e = config(&["--observation", "smell"]).err().unwrap();
        assert!(
            e.to_string().contains("image") && e.to_string().contains("both"),
            "{e}"
        );
        assert!(config(&["--history", "0"]).is_err());
    }

    #[test]
    fn latency_is_measured_fixed_or_replayed_from_an_episode_file() {
        assert_eq!(config(&[]).unwrap().latency, LatencySource::Measured);
        let c = config(&["--latency", "fixed:2500"]).unwrap();
        assert_eq!(c.latency, LatencySource::Fixed(2500));
        let e = config(&["--latency", "fixed:soon"]).err().unwrap();
        assert!(e.to_string().contains("whole number"), "{e}");
        assert_eq!(e.exit_code(), 2);
        let e = config(&["--latency", "replay:/nonexistent/episode.json"])
            .err()
            .unwrap();
        assert!(e.to_string().contains("/nonexistent/episode.json"), "{e}");
        // An episode file whose decisions carry latencies replays them in order.
        let task = bench::suites::latest("gameverse")
            .unwrap()
            .task("snake")
            .unwrap();
        let mut agent = bench::agents::OracleAgent::new();
        let mut record = bench::run_episode(task, &mut agent).unwrap();
        let dir = std::env::temp_dir().join(format!("playbench-latency-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("episode.json");
        let write = |record: &bench::EpisodeRecord| {
            let file = EpisodeFile::from_record(
                bench::share::TaskRef::Inline(Box::new(task.clone())),
                record.clone(),
                None,
            );
            std::fs::write(&path, file.to_json()).unwrap();
            format!("replay:{}", path.display())
        };
        let e = config(&["--latency", &write(&record)]).err().unwrap();
        assert!(e.to_string().contains("records no latencies"), "{e}");
        record.decisions[0].latency_ms = Some(3000);
        record.decisions[2].latency_ms = Some(35000);
        let c = config(&["--latency", &write(&record)]).unwrap();
        assert_eq!(c.latency, LatencySource::Replay(vec![3000, 35000]));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
