//! The `playbench` command line as types: clap derives the parser and the help from
//! them (`playbench --help`, `playbench run --help`; reference in `docs/cli.md`).

use std::ffi::OsStr;
use std::marker::PhantomData;

use bench::encode::{ImageFormat, ImageSettings};
use bench::protocol::parse::Strictness;
use bench::protocol::providers::Provider;
use bench::protocol::session::{
    GameVerseAgent, HistoryWindow, ObservationMode, Protocol, RewardMode,
};
use clap::builder::{PossibleValue, TypedValueParser};
use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};

/// The Playbench benchmark from the command line: tasks, episodes, verification,
/// baselines and suites.
#[derive(Debug, Parser)]
#[command(name = "playbench", version, arg_required_else_help = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// A folder of Atari ROM files (any names; recognised by MD5, as the driver's
    /// "roms" kwarg reads them), for the Atari tasks. Playbench ships no ROM: the
    /// ale-py wheel on PyPI holds them under ale_py/roms/.
    #[arg(long, global = true, value_name = "DIR")]
    pub roms: Option<std::path::PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print a suite's tasks as a JSON array.
    Tasks(SuiteChoice),
    /// Play one task and print the episode file (or its share link), or play a whole
    /// suite and print the results table (or the results file).
    Run(RunArgs),
    /// Re-simulate an episode file or share link: prints `verified` (exit 0) or the first
    /// divergence (exit 1).
    Verify {
        /// An episode file (JSON, or a link saved as text), a link fragment (`e=pb1.…`)
        /// or a whole episode URL.
        #[arg(value_name = "FILE_OR_LINK")]
        input: String,
    },
    /// Play every task of a suite with a built-in agent and print the score table.
    Baseline(BaselineArgs),
    /// Print a suite's fresh build from its recipes (JSON), or check the committed suites.
    Suite(SuiteArgs),
    /// Audit a model's results file with an auditor model (V-ICAL's trajectory
    /// auditor): prints the audit file (`playbench-audit/1`), or with --report the
    /// attribution and transfer table.
    Audit(AuditArgs),
    /// Judge episodes against their game's milestones with a judge model (GameVerse's
    /// milestone judge) beside the exact milestones: prints the judge file
    /// (`playbench-judge/1`), or with --report the agreement table.
    Judge(JudgeArgs),
    /// Reflect and retry (GameVerse): attempts at one task with a model; after a failed
    /// attempt the model studies its failure and the expert tutorial, and what it writes
    /// fills the next attempt's prompt. Prints the run of attempts
    /// (`playbench-attempts/1`) or its link.
    Reflect(ReflectArgs),
}

#[derive(Clone, Debug, Args)]
pub struct SuiteChoice {
    /// The built-in suite (its latest version).
    #[arg(long = "suite-id", value_name = "ID", default_value = bench::suites::DEFAULT_SUITE)]
    pub suite_id: String,
}

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("what").required(true).args(["task", "suite"])))]
pub struct RunArgs {
    /// The task to play (see `playbench tasks`).
    #[arg(long, value_name = "ID")]
    pub task: Option<String>,
    /// Print the episode as a share-link fragment (`e=pb1.…`) instead of an episode file.
    #[arg(long, conflicts_with = "suite")]
    pub link: bool,
    /// Play every task of the suite (or those --filter selects).
    #[arg(long)]
    pub suite: bool,
    /// With --suite: only the tasks whose id contains TEXT.
    #[arg(long, value_name = "TEXT", conflicts_with = "task")]
    pub filter: Option<String>,
    /// With --suite: repetitions of each task (times the task's trials: GameVerse's
    /// tasks ask for several).
    #[arg(long, value_name = "N", default_value_t = 1, conflicts_with = "task")]
    pub episodes: u64,
    /// With --suite: episodes played at once (threads).
    #[arg(long, value_name = "N", default_value_t = 4, conflicts_with = "task")]
    pub concurrency: u64,
    /// With --suite: print the results file (`playbench-results/1`) instead of the table.
    #[arg(long, conflicts_with = "task")]
    pub json: bool,
    /// With --suite: also write the results file to FILE, rewritten as each episode
    /// finishes (an interrupted run keeps what finished).
    #[arg(long, value_name = "FILE", conflicts_with = "task")]
    pub out: Option<String>,
    /// With --suite: continue the run whose results --out FILE holds (the same suite,
    /// agent and settings), playing only the episodes it lacks; a missing FILE starts
    /// the run.
    #[arg(long, requires = "out", conflicts_with = "task")]
    pub resume: bool,
    /// With --suite: report each finished episode on stderr.
    #[arg(long, conflicts_with = "task")]
    pub progress: bool,
    #[command(flatten)]
    pub suite_id: SuiteChoice,
    #[command(flatten)]
    pub agent: AgentArgs,
}

