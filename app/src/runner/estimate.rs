//! What a model run will send, shown before it starts: requests, images and bytes for
//! an episode played like the oracle's (the conversation replayed through the same
//! session the run uses: V-ICAL's, VisGym's or GameVerse's) and for one that uses the whole decision budget, with
//! each image counted at the size of the task's first frame as the run encodes it.
//! Transport retries and reply retries come on top.

use bench::agents::OracleAgent;
use bench::encode::first_image;
use bench::protocol::endpoint::Prices;
use bench::protocol::gameverse::GameVerseSession;
use bench::protocol::prompt::{Message, Part};
use bench::protocol::providers::{Provider, DEFAULT_MAX_TOKENS};
use bench::protocol::session::{ModelSession, Next, Protocol, RequestPlan, SessionConfig};
use bench::protocol::visgym::VisGymSession;
use bench::{run_episode, EpisodeRecord, EpisodeRunner, Task};

use super::profiles::Profile;
use super::settings::RunSettings;
use super::tokens::{grouped, image_tokens, text_tokens};

/// Totals for one conversation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sent {
    pub requests: u32,
    pub images: u64,
    /// Base64 image data and text, in bytes (the JSON around them is small).
    pub bytes: u64,
    pub largest_request: u64,
    /// The text alone, in bytes.
    pub text: u64,
}

impl Sent {
    fn add(&mut self, images: u64, text: u64, image_bytes: u64) {
        let bytes = images * image_bytes + text;
        self.requests += 1;
        self.images += images;
        self.text += text;
        self.bytes += bytes;
        self.largest_request = self.largest_request.max(bytes);
    }

    fn plus(mut self, other: &Sent, times: u64) -> Sent {
        self.requests += other.requests * times as u32;
        self.images += other.images * times;
        self.text += other.text * times;
        self.bytes += other.bytes * times;
        self.largest_request = self.largest_request.max(other.largest_request);
        self
    }

    /// Input tokens, about, with each image `image_tokens`.
    pub fn input_tokens(&self, image_tokens: u64) -> u64 {
        self.images * image_tokens + text_tokens(self.text)
    }
}

/// What sizes and prices turn an estimate into tokens and dollars.
#[derive(Clone, Debug, PartialEq)]
pub struct Pricing {
    pub provider: Provider,
    /// The size of each image as sent.
    pub image: (u32, u32),
    /// The most output tokens per request, when the profile (or the API) sets it.
    pub max_output_tokens: Option<u32>,
    pub prices: Prices,
}

impl Pricing {
    pub fn of(profile: &Profile, image: (u32, u32)) -> Self {
        let max_output_tokens = profile
            .max_output_tokens
            .or((profile.provider == Provider::Anthropic).then_some(DEFAULT_MAX_TOKENS));
        Self {
            provider: profile.provider,
            image,
            max_output_tokens,
            prices: profile.prices,
        }
    }

