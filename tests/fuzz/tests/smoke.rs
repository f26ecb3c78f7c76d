//! The fuzzer's smoke run (`docs/fuzzing.md`): a few thousand generated and mutated
//! inputs per entry point, from a fixed seed, must not panic, and none may take longer
//! than a generous bound (a hang or an unbounded loop shows here first).

use std::time::Duration;

use playbench_fuzz::{entries, run_entry};

/// Inputs per entry point: each seed once, then mutations.
const INPUTS: u64 = 2_000;

/// Fewer for the driver: each input makes an environment and steps it.
const DRIVER_INPUTS: u64 = 300;

/// Slower than this is a hang in the making (debug build, shared machine).
const SLOWEST: Duration = Duration::from_secs(5);

/// The test thread's stack: debug frames are several times the release ones the parsers'
/// depth caps are sized for (VisGym's Python parser stops at 200 brackets).
const STACK: usize = 256 << 20;

#[test]
fn no_entry_point_panics_or_hangs_on_generated_input() {
    let run = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(smoke)
        .map(std::thread::JoinHandle::join);
    assert!(
        matches!(run, Ok(Ok(()))),
        "the smoke run failed (see above)"
    );
}

fn smoke() {
    let mut problems = Vec::new();
    for entry in entries() {
        assert!(!entry.seeds.is_empty(), "{} has no seeds", entry.name);
        let inputs = match entry.name {
            "driver" => DRIVER_INPUTS,
            _ => INPUTS,
        };
        let report = run_entry(&entry, 14, inputs, &mut |_| {});
        assert_eq!(report.inputs, inputs);
        for f in &report.failures {
            problems.push(format!(
                "{}: panic {:?} on {:?}",
                entry.name,
                f.message,
                f.input.chars().take(300).collect::<String>()
            ));
        }
        if report.slowest > SLOWEST {
            problems.push(format!(
                "{}: {:?} on {:?}",
                entry.name,
                report.slowest,
                report.slowest_input.chars().take(300).collect::<String>()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
