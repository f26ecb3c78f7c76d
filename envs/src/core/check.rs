//! A checker for any registered environment, in the spirit of Gymnasium's `check_env`:
//! what a newcomer adding a family can get wrong without any golden test noticing.
//! `check_env` plays short seeded episodes and reports every broken rule.

use serde_json::{Map, Value};

use super::env::{ActionSpace, Env, Step};
use super::error::EnvError;
use super::frame::Frame;

/// Steps per checked episode.
const STEPS: usize = 60;
/// Seeds tried for the reset rules: 1..=SEEDS. Positive seeds only: a package may treat
/// seed 0 as "no seed" (tetris-gymnasium reseeds its bag only on a seed > 0, so its
/// `reset(seed=0)` continues the stream, see docs/third-party-games.md), which these
/// rules would report as history-dependent resets.
const SEEDS: u64 = 6;

/// A deterministic action sequence over the presets (no entropy: a fixed LCG).
struct Picker(u64);

impl Picker {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }
}

/// Everything comparable about a step, with the frame's hash.
fn fingerprint(env: &dyn Env, step: &Step, frame: &mut Frame) -> String {
    env.render(frame);
    format!(
        "{:?}|{}|{}|{}|{:?}|{:?}|{:x}",
        step.obs,
        step.reward,
        step.terminated,
        step.truncated,
        step.signals,
        env.snapshot(),
        frame.hash()
    )
}

/// Plays `STEPS` preset actions from `seed`; renders after each step when `render`.
fn trajectory(env: &mut dyn Env, seed: u64, render: bool) -> Result<Vec<String>, String> {
    let presets = env.action_names().len();
    let mut picker = Picker(seed);
    let mut frame = Frame::default();
    let reset = env.reset(Some(seed));
    let mut out = vec![format!("{:?}", reset.obs)];
    for _ in 0..STEPS {
        let i = picker.next(presets);
        let action = env
            .preset_action(i)
            .ok_or_else(|| format!("preset {i} has no action"))?;
        let step = env
            .step(action)
            .map_err(|e| format!("preset {i} was refused: {e}"))?;
        let done = step.terminated || step.truncated;
        out.push(if render {
            fingerprint(env, &step, &mut frame)
        } else {
            format!(
                "{:?}|{}|{}|{}|{:?}",
                step.obs, step.reward, step.terminated, step.truncated, step.signals
            )
        });
        if done {
            break;
        }
    }
    Ok(out)
}

/// Checks one registered environment; each returned line is a broken rule.
pub fn check_env(id: &str, kwargs: &Map<String, Value>) -> Vec<String> {
    check_made(|| crate::registry::make(id, kwargs))
}