    /// Tokens, and the price when the profile has prices, for `like_oracle` and
    /// `whole_budget`, in words.
    pub fn text(&self, like_oracle: &Sent, whole_budget: &Sent) -> String {
        let per_image = image_tokens(self.provider, self.image.0, self.image.1);
        let (low, high) = (
            like_oracle.input_tokens(per_image),
            whole_budget.input_tokens(per_image),
        );
        let mut out = format!(
            "About {} to {} input tokens ({} per {}×{} image by {} rule; your server may \
             count otherwise)",
            grouped(low),
            grouped(high),
            per_image,
            self.image.0,
            self.image.1,
            match self.provider {
                Provider::OpenAi => "OpenAI's",
                Provider::Anthropic => "Anthropic's",
                Provider::Gemini => "Google's",
            }
        );
        let out_max = self
            .max_output_tokens
            .map(|m| u64::from(m) * u64::from(whole_budget.requests));
        if let Some(m) = out_max {
            out.push_str(&format!(", and at most {} output tokens", grouped(m)));
        }
        match (
            self.prices.cost(low, 0),
            self.prices.cost(high, out_max.unwrap_or(0)),
        ) {
            (Some(a), Some(b)) => out.push_str(&format!(
                "; at this profile's prices about ${a:.2} to ${b:.2}{}.",
                if out_max.is_some() {
                    ""
                } else {
                    " plus the replies"
                }
            )),
            _ => out.push_str(". Add prices to the profile on Models to see a cost."),
        }
        out
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// Played like the oracle (the fewest decisions that pass).
    pub like_oracle: Sent,
    /// Every decision of the budget used.
    pub whole_budget: Sent,
}

fn count(messages: &[Message]) -> (u64, u64) {
    let images = messages.iter().map(|m| m.images().count() as u64).sum();
    let text = messages
        .iter()
        .flat_map(|m| m.parts.iter())
        .map(|p| match p {
            Part::Text(t) | Part::TextBlock(t) => t.len() as u64,
            _ => 0,
        })
        .sum();
    (images, text)
}

/// The estimate for `task` under `config`, each image taken as `image_bytes` bytes
/// (base64). The whole budget continues the oracle's conversation: each later request
/// grows as the oracle's last one did over the one before.
pub fn estimate(task: &Task, config: SessionConfig, image_bytes: u64) -> Result<Estimate, String> {
    let oracle = run_episode(task, &mut OracleAgent::new()).map_err(|e| e.to_string())?;
    let mut runner = EpisodeRunner::start(task).map_err(|e| e.to_string())?;
    let mut session: Box<dyn Conversation> = match config.protocol {
        Protocol::Gameverse => {
            return estimate_gameverse(task, config, image_bytes, &oracle, runner)
        }
        Protocol::Vical => Box::new(ModelSession::new(task, config).map_err(|e| e.to_string())?),
        Protocol::Visgym => Box::new(VisGym {
            session: VisGymSession::new(task, &runner, config)?,
            verbalize: config.verbalize,
        }),
    };
    let mut like_oracle = Sent::default();
    let mut sizes = Vec::new();
    for d in &oracle.decisions {
        let Some(plan) = session.next_request(&runner) else {
            break;
        };
        let (images, text) = count(&plan.messages);
        like_oracle.add(images, text, image_bytes);
        sizes.push((images, text));
        match session.on_action(&d.action) {
            Next::Decide(reply) => {
                ModelSession::settle(&mut runner, reply).map_err(|e| e.to_string())?
            }
            Next::Ask => return Err("the oracle's action was not accepted".into()),
        }
    }
    let mut whole_budget = like_oracle;
    let (mut images, mut text) = sizes.last().copied().unwrap_or((0, 0));
    let (step_images, step_text) = match sizes.as_slice() {
        [.., a, b] => (b.0.saturating_sub(a.0), b.1.saturating_sub(a.1)),
        _ => (0, 0),
    };
    for _ in sizes.len()..task.max_steps as usize {
        images += step_images;
        text += step_text;
        whole_budget.add(images, text, image_bytes);
    }
    Ok(Estimate {
        like_oracle,
        whole_budget,
    })
}

/// V-ICAL's and VisGym's conversations, replayed with the oracle's actions.
trait Conversation {
    fn next_request(&mut self, runner: &EpisodeRunner) -> Option<RequestPlan>;
    /// The reply a model would give to choose `action`.
    fn on_action(&mut self, action: &str) -> Next;
}

impl Conversation for ModelSession {
    fn next_request(&mut self, runner: &EpisodeRunner) -> Option<RequestPlan> {
        ModelSession::next_request(self, runner)
    }
    fn on_action(&mut self, action: &str) -> Next {
        self.on_reply(&format!("[Action: {action}]"))
    }
}

struct VisGym {
    session: VisGymSession,
    /// The harness reads the action inside `<answer>` when it asks for reasoning.
    verbalize: bool,
}

impl Conversation for VisGym {
    fn next_request(&mut self, runner: &EpisodeRunner) -> Option<RequestPlan> {
        self.session.next_request(runner)
    }
    fn on_action(&mut self, action: &str) -> Next {
        if self.verbalize {
            self.session.on_reply(&format!("<answer>{action}</answer>"))
        } else {
            self.session.on_reply(action)
        }
    }
}

/// GameVerse's conversation (docs/gameverse.md, "Harness"): its own session replayed
/// with the oracle's moves under `### Actions` — one request per step for the zero-shot
/// agent, two for the memory agent (whose history review gets the same text). Its
/// requests do not grow with the episode (the memory agent's review stops growing at
/// five pairs), so the whole budget repeats the last decision's requests.
fn estimate_gameverse(
    task: &Task,
    config: SessionConfig,
    image_bytes: u64,
    oracle: &EpisodeRecord,
    mut runner: EpisodeRunner,
) -> Result<Estimate, String> {
    let mut session = GameVerseSession::new(task, &runner, config)?;
    let mut like_oracle = Sent::default();
    let mut last_decision = Vec::new();
    'decisions: for d in &oracle.decisions {
        let mut requests = Vec::new();
        loop {
            let Some(plan) = session.next_request(&runner) else {
                break 'decisions;
            };
            let (images, text) = count(&plan.messages);
            like_oracle.add(images, text, image_bytes);
            requests.push((images, text));
            let reply = format!("### Reasoning\n\n### Actions\n{}", d.action);
            if let Next::Decide(reply) = session.on_reply(&reply) {
                ModelSession::settle(&mut runner, reply).map_err(|e| e.to_string())?;
                break;
            }
        }
        last_decision = requests;
    }
    let mut whole_budget = like_oracle;
    for _ in oracle.decisions.len()..task.max_steps as usize {
        for &(images, text) in &last_decision {
            whole_budget.add(images, text, image_bytes);
        }
    }
    Ok(Estimate {
        like_oracle,
        whole_budget,
    })
}