#[derive(Debug, Args)]
pub struct BaselineArgs {
    /// Repetitions of each task.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub episodes: u64,
    /// Episodes played at once (threads).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub concurrency: u64,
    /// Print the results file (`playbench-results/1`, what `/compare` reads) instead
    /// of the table.
    #[arg(long, conflicts_with = "report")]
    pub json: bool,
    /// Print only the report as JSON (the committed baseline files).
    #[arg(long)]
    pub report: bool,
    #[command(flatten)]
    pub suite_id: SuiteChoice,
    #[command(flatten)]
    pub agent: AgentArgs,
}

#[derive(Debug, Args)]
pub struct SuiteArgs {
    /// Check that every suite's committed latest version equals a fresh build of its
    /// recipes, instead of printing one.
    #[arg(long, conflicts_with = "suite_id")]
    pub check: bool,
    /// Play the Atari search oracle from every start of the vical suite's Atari tasks
    /// and print the recording the suite replays (bench/suites/vical/atari-oracle.json;
    /// minutes in a release build; needs --roms).
    #[arg(long, conflicts_with_all = ["check", "suite_id"])]
    pub record_atari: bool,
    /// With --record-atari: record these games (task id stems, e.g. `breakout,tennis`)
    /// or starts (`breakout-served`, `breakout-demo`) only, and keep the committed
    /// recording's other plays.
    #[arg(
        long,
        value_name = "GAMES_OR_STARTS",
        requires = "record_atari",
        value_delimiter = ','
    )]
    pub only: Vec<String>,
    #[command(flatten)]
    pub suite_id: SuiteChoice,
}

#[derive(Debug, Args)]
pub struct ReflectArgs {
    /// The task (see `playbench tasks --suite-id gameverse`).
    #[arg(long, value_name = "ID")]
    pub task: String,
    /// The built-in suite (its latest version).
    #[arg(long = "suite-id", value_name = "ID", default_value = "gameverse")]
    pub suite_id: String,
    /// What the model studies after a failed attempt: nothing, its failure, the expert
    /// tutorial, both, or another model's experience (--import).
    #[arg(long, value_name = "none|failure|tutorial|both|other", default_value = "both",
        value_parser = condition)]
    pub condition: bench::reflect::Condition,
    /// Attempts in all.
    #[arg(long, value_name = "N", default_value_t = 3,
        value_parser = clap::value_parser!(u32).range(1..=20))]
    pub attempts: u32,
    /// With --condition other: the experience to give (GameVerse's experience file, a
    /// run of attempts as a file or link, or a text file).
    #[arg(long, value_name = "FILE_OR_LINK")]
    pub import: Option<String>,
    /// The experience's word limit.
    #[arg(long, value_name = "N", default_value_t = bench::reflect::prompts::MAX_EXPERIENCE_WORDS)]
    pub max_words: usize,
    /// Images one reflection request may carry (default: the provider's limit); longer
    /// videos are sampled at half the rate until they fit.
    #[arg(long, value_name = "N")]
    pub max_images: Option<usize>,
    /// Print the run as a share-link fragment (`a=pa1.…`) instead of the file.
    #[arg(long)]
    pub link: bool,
    /// Also write the run's file to FILE.
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// The player is a model endpoint (the endpoint options below).
    #[arg(long, hide = true, default_value = "endpoint", value_parser = ["endpoint"])]
    pub agent: String,
    #[command(flatten)]
    pub endpoint: EndpointArgs,
    #[command(flatten)]
    pub image: ImageArgs,
}