/// Checks the environments `make` makes (two instances).
pub fn check_made(make: impl Fn() -> Result<Box<dyn Env>, super::error::EnvError>) -> Vec<String> {
    let mut problems = Vec::new();
    let (mut a, mut b) = match (make(), make()) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return vec![format!("cannot be made: {e}")],
    };
    let mut fail = |rule: &str, detail: String| problems.push(format!("{rule}: {detail}"));

    // Inputs: presets exist, keys play presets, texts round-trip.
    let names = a.action_names();
    if names.is_empty() {
        fail("presets", "the environment names no action".into());
    }
    a.reset(Some(0));
    for (i, name) in names.iter().enumerate() {
        match a.preset_action(i) {
            None => fail("presets", format!("preset {i} ({name:?}) has no action")),
            Some(action) => {
                let text = a.action_text(&action);
                match a.parse_action(&text) {
                    Ok(back) if back == action => {}
                    Ok(back) => fail(
                        "text form",
                        format!("{action:?} → {text:?} → {back:?}, not the same action"),
                    ),
                    Err(e) => fail("text form", format!("{text:?} does not parse back: {e}")),
                }
                let mut probe = a.clone_box();
                if let Err(e) = probe.step(action) {
                    fail("presets", format!("preset {i} ({name:?}) is refused: {e}"));
                }
            }
        }
    }
    if let ActionSpace::Discrete { n } = a.action_space() {
        if names.len() != n {
            fail(
                "presets",
                format!("{} names for a Discrete({n}) space", names.len()),
            );
        }
    }
    for k in a.keymap() {
        if k.action >= names.len() {
            fail(
                "keys",
                format!("{:?} plays preset {} of {}", k.key, k.action, names.len()),
            );
        }
    }
    if let Some(noop) = a.noop() {
        if noop >= names.len() {
            fail("noop", format!("the no-op preset {noop} does not exist"));
        }
    }
    if let Some(clock) = a.clock() {
        if clock.idle >= names.len() {
            fail(
                "clock",
                format!("the idle preset {} does not exist", clock.idle),
            );
        }
    }
    if a.pointer_mode().is_some() {
        let (w, h) = a.frame_size();
        let gesture = super::input::Gesture::Click {
            x: f64::from(w) / 2.0,
            y: f64::from(h) / 2.0,
        };
        if let Some(action) = a.pointer_action(gesture) {
            let text = a.action_text(&action);
            if a.parse_action(&text).is_err() {
                fail(
                    "pointer",
                    format!("a click gives {text:?}, which does not parse"),
                );
            }
        }
    }

    // Frames: the declared size is the rendered size; rendering changes nothing.
    let mut frame = Frame::default();
    a.reset(Some(0));
    a.render(&mut frame);
    if (frame.width(), frame.height()) != a.frame_size() {
        fail(
            "frame size",
            format!(
                "frame_size says {:?}, render drew {}×{}",
                a.frame_size(),
                frame.width(),
                frame.height()
            ),
        );
    }

    // Determinism: two instances, one rendering and one not, play the same episode.
    // `b` resets as often as `a` first, and keeps in step below: an image environment
    // takes the next picture of its set on every reset, whatever the seed (VisGym's
    // sample order), so only instances with as many resets behind them can agree.
    b.reset(Some(0));
    b.reset(Some(0));
    for seed in [1, 2, 7] {
        match (
            trajectory(&mut *a, seed, true),
            trajectory(&mut *b, seed, false),
        ) {
            (Ok(x), Ok(y)) => {
                let strip = |v: &[String]| -> Vec<String> {
                    v.iter()
                        .map(|s| s.splitn(6, '|').take(5).collect::<Vec<_>>().join("|"))
                        .collect()
                };
                if strip(&x) != strip(&y) {
                    fail(
                        "determinism",
                        format!("seed {seed}: two instances (one rendering) differ"),
                    );
                }
            }
            (Err(e), _) | (_, Err(e)) => fail("determinism", format!("seed {seed}: {e}")),
        }
    }

    // Clones: a clone mid-episode plays on exactly like its original.
    a.reset(Some(3));
    let mut picker = Picker(3);
    for _ in 0..5 {
        if let Some(act) = a.preset_action(picker.next(names.len())) {
            let _ = a.step(act);
        }
    }
    let mut c = a.clone_box();
    let mut fa = Frame::default();
    let mut fc = Frame::default();
    for _ in 0..10 {
        let i = picker.next(names.len());
        let Some(act) = a.preset_action(i) else { break };
        match (a.step(act.clone()), c.step(act)) {
            (Ok(x), Ok(y)) => {
                if fingerprint(&*a, &x, &mut fa) != fingerprint(&*c, &y, &mut fc) {
                    fail("clone", "a clone played on differently".into());
                    break;
                }
                if x.terminated || x.truncated {
                    break;
                }
            }
            _ => break,
        }
    }

    // Seeds: an unseeded reset continues the stream; it is deterministic too.
    b.reset(Some(3));
    let mut seeded_differ = false;
    let mut continued_repeats = true;
    for seed in 1..=SEEDS {
        let first = format!("{:?}", a.reset(Some(seed)).obs);
        let again = format!("{:?}", a.reset(None).obs);
        let other = format!("{:?}", b.reset(Some(seed)).obs);
        let other_again = format!("{:?}", b.reset(None).obs);
        if (&first, &again) != (&other, &other_again) {
            fail("reset", format!("seed {seed}: unseeded resets differ"));
        }
        seeded_differ |= first != format!("{:?}", a.reset(Some(seed + 1)).obs);
        b.reset(Some(seed + 1));
        continued_repeats &= first == again;
    }
    if seeded_differ && continued_repeats {
        fail(
            "reset",
            "reset() without a seed restarts the seeded start instead of continuing".into(),
        );
    }
    problems
}

/// What checking one registered configuration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every rule held.
    Passed,
    /// The broken rules, one line each.
    Broken(Vec<String>),
    /// Not checked: the environment needs something the user supplies that is not there
    /// (an Atari ROM not on the shelf). Says what is missing; never a pass.
    Skipped(String),
}

impl Verdict {
    pub fn passed(&self) -> bool {
        *self == Verdict::Passed
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Passed => f.write_str("passed"),
            Verdict::Broken(problems) => write!(f, "broken: {}", problems.join("; ")),
            Verdict::Skipped(why) => write!(f, "skipped: {why}"),
        }
    }
}