/// The estimate for `task` run with `settings`, with the size of each image as sent:
/// the task's first frame encoded as the run will encode it (`bench::encode::first_image`).
pub fn run_estimate(task: &Task, settings: &RunSettings) -> Result<(Estimate, (u32, u32)), String> {
    let first = first_image(task, settings.session.protocol, settings.image)?;
    Ok((
        estimate(task, settings.session, first.image.base64().len() as u64)?,
        first.size,
    ))
}

/// [`run_estimate`] in words, with tokens and cost for `profile`.
pub fn run_estimate_text(
    task: &Task,
    settings: &RunSettings,
    profile: &Profile,
) -> Result<String, String> {
    let (e, size) = run_estimate(task, settings)?;
    Ok(format!(
        "{} {}",
        e.text(),
        Pricing::of(profile, size).text(&e.like_oracle, &e.whole_budget)
    ))
}

/// The estimate for a suite run: every task of `tasks`, `episodes` times its trials.
/// Images
/// are taken at the size of the largest first frame, for the tokens.
pub fn suite_estimate_text(
    tasks: &[&Task],
    episodes: u32,
    settings: &RunSettings,
    profile: &Profile,
) -> Result<String, String> {
    let (mut like_oracle, mut whole_budget) = (Sent::default(), Sent::default());
    let mut size = (0, 0);
    let mut count = 0;
    for task in tasks {
        let (e, s) = run_estimate(task, settings).map_err(|err| format!("{}: {err}", task.id))?;
        let n = u64::from(episodes) * u64::from(task.trial_count());
        count += n;
        like_oracle = like_oracle.plus(&e.like_oracle, n);
        whole_budget = whole_budget.plus(&e.whole_budget, n);
        if s.0 * s.1 > size.0 * size.1 {
            size = s;
        }
    }
    let e = Estimate {
        like_oracle,
        whole_budget,
    };
    Ok(format!(
        "For {count} episode(s): {} {}",
        e.text()
            .trim_start_matches("Before you start: ")
            .replacen("played", "Played", 1),
        Pricing::of(profile, size).text(&e.like_oracle, &e.whole_budget)
    ))
}

/// Bytes in words: "812 KB", "3.4 MB".
pub fn bytes_text(n: u64) -> String {
    if n >= 1_000_000 {
        format!("{:.1} MB", n as f64 / 1_000_000.0)
    } else {
        format!("{} KB", n.div_ceil(1000))
    }
}