fn condition(s: &str) -> Result<bench::reflect::Condition, String> {
    bench::reflect::Condition::parse(s)
        .ok_or_else(|| format!("expected one of none, failure, tutorial, both, other; got {s:?}"))
}

#[derive(Debug, Args)]
pub struct AuditArgs {
    /// Results files to audit (`playbench-results/1`, a model run), and audit files
    /// (`playbench-audit/1`): one of the same results file is resumed, the others lend
    /// their task references and join the --report table.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<String>,
    /// Print the report table over every audit instead of the audit file.
    #[arg(long)]
    pub report: bool,
    /// Also write the audit file to FILE (one results file).
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// The auditor is a model endpoint (the endpoint options below; the options of
    /// the playing conversation are not used).
    #[arg(long, hide = true, default_value = "endpoint", value_parser = ["endpoint"])]
    pub agent: String,
    #[command(flatten)]
    pub endpoint: EndpointArgs,
    #[command(flatten)]
    pub image: ImageArgs,
}

#[derive(Debug, Args)]
pub struct JudgeArgs {
    /// What to judge: a results file (`playbench-results/1`, any agent), episode files
    /// or share links; and judge files (`playbench-judge/1`): one of the same episodes
    /// is resumed, the others join the --report table.
    #[arg(value_name = "FILE_OR_LINK", required = true)]
    pub inputs: Vec<String>,
    /// Print the agreement table instead of the judge file.
    #[arg(long)]
    pub report: bool,
    /// Also write the judge file to FILE.
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// The most images one request carries: a longer step video is halved (first and
    /// last frame kept) until it fits.
    #[arg(long, value_name = "N", default_value_t = bench::judge::run::DEFAULT_MAX_IMAGES)]
    pub max_images: usize,
    /// The judge is a model endpoint (the endpoint options below; the options of the
    /// playing conversation are not used).
    #[arg(long, hide = true, default_value = "endpoint", value_parser = ["endpoint"])]
    pub agent: String,
    #[command(flatten)]
    pub endpoint: EndpointArgs,
    #[command(flatten)]
    pub image: ImageArgs,
}

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AgentKind {
    /// Uniformly random over the task's actions (seeded).
    Random,
    /// The environment's oracle solver.
    Oracle,
    /// A model behind an HTTP API (the endpoint options below).
    Endpoint,
}

