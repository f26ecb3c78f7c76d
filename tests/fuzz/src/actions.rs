//! Action text for every registered environment (`Env::parse_action` and
//! `step(Action::Text(…))`), and GameVerse's text actions on its own ids. Each input is
//! `ID<TAB>TEXT`; the environment is a clone of one reset with seed 0, so a step moves
//! a real episode.

use std::collections::BTreeMap;

use envs::core::oracle::Control;
use envs::{Action, Env};

use super::Entry;

/// Oracle actions recorded per environment, as text seeds.
const ORACLE_STEPS: usize = 6;

struct Prepared {
    envs: BTreeMap<&'static str, Box<dyn Env>>,
}

impl Prepared {
    fn new(keep: impl Fn(&str) -> bool) -> Self {
        // VisGym's image environments play the bundled sets (built into the CLI).
        for id in [
            "jigsaw/easy",
            "counting/easy",
            "referring_dot_pointing/easy",
        ] {
            if let Err(e) = cli::image_folder::shelve_sample_dir(id, None) {
                panic!("the bundled set of {id}: {e}");
            }
        }
        let envs = envs::registry::specs()
            .filter(|s| keep(s.id))
            .filter_map(|s| {
                let mut env = envs::registry::make_default(s.id).ok()?;
                env.reset(Some(0));
                Some((s.id, env))
            })
            .collect();
        Self { envs }
    }

    /// Each environment's action names and a few oracle actions in text form.
    fn seeds(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (id, env) in &self.envs {
            for name in env.action_names() {
                out.push(format!("{id}\t{name}"));
            }
            let mut play = env.clone();
            let control = Control {
                frame_skip: 1,
                action_steps: 1,
                noop: None,
            };
            if let Some(mut solver) = play.oracle(control) {
                for _ in 0..ORACLE_STEPS {
                    let Some(action) = solver.next_action(play.as_ref()) else {
                        break;
                    };
                    out.push(format!("{id}\t{}", play.action_text(&action)));
                    if play.step(action).is_err() {
                        break;
                    }
                }
            }
        }
        out
    }

    fn run(&self, input: &str) {
        let (id, text) = input.split_once('\t').unwrap_or(("", input));
        let env = match self.envs.get(id) {
            Some(env) => env,
            None => match self.envs.values().nth(input.len() % self.envs.len().max(1)) {
                Some(env) => env,
                None => return,
            },
        };
        let mut env = env.clone();
        if let Ok(action) = env.parse_action(text) {
            let _ = env.clone().step(action);
        }
        let _ = env.step(Action::Text(text.to_string()));
    }
}

fn entry(name: &'static str, keep: impl Fn(&str) -> bool) -> Entry {
    let prepared = Prepared::new(keep);
    Entry {
        name,
        seeds: prepared.seeds(),
        run: Box::new(move |input| prepared.run(input)),
    }
}

pub fn entries() -> Vec<Entry> {
    vec![
        entry("env-action-text", |_| true),
        entry("gameverse-text", |id| id.starts_with("GameVerse/")),
    ]
}
