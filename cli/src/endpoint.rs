//! `--agent endpoint`: a model behind an HTTP API (OpenAI-compatible, Anthropic,
//! Gemini), driven by the pure session of `bench::protocol`. This file adds only the
//! IO: the HTTP(S) client, PNG encoding of the frames and the sleeping between retries.

use std::collections::HashMap;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bench::demo::render_clip;
use bench::protocol::endpoint::{redact, Endpoint, Prices};
use bench::protocol::parse::Strictness;
use bench::protocol::prompt::{ImageRef, Message};
use bench::protocol::providers::{ApiError, EncodedImage, ErrorKind, Provider, Sampling};
use bench::protocol::session::{
    HistoryWindow, ModelSession, Next, ObservationMode, RewardMode, SessionConfig,
};
use bench::results::Usage;
use bench::{Agent, EpisodeRunner, FailureMode, Reply};
use envs::Frame;

use crate::commands::Args;
use crate::png_out::encode_png;

/// Everything needed to talk to one model.
#[derive(Clone)]
pub struct EndpointConfig {
    pub endpoint: Endpoint,
    /// Never printed and never recorded.
    pub api_key: Option<String>,
    pub timeout: Duration,
    pub session: SessionConfig,
    pub prices: Prices,
}

fn choice<T: Copy>(args: &Args, flag: &str, options: &[(&str, T)]) -> Result<Option<T>, String> {
    let Some(v) = args.value(flag) else {
        return Ok(None);
    };
    options
        .iter()
        .find(|(name, _)| *name == v)
        .map(|(_, t)| Some(*t))
        .ok_or_else(|| {
            let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
            format!("{flag} wants {}, got {v:?}", names.join(" or "))
        })
}

fn float(args: &Args, flag: &str) -> Result<Option<f64>, String> {
    args.value(flag)
        .map(|t| {
            t.parse::<f64>()
                .map_err(|_| format!("{flag} wants a number, got {t:?}"))
        })
        .transpose()
}

impl EndpointConfig {
    /// From `--provider --base-url --model [--api-key-env VAR] [--history K]
    /// [--temperature T] [--max-tokens N] [--timeout S] [--strictness exact|lenient]
    /// [--observation image|text|both] [--feedback] [--reward task|shown|hidden]
    /// [--header 'Name: value'] [--price-in USD] [--price-out USD]`.
    pub fn from_args(args: &Args) -> Result<Self, String> {
        let provider = args
            .value("--provider")
            .ok_or("--provider openai|anthropic|gemini is required with --agent endpoint")?;
        let provider = Provider::parse(provider).ok_or_else(|| {
            format!("unknown provider {provider:?}: expected openai, anthropic or gemini")
        })?;
        let base_url = args
            .value("--base-url")
            .ok_or("--base-url URL is required with --agent endpoint")?
            .to_string();
        let model = args
            .value("--model")
            .ok_or("--model NAME is required with --agent endpoint")?
            .to_string();
        let api_key = match args.value("--api-key-env") {
            Some(var) => Some(std::env::var(var).map_err(|_| {
                format!("--api-key-env: the environment variable {var} is not set")
            })?),
            None => None,
        };
        let max_output_tokens = match args.value("--max-tokens") {
            Some(_) => Some(
                u32::try_from(args.number("--max-tokens", 0)?)
                    .map_err(|_| "--max-tokens is too large".to_string())?,
            ),
            None => None,
        };
        let history = match args.value("--history") {
            None | Some("full") => HistoryWindow::Full,
            Some(_) => match u32::try_from(args.number("--history", 0)?) {
                Ok(k) if k >= 1 => HistoryWindow::Last(k),
                _ => return Err("--history wants full or a number of turns >= 1".into()),
            },
        };
        let strictness = choice(
            args,
            "--strictness",
            &[
                ("exact", Strictness::Exact),
                ("lenient", Strictness::Lenient),
            ],
        )?
        .unwrap_or_default();
        let observation = choice(
            args,
            "--observation",
            &[
                ("image", ObservationMode::Image),
                ("text", ObservationMode::Text),
                ("both", ObservationMode::Both),
            ],
        )?
        .unwrap_or_default();
        let reward = choice(
            args,
            "--reward",
            &[
                ("task", RewardMode::Task),
                ("shown", RewardMode::Shown),
                ("hidden", RewardMode::Hidden),
            ],
        )?
        .unwrap_or_default();
        let headers = match args.value("--header") {
            Some(h) => {
                let (name, value) = h
                    .split_once(':')
                    .ok_or_else(|| format!("--header wants 'Name: value', got {h:?}"))?;
                vec![(name.trim().to_string(), value.trim().to_string())]
            }
            None => Vec::new(),
        };
        Ok(Self {
            endpoint: Endpoint {
                provider,
                base_url,
                sampling: Sampling {
                    model,
                    temperature: float(args, "--temperature")?,
                    max_output_tokens,
                },
                headers,
            },
            api_key,
            timeout: Duration::from_secs(args.number("--timeout", 120)?.max(1)),
            session: SessionConfig {
                strictness,
                history,
                observation,
                feedback: args.has("--feedback"),
                reward,
                ..SessionConfig::default()
            },
            prices: Prices {
                input_per_million: float(args, "--price-in")?,
                output_per_million: float(args, "--price-out")?,
            },
        })
    }
}

