//! Generated and mutated inputs for every entry point that reads what strangers send
//! (`docs/fuzzing.md`): links, files, driver requests, URL parameters, model replies,
//! provider answers and action text. Each entry point takes seeds (real samples of its
//! format) and a function that must never panic on any text; [`run_entry`] mutates the
//! seeds deterministically, runs every input under `catch_unwind`, times it, saves the
//! inputs that panic under `.cache/fuzz-failures/` and reports the slowest.

mod actions;
mod app_url;
mod assets;
mod driver;
mod files;
mod links;
mod mutate;
mod replies;
mod rng;
mod seeds;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::time::{Duration, Instant};

pub use mutate::mutate;
pub use rng::Rng;

/// One entry point: its name, its seeds and the code that reads one input. `run` may
/// return anything (errors are the expected outcome for most inputs); it must not panic.
pub struct Entry {
    pub name: &'static str,
    pub seeds: Vec<String>,
    pub run: Box<dyn Fn(&str)>,
}

/// Every entry point, in the order the table prints them.
pub fn entries() -> Vec<Entry> {
    let mut all = Vec::new();
    all.extend(driver::entries());
    all.extend(links::entries());
    all.extend(files::entries());
    all.extend(app_url::entries());
    all.extend(replies::entries());
    all.extend(actions::entries());
    all.extend(assets::entries());
    all
}

/// An input that panicked, with the panic's message and where it was saved.
#[derive(Debug)]
pub struct Failure {
    pub input: String,
    pub message: String,
    pub saved: Option<PathBuf>,
}

/// What one entry point's run found.
#[derive(Debug)]
pub struct Report {
    pub name: &'static str,
    pub inputs: u64,
    pub failures: Vec<Failure>,
    pub slowest: Duration,
    pub slowest_input: String,
}

/// At most this many panics are kept per entry point (the rest are counted).
const KEPT_FAILURES: usize = 20;

/// The folder where panicking inputs are saved (ignored by git).
pub fn failures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(".cache")
        .join("fuzz-failures")
}

/// Runs `count` inputs generated from `seed` through `entry`: first each seed as is,
/// then mutations. `progress` is called every 10 000 inputs with the count so far.
pub fn run_entry(entry: &Entry, seed: u64, count: u64, progress: &mut dyn FnMut(u64)) -> Report {
    let mut rng = Rng::new(seed ^ fnv(entry.name));
    let mut report = Report {
        name: entry.name,
        inputs: 0,
        failures: Vec::new(),
        slowest: Duration::ZERO,
        slowest_input: String::new(),
    };
    let mut failed = 0u64;
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    // With PLAYBENCH_FUZZ_TRACE set, each input is saved before it runs, so one that
    // hangs or aborts the process is on disk (`<entry>-current.txt`).
    let trace = std::env::var_os("PLAYBENCH_FUZZ_TRACE").is_some();
    for i in 0..count {
        let input = match entry.seeds.get(i as usize) {
            Some(s) => s.clone(),
            None => mutate(&entry.seeds, &mut rng),
        };
        if trace {
            save_failure(entry.name, "current", &input);
        }
        let start = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| (entry.run)(&input)));
        let took = start.elapsed();
        report.inputs += 1;
        if took > report.slowest {
            report.slowest = took;
            report.slowest_input = input.clone();
        }
        if let Err(panic) = outcome {
            failed += 1;
            if report.failures.len() < KEPT_FAILURES {
                let message = panic_message(panic.as_ref());
                let index = report.failures.len().to_string();
                let saved = save_failure(entry.name, &index, &input);
                report.failures.push(Failure {
                    input,
                    message,
                    saved,
                });
            }
        }
        if (i + 1) % 10_000 == 0 {
            progress(i + 1);
        }
    }
    std::panic::set_hook(previous_hook);
    save_failure(entry.name, "slowest", &report.slowest_input);
    if failed as usize > report.failures.len() {
        let more = failed as usize - report.failures.len();
        report.failures.push(Failure {
            input: String::new(),
            message: format!("… and {more} more panics"),
            saved: None,
        });
    }
    report
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// Saves `input` as `<entry>-<index>.txt` (the slowest input as `-slowest`).
fn save_failure(entry: &str, index: &str, input: &str) -> Option<PathBuf> {
    let dir = failures_dir();
    std::fs::create_dir_all(&dir).ok()?;
    let path = dir.join(format!("{entry}-{index}.txt"));
    std::fs::write(&path, input).ok()?;
    Some(path)
}

/// A stable hash of an entry's name, so each entry point has its own stream.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