/// Checks every registered id with its default kwargs and each of its variants. An id
/// whose environment cannot be made for want of a user-supplied asset is reported as
/// skipped, with the reason; any other failure to make it is a broken rule.
pub fn check_all() -> Vec<(String, Verdict)> {
    let mut out = Vec::new();
    for spec in crate::registry::specs() {
        let mut configs = vec![(spec.id.to_string(), Map::new())];
        for v in spec.variants {
            let kwargs = serde_json::from_str::<Map<String, Value>>(v.kwargs).unwrap_or_default();
            configs.push((format!("{} ({})", spec.id, v.label), kwargs));
        }
        for (name, kwargs) in configs {
            let verdict = match crate::registry::make(spec.id, &kwargs) {
                Err(EnvError::MissingAsset(why)) => Verdict::Skipped(why),
                _ => match check_env(spec.id, &kwargs) {
                    problems if problems.is_empty() => Verdict::Passed,
                    problems => Verdict::Broken(problems),
                },
            };
            out.push((name, verdict));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_environment_passes() {
        crate::visgym::images::shelf::shelve_bundled_for_tests();
        let results = check_all();
        assert!(results.len() >= 92, "{}", results.len());
        let broken: Vec<String> = results
            .iter()
            .filter(|(_, v)| matches!(v, Verdict::Broken(_)))
            .map(|(id, v)| format!("{id}: {v}"))
            .collect();
        assert!(broken.is_empty(), "{}", broken.join("\n"));
        // Only environments that need a user-supplied asset may be skipped, each saying
        // so; everything else must have run. (ROM-backed checks run in the tests crate,
        // `tests/tests/atari_check.rs`, which supplies the ROMs; the Fetch tasks' in
        // `cli/tests/fetch_golden.rs`, which starts MuJoCo under Node.)
        let passed = results.iter().filter(|(_, v)| v.passed()).count();
        assert!(passed >= 72, "only {passed} checks ran");
        for (id, v) in &results {
            if let Verdict::Skipped(why) = v {
                eprintln!("{id}: {v}");
                if crate::visgym::runs_physics(id) {
                    assert!(why.contains("MuJoCo"), "{id}: {why}");
                    continue;
                }
                assert!(why.starts_with("ROM not supplied"), "{id}: {why}");
                let spec = crate::registry::specs()
                    .find(|s| id == s.id || id.starts_with(&format!("{} (", s.id)))
                    .unwrap();
                assert_eq!(spec.family.id, "atari", "{id}: {why}");
            }
        }
    }

    /// Taxi with one defect injected at a time: the checker must name each.
    #[derive(Clone)]
    struct Broken {
        inner: crate::toy_text::taxi::Taxi,
        defect: &'static str,
        renders: std::cell::Cell<u32>,
        last_seed: Option<u64>,
    }

    impl Env for Broken {
        fn id(&self) -> &str {
            "Broken"
        }
        fn action_space(&self) -> ActionSpace {
            self.inner.action_space()
        }
        fn action_names(&self) -> Vec<String> {
            let mut names = self.inner.action_names();
            if self.defect == "duplicate name" {
                names[1] = names[0].clone();
            }
            names
        }
        fn keymap(&self) -> Vec<crate::KeyBinding> {
            let mut keys = self.inner.keymap();
            if self.defect == "key" {
                keys.push(crate::KeyBinding::new("x", 9));
            }
            keys
        }
        fn reset(&mut self, seed: Option<u64>) -> crate::Reset {
            // The defect: an unseeded reset replays the last seed's start.
            let seed = match (self.defect, seed) {
                ("restart", None) => self.last_seed,
                _ => seed,
            };
            self.last_seed = seed;
            self.inner.reset(seed)
        }
        fn step(&mut self, action: crate::Action) -> Result<Step, crate::EnvError> {
            if self.defect == "render side effect" && self.renders.get() % 2 == 1 {
                let _ = self.inner.step(crate::Action::Index(0));
            }
            self.inner.step(action)
        }
        fn observation(&self) -> crate::Observation {
            self.inner.observation()
        }
        fn frame_size(&self) -> (u32, u32) {
            let (w, h) = self.inner.frame_size();
            if self.defect == "size" {
                (w + 1, h)
            } else {
                (w, h)
            }
        }
        fn render(&self, frame: &mut Frame) {
            self.renders.set(self.renders.get() + 1);
            self.inner.render(frame)
        }
        fn render_text(&self) -> String {
            self.inner.render_text()
        }
        fn clone_box(&self) -> Box<dyn Env> {
            let mut c = self.clone();
            if self.defect == "clone" {
                c.inner.reset(Some(99));
            }
            Box::new(c)
        }
        fn as_any(&self) -> &dyn std::any::Any {
            self
        }
    }

    #[test]
    fn each_injected_defect_is_named() {
        use crate::toy_text::taxi::Taxi;
        for (defect, rule) in [
            ("duplicate name", "text form"),
            ("key", "keys"),
            ("restart", "reset"),
            ("render side effect", "determinism"),
            ("size", "frame size"),
            ("clone", "clone"),
        ] {
            let problems = check_made(|| {
                Ok(Box::new(Broken {
                    inner: Taxi::new("Taxi-v3"),
                    defect,
                    renders: std::cell::Cell::new(0),
                    last_seed: None,
                }))
            });
            assert!(
                problems.iter().any(|p| p.starts_with(rule)),
                "{defect}: {problems:?}"
            );
        }
        let clean = check_made(|| {
            Ok(Box::new(Broken {
                inner: Taxi::new("Taxi-v3"),
                defect: "",
                renders: std::cell::Cell::new(0),
                last_seed: None,
            }))
        });
        assert!(clean.is_empty(), "{clean:?}");
    }
}