impl Estimate {
    /// One line for the run page.
    pub fn text(&self) -> String {
        let line = |s: &Sent| {
            format!(
                "{} requests, {} images, about {} (largest request {})",
                s.requests,
                s.images,
                bytes_text(s.bytes),
                bytes_text(s.largest_request)
            )
        };
        format!(
            "Before you start: played like the oracle, {}; using the whole budget, up to {}. \
             Retries come on top.",
            line(&self.like_oracle),
            line(&self.whole_budget)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench::protocol::session::HistoryWindow;

    #[test]
    fn a_suite_estimate_sums_its_tasks() {
        let suite = crate::suite_data::suite().unwrap();
        let tasks: Vec<&Task> = suite
            .tasks
            .iter()
            .filter(|t| t.id.starts_with("frozenlake-4x4"))
            .collect();
        let settings = RunSettings::default();
        let one = |t: &Task| run_estimate(t, &settings).unwrap().0.whole_budget.requests;
        let requests: u32 = tasks.iter().map(|t| one(t)).sum();
        let words = suite_estimate_text(&tasks, 2, &settings, &Profile::default()).unwrap();
        assert!(
            words.starts_with(&format!(
                "For {} episode(s): Played like the oracle, ",
                tasks.len() * 2
            )),
            "{words}"
        );
        assert!(
            words.contains(&format!("up to {} requests", requests * 2)),
            "{words}"
        );
    }

    #[test]
    fn gameverse_estimates_count_one_or_two_requests_per_step() {
        let suite = bench::suites::latest("gameverse").unwrap();
        let task = suite
            .tasks
            .iter()
            .find(|t| t.env == "GameVerse/Maze")
            .unwrap();
        let oracle = run_episode(task, &mut OracleAgent::new()).unwrap();
        let steps = oracle.decisions.len() as u32;
        let mut config = SessionConfig {
            protocol: Protocol::Gameverse,
            ..SessionConfig::default()
        };
        let zero_shot = estimate(task, config, 1000).unwrap();
        assert_eq!(zero_shot.like_oracle.requests, steps);
        assert_eq!(zero_shot.whole_budget.requests, task.max_steps);
        // The previous and current screenshots, but no previous one at the first step.
        assert_eq!(zero_shot.like_oracle.images, 2 * u64::from(steps) - 1);
        config.gameverse_agent = bench::protocol::session::GameVerseAgent::Memory;
        let memory = estimate(task, config, 1000).unwrap();
        // No history review before the first decision.
        assert_eq!(memory.like_oracle.requests, 2 * steps - 1);
        assert_eq!(memory.whole_budget.requests, 2 * task.max_steps - 1);
        assert!(memory.like_oracle.text > zero_shot.like_oracle.text);
    }

    #[test]
    fn visgym_estimates_count_visgyms_conversation_at_its_image_size() {
        let suite = bench::suites::latest("visgym").unwrap();
        // Frames of 512×256.
        let task = suite
            .tasks
            .iter()
            .find(|t| t.env == "mental_rotation_3d_cube/easy")
            .unwrap();
        let oracle = run_episode(task, &mut OracleAgent::new()).unwrap();
        let steps = oracle.decisions.len() as u64;
        let mut settings = RunSettings::default();
        settings.session.protocol = Protocol::Visgym;
        let (e, size) = run_estimate(task, &settings).unwrap();
        assert_eq!(u64::from(e.like_oracle.requests), steps);
        assert_eq!(e.whole_budget.requests, task.max_steps);
        // The full history: the k-th request carries the k frames seen so far.
        assert_eq!(e.like_oracle.images, steps * (steps + 1) / 2);
        // Shrunk by the harness, not sent at the frame's size.
        assert_eq!(size, (336, 168));
        // The oracle's actions were read: its episode ends where the run's would.
        assert!(steps < u64::from(task.max_steps));
        let windowed = SessionConfig {
            history: HistoryWindow::Last(1),
            ..settings.session
        };
        let w = estimate(task, windowed, 1000).unwrap();
        assert!(w.like_oracle.images < e.like_oracle.images);
    }

    #[test]
    fn the_estimate_counts_the_conversation_the_run_sends() {
        let suite = crate::suite_data::suite().unwrap();
        let task = suite.task("frozenlake-4x4-det-s0").unwrap();
        let config = SessionConfig::default();
        let e = estimate(task, config, 1000).unwrap();
        let oracle = run_episode(task, &mut OracleAgent::new()).unwrap();
        assert_eq!(e.like_oracle.requests as usize, oracle.decisions.len());
        assert_eq!(e.whole_budget.requests, task.max_steps);
        assert!(e.whole_budget.images > e.like_oracle.images);
        assert!(e.like_oracle.bytes >= e.like_oracle.images * 1000);
        assert!(e.whole_budget.largest_request >= e.like_oracle.largest_request);
        // A history window of one keeps later requests from growing.
        let windowed = SessionConfig {
            history: HistoryWindow::Last(1),
            ..config
        };
        let w = estimate(task, windowed, 1000).unwrap();
        assert!(w.whole_budget.images < e.whole_budget.images);
        assert!(e
            .text()
            .starts_with("Before you start: played like the oracle, "));
        let mut profile = Profile::default();
        let words = run_estimate_text(task, &RunSettings::default(), &profile).unwrap();
        assert!(
            words.contains(&format!("{} requests", task.max_steps)),
            "{words}"
        );
        assert!(words.contains("input tokens"), "{words}");
        assert!(words.ends_with("Add prices to the profile on Models to see a cost."));
        profile.prices.input_per_million = Some(2.5);
        profile.max_output_tokens = Some(100);
        let words = run_estimate_text(task, &RunSettings::default(), &profile).unwrap();
        assert!(words.contains(&format!(
            "at most {} output tokens",
            grouped(u64::from(task.max_steps) * 100)
        )));
        assert!(
            words.contains("at this profile's prices about $"),
            "{words}"
        );
        assert_eq!(bytes_text(812_300), "813 KB");
        assert_eq!(bytes_text(3_400_000), "3.4 MB");
    }
}