/// The agent for `playbench run --agent endpoint ...`.
pub fn agent(args: &Args) -> Result<Box<dyn Agent>, String> {
    Ok(Box::new(EndpointAgent::new(EndpointConfig::from_args(
        args,
    )?)))
}

pub struct EndpointAgent {
    config: EndpointConfig,
    session: Result<ModelSession, String>,
    /// Captioned demonstration frames, by clip.
    demos: Vec<Vec<Frame>>,
    images: HashMap<ImageRef, EncodedImage>,
    usage: Usage,
}

impl EndpointAgent {
    pub fn new(config: EndpointConfig) -> Self {
        Self {
            config,
            session: Err("the episode has not begun".into()),
            demos: Vec::new(),
            images: HashMap::new(),
            usage: Usage::default(),
        }
    }

    fn image(
        images: &mut HashMap<ImageRef, EncodedImage>,
        demos: &[Vec<Frame>],
        r: &ImageRef,
    ) -> Result<EncodedImage, String> {
        if let Some(img) = images.get(r) {
            return Ok(img.clone());
        }
        let frame = match *r {
            ImageRef::DemoFrame { clip, frame } => demos
                .get(clip)
                .and_then(|c| c.get(frame))
                .ok_or_else(|| format!("no frame {frame} in demonstration {clip}"))?,
            _ => return Err(format!("image {r:?} is not available")),
        };
        let img = EncodedImage::from_bytes("image/png", &encode_png(frame)?);
        images.insert(*r, img.clone());
        Ok(img)
    }

    /// One request: the reply text, or the classified error.
    fn send(&mut self, messages: &[Message]) -> Result<String, ApiError> {
        let (images, demos) = (&mut self.images, &self.demos);
        let c = &self.config;
        let req = c.endpoint.request(c.api_key.as_deref(), messages, |r| {
            Self::image(images, demos, r)
        })?;
        let started = Instant::now();
        let resp = http_post(&req.url, &req.headers, &req.body, c.timeout);
        self.usage.requests += 1;
        self.usage.latency_ms += started.elapsed().as_millis() as u64;
        let resp = resp.map_err(|e| ApiError::new(ErrorKind::Transport, e))?;
        let text = String::from_utf8_lossy(&resp.body).into_owned();
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let answer = c
            .endpoint
            .response(resp.status, resp.header("retry-after"), now, &text)?;
        if let Some((i, o)) = answer.usage {
            self.usage.input_tokens += i;
            self.usage.output_tokens += o;
            self.usage.cost_usd = c
                .prices
                .cost(self.usage.input_tokens, self.usage.output_tokens);
        }
        Ok(answer.text)
    }
}

impl Agent for EndpointAgent {
    fn name(&self) -> String {
        format!(
            "endpoint:{}:{}",
            self.config.endpoint.provider.name(),
            self.config.endpoint.sampling.model
        )
    }