#[derive(Clone, Debug, Args)]
pub struct AgentArgs {
    /// Who plays.
    #[arg(long, value_parser = Named::<AgentKind>::new("agent"))]
    pub agent: AgentKind,
    /// The random agent's seed: repetition r of a task plays with S × 1000003 + r.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub endpoint: EndpointArgs,
    #[command(flatten)]
    pub image: ImageArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ProviderKind {
    /// OpenAI-compatible Chat Completions (also vLLM, Ollama, LM Studio, llama.cpp, LiteLLM).
    Openai,
    /// Anthropic Messages.
    Anthropic,
    /// Google Gemini generateContent.
    Gemini,
}

impl ProviderKind {
    pub fn provider(self) -> Provider {
        match self {
            Self::Openai => Provider::OpenAi,
            Self::Anthropic => Provider::Anthropic,
            Self::Gemini => Provider::Gemini,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum StrictnessArg {
    /// The first line starts with `[Action: NAME]`, NAME one of the actions exactly.
    #[default]
    Exact,
    /// Also any letter case, extra spaces and Markdown emphasis or code marks.
    Lenient,
}

impl From<StrictnessArg> for Strictness {
    fn from(s: StrictnessArg) -> Self {
        match s {
            StrictnessArg::Exact => Self::Exact,
            StrictnessArg::Lenient => Self::Lenient,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ObservationArg {
    /// The frame as an image.
    #[default]
    Image,
    /// The environment's text rendering.
    Text,
    /// Both.
    Both,
}

impl From<ObservationArg> for ObservationMode {
    fn from(o: ObservationArg) -> Self {
        match o {
            ObservationArg::Image => Self::Image,
            ObservationArg::Text => Self::Text,
            ObservationArg::Both => Self::Both,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ProtocolArg {
    /// V-ICAL's conversation: rules, demonstrations, `[Action: NAME]` replies.
    #[default]
    Vical,
    /// VisGym's harness word for word: the environment's instructions, the budget in
    /// each turn, free-text replies read by its parser, frames shrunk to 336 px as JPEG.
    Visgym,
    /// GameVerse's agent loop word for word (its open games only): the game's own
    /// prompts, two messages per step with the previous and current screenshots as PNG,
    /// replies read under `### Actions`, no format retries.
    Gameverse,
}

impl From<ProtocolArg> for Protocol {
    fn from(p: ProtocolArg) -> Self {
        match p {
            ProtocolArg::Vical => Self::Vical,
            ProtocolArg::Visgym => Self::Visgym,
            ProtocolArg::Gameverse => Self::Gameverse,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum GameVerseAgentArg {
    /// One request per step: the previous and current screenshots and the last action
    /// text (GameVerse runs its open games with it).
    #[default]
    ZeroShot,
    /// Two requests per step, a history review then the action with long-term memory
    /// (Playbench's templates; Maze, 2048 and Snake, semantic mode).
    Memory,
}

impl From<GameVerseAgentArg> for GameVerseAgent {
    fn from(a: GameVerseAgentArg) -> Self {
        match a {
            GameVerseAgentArg::ZeroShot => Self::ZeroShot,
            GameVerseAgentArg::Memory => Self::Memory,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum RewardArg {
    /// As the task says (hidden for every V-ICAL task).
    #[default]
    Task,
    /// Always shown.
    Shown,
    /// Never shown.
    Hidden,
}

impl From<RewardArg> for RewardMode {
    fn from(r: RewardArg) -> Self {
        match r {
            RewardArg::Task => Self::Task,
            RewardArg::Shown => Self::Shown,
            RewardArg::Hidden => Self::Hidden,
        }
    }
}

#[derive(Clone, Debug, Args)]
#[command(next_help_heading = "Model endpoint (with --agent endpoint)")]
pub struct EndpointArgs {
    /// The API's request shape.
    #[arg(
        long,
        required_if_eq("agent", "endpoint"),
        value_parser = Named::<ProviderKind>::new("provider")
    )]
    pub provider: Option<ProviderKind>,
    /// The API's base URL, `http://` or `https://` (e.g. https://api.openai.com/v1).
    #[arg(long, value_name = "URL", required_if_eq("agent", "endpoint"))]
    pub base_url: Option<String>,
    /// The model's name at the endpoint.
    #[arg(long, value_name = "NAME", required_if_eq("agent", "endpoint"))]
    pub model: Option<String>,
    /// The environment variable holding the API key (never printed or stored).
    #[arg(long, value_name = "VAR")]
    pub api_key_env: Option<String>,
    /// Which harness talks to the model.
    #[arg(long, value_enum, default_value_t)]
    pub protocol: ProtocolArg,
    /// Turns of conversation kept in each request: `full`, or the last K (K ≥ 1; with
    /// `--protocol visgym` also 0: every turn alone).
    #[arg(long, value_name = "full|K", default_value = "full", value_parser = history_window)]
    pub history: HistoryWindow,
    /// VisGym: ask for reasoning in <think>…</think> and read the action from
    /// <answer>…</answer>.
    #[arg(long)]
    pub verbalize: bool,
    /// VisGym: show the solved state in the first turn (full history, images only).
    #[arg(long)]
    pub final_goal: bool,
    /// VisGym: repeat the instructions in every later turn.
    #[arg(long)]
    pub repeat_instructions: bool,
    /// GameVerse: which of its agents plays (with --protocol gameverse).
    #[arg(long, value_enum, default_value_t)]
    pub gameverse_agent: GameVerseAgentArg,
    /// Sampling temperature (the provider's default when absent).
    #[arg(long, value_name = "T")]
    pub temperature: Option<f64>,
    /// Output token limit per reply.
    #[arg(long, value_name = "N")]
    pub max_tokens: Option<u32>,
    /// Seconds one request may take, the whole exchange (at least 1).
    #[arg(long, value_name = "S", default_value_t = 120)]
    pub timeout: u64,
    /// How strictly replies are parsed.
    #[arg(long, value_enum, default_value_t)]
    pub strictness: StrictnessArg,
    /// What the model sees of each state.
    #[arg(long, value_enum, default_value_t)]
    pub observation: ObservationArg,
    /// Tell the model what each action did (textual feedback after each action).
    #[arg(long)]
    pub feedback: bool,
    /// Whether rewards are shown to the model.
    #[arg(long, value_enum, default_value_t)]
    pub reward: RewardArg,
    /// Real-time tasks whose game moves on while the model thinks (GameVerse Snake
    /// slow/normal): where each reply's thinking time comes from. `measured` (the time
    /// to the answer, retries included), `fixed:MS`, or `replay:FILE` (the latencies
    /// recorded in an episode file, to reproduce a run).
    #[arg(
        long,
        value_name = "measured|fixed:MS|replay:FILE",
        default_value = "measured"
    )]
    pub latency: String,
    /// An extra request header, `Name: value` (repeatable).
    #[arg(long, value_name = "'Name: value'", value_parser = header)]
    pub header: Vec<(String, String)>,
    /// Price of a million input tokens in US dollars (for the cost in usage).
    #[arg(long, value_name = "USD_PER_M")]
    pub price_in: Option<f64>,
    /// Price of a million output tokens in US dollars.
    #[arg(long, value_name = "USD_PER_M")]
    pub price_out: Option<f64>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ImageFormatArg {
    #[default]
    Png,
    Jpeg,
}

#[derive(Clone, Copy, Debug, Args)]
#[command(next_help_heading = "Images sent to the model (with --agent endpoint)")]
pub struct ImageArgs {
    /// How frames are encoded.
    #[arg(long, value_enum, default_value_t)]
    pub image_format: ImageFormatArg,
    /// JPEG quality, 0.1-1.
    #[arg(long, value_name = "Q", default_value_t = ImageSettings::default().quality,
          value_parser = between(0.1, 1.0))]
    pub jpeg_quality: f64,
    /// Frames are resized by this factor (nearest neighbour), 0.1-4.
    #[arg(long, value_name = "S", default_value_t = ImageSettings::default().scale,
          value_parser = between(0.1, 4.0))]
    pub image_scale: f64,
    /// V-ICAL's demonstrations as one WebM video per clip (Gemini only), encoded in
    /// Rust: the same bytes as the browser's.
    #[arg(long)]
    pub demos_as_video: bool,
    /// The demonstration videos' frame rate, 1-30 frames per second.
    #[arg(long, value_name = "FPS", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=30))]
    pub video_fps: u32,
}

impl ImageArgs {
    pub fn settings(&self) -> ImageSettings {
        ImageSettings {
            format: match self.image_format {
                ImageFormatArg::Png => ImageFormat::Png,
                ImageFormatArg::Jpeg => ImageFormat::Jpeg,
            },
            quality: self.jpeg_quality,
            scale: self.image_scale,
        }
    }
}

/// `full` or a number of turns (0 only with `--protocol visgym`, checked with the
/// other endpoint options).
fn history_window(text: &str) -> Result<HistoryWindow, String> {
    match text {
        "full" => Ok(HistoryWindow::Full),
        _ => match text.parse::<u32>() {
            Ok(k) => Ok(HistoryWindow::Last(k)),
            _ => Err("--history wants full or a number of turns".into()),
        },
    }
}

/// `Name: value`.
fn header(text: &str) -> Result<(String, String), String> {
    let (name, value) = text
        .split_once(':')
        .ok_or_else(|| format!("--header wants 'Name: value', got {text:?}"))?;
    Ok((name.trim().to_string(), value.trim().to_string()))
}

/// A number within `low..=high`.
fn between(low: f64, high: f64) -> impl Fn(&str) -> Result<f64, String> + Clone {
    move |text: &str| match text.parse::<f64>() {
        Ok(v) if (low..=high).contains(&v) => Ok(v),
        _ => Err(format!("wants a number from {low} to {high}")),
    }
}

/// The words "a, b or c".
fn or_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// A `ValueEnum` choice refused as "unknown agent "x": expected random, oracle or
/// endpoint" (the words scripts and tests already know), with the possible values still
/// listed in the help.
#[derive(Clone)]
pub struct Named<E> {
    what: &'static str,
    values: PhantomData<E>,
}

impl<E> Named<E> {
    pub fn new(what: &'static str) -> Self {
        Self {
            what,
            values: PhantomData,
        }
    }
}

impl<E: ValueEnum + Clone + Send + Sync + 'static> TypedValueParser for Named<E> {
    type Value = E;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<E, clap::Error> {
        let text = value.to_string_lossy();
        E::from_str(&text, false).map_err(|_| {
            let names: Vec<String> = E::value_variants()
                .iter()
                .filter_map(ValueEnum::to_possible_value)
                .map(|p| p.get_name().to_string())
                .collect();
            let message = format!(
                "unknown {} {text:?}: expected {}\n",
                self.what,
                or_list(&names)
            );
            clap::Error::raw(clap::error::ErrorKind::InvalidValue, message).with_cmd(cmd)
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            E::value_variants()
                .iter()
                .filter_map(ValueEnum::to_possible_value),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("playbench").chain(args.iter().copied()))
    }

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn run_takes_a_task_or_the_suite() {
        let Command::Run(r) = parse(&["run", "--task", "taxi-s1", "--agent", "oracle"])
            .unwrap()
            .command
        else {
            panic!("not run")
        };
        assert_eq!(r.task.as_deref(), Some("taxi-s1"));
        assert_eq!(r.agent.agent, AgentKind::Oracle);
        assert_eq!(r.suite_id.suite_id, bench::suites::DEFAULT_SUITE);
        assert!(parse(&["run", "--agent", "oracle"]).is_err());
        assert!(parse(&["run", "--task", "t", "--suite", "--agent", "oracle"]).is_err());
        assert!(parse(&["run", "--task", "t", "--agent", "oracle", "--filter", "x"]).is_err());
        let e = parse(&["run", "--task", "t", "--agent", "genius"]).unwrap_err();
        assert!(
            e.to_string()
                .contains("unknown agent \"genius\": expected random, oracle or endpoint"),
            "{e}"
        );
    }

    #[test]
    fn the_endpoint_needs_its_provider_url_and_model() {
        let e = parse(&["run", "--task", "t", "--agent", "endpoint"]).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("--provider") && text.contains("--base-url") && text.contains("--model"),
            "{text}"
        );
        let e = parse(&[
            "run",
            "--task",
            "t",
            "--agent",
            "endpoint",
            "--provider",
            "mistral",
        ])
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("unknown provider \"mistral\": expected openai, anthropic or gemini"),
            "{e}"
        );
    }

    #[test]
    fn image_options_are_checked_and_become_settings() {
        let base = ["run", "--task", "t", "--agent", "oracle"];
        let with = |extra: &[&str]| parse(&[&base[..], extra].concat());
        let Command::Run(r) = with(&[
            "--image-format",
            "jpeg",
            "--jpeg-quality",
            "0.5",
            "--image-scale",
            "2",
        ])
        .unwrap()
        .command
        else {
            panic!("not run")
        };
        assert_eq!(
            r.agent.image.settings(),
            ImageSettings {
                format: ImageFormat::Jpeg,
                quality: 0.5,
                scale: 2.0
            }
        );
        let Command::Run(r) = with(&[]).unwrap().command else {
            panic!("not run")
        };
        assert_eq!(r.agent.image.settings(), ImageSettings::default());
        for bad in [
            ["--jpeg-quality", "0"],
            ["--jpeg-quality", "1.5"],
            ["--image-scale", "5"],
            ["--image-scale", "x"],
            ["--image-format", "gif"],
        ] {
            assert!(with(&bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn history_and_headers_parse() {
        assert_eq!(history_window("full"), Ok(HistoryWindow::Full));
        assert_eq!(history_window("3"), Ok(HistoryWindow::Last(3)));
        assert_eq!(history_window("0"), Ok(HistoryWindow::Last(0)));
        assert!(history_window("many").is_err());
        assert_eq!(header("X-A:  b "), Ok(("X-A".into(), "b".into())));
        assert!(header("no colon").is_err());
        assert_eq!(or_list(&["a".into(), "b".into(), "c".into()]), "a, b or c");
    }
}