    fn begin(&mut self, runner: &EpisodeRunner) {
        let task = runner.task();
        self.images.clear();
        self.usage = Usage::default();
        self.demos = match task
            .demos
            .iter()
            .map(|c| render_clip(task, c))
            .collect::<Result<Vec<_>, _>>()
        {
            Ok(d) => d,
            Err(e) => {
                self.session = Err(e.to_string());
                return;
            }
        };
        self.session = ModelSession::new(task, self.config.session).map_err(|e| e.to_string());
    }

    fn decide(&mut self, runner: &EpisodeRunner) -> Reply {
        let fail = Reply::Fail {
            failure: FailureMode::ApiError,
            rejected: Vec::new(),
        };
        let current = ImageRef::Current {
            step: runner.step_count(),
        };
        let mut frame = Frame::default();
        runner.env().render(&mut frame);
        match encode_png(&frame) {
            Ok(bytes) => {
                let mime = "image/png".to_string();
                self.images
                    .insert(current, EncodedImage::from_bytes(&mime, &bytes));
            }
            Err(e) => {
                eprintln!("playbench: endpoint: encoding the frame: {e}");
                return fail;
            }
        }
        loop {
            let plan = match self.session.as_mut() {
                Ok(s) => s.next_request(runner),
                Err(e) => {
                    eprintln!("playbench: endpoint: {e}");
                    return fail;
                }
            };
            let Some(plan) = plan else { return fail };
            std::thread::sleep(Duration::from_millis(plan.wait_before_ms));
            let answer = self.send(&plan.messages);
            let Ok(session) = self.session.as_mut() else {
                return fail;
            };
            let next = match answer {
                Ok(text) => session.on_reply(&text),
                Err(e) => {
                    let msg = redact(&e.message, self.config.api_key.as_deref());
                    let next = session.on_error(e);
                    match &next {
                        Next::Ask => eprintln!(
                            "playbench: endpoint: {msg} (retry {} of 3)",
                            session.transport_retries()
                        ),
                        Next::Decide(_) => eprintln!("playbench: endpoint: {msg}"),
                    }
                    next
                }
            };
            if let Next::Decide(reply) = next {
                return reply;
            }
        }
    }

    fn usage(&self) -> Option<Usage> {
        Some(self.usage.clone())
    }
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
    std::io::Read::read_to_end(&mut response.into_reader(), &mut body)
        .map_err(|e| format!("reading the answer from {url}: {e}"))?;
    Ok(HttpResponse {
        status,
        headers,
        body,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_comes_from_the_environment_and_is_redacted() {
        let args = |v: &[&str]| Args::new(v.iter().map(|s| s.to_string()).collect());
        let base = [
            "--provider",
            "gemini",
            "--base-url",
            "http://h/v1beta",
            "--model",
            "g",
        ];
        let mut a = base.to_vec();
        a.extend(["--api-key-env", "PLAYBENCH_TEST_SURELY_UNSET_VAR"]);
        assert!(EndpointConfig::from_args(&args(&a))
            .err()
            .unwrap()
            .contains("is not set"));
        let mut a = base.to_vec();
        a.extend([
            "--history",
            "3",
            "--strictness",
            "lenient",
            "--header",
            "X-A: b",
        ]);
        let c = EndpointConfig::from_args(&args(&a)).unwrap();
        assert_eq!(c.session.history, HistoryWindow::Last(3));
        assert_eq!(
            c.endpoint.headers,
            vec![("X-A".to_string(), "b".to_string())]
        );
        let mut a = base.to_vec();
        a.extend(["--observation", "both", "--feedback", "--reward", "shown"]);
        let c = EndpointConfig::from_args(&args(&a)).unwrap();
        assert_eq!(c.session.observation, ObservationMode::Both);
        assert!(c.session.feedback);
        assert_eq!(c.session.reward, RewardMode::Shown);
        let mut a = base.to_vec();
        a.extend(["--observation", "smell"]);
        let e = EndpointConfig::from_args(&args(&a)).err().unwrap();
        assert!(e.contains("image or text or both"), "{e}");
        let mut a = base.to_vec();
        a.extend(["--history", "0"]);
        assert!(EndpointConfig::from_args(&args(&a)).is_err());
    }
}
