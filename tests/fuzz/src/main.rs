//! `cargo run --release -p playbench-fuzz --bin fuzz -- [--entry NAME] [--inputs N]
//! [--seed S]`: generated and mutated inputs through every entry point that reads what
//! strangers send (`docs/fuzzing.md`), 1,000,000 per entry point by default. Prints a
//! table: entry point, inputs tried, panics, the slowest input's time; panicking inputs
//! are saved under `.cache/fuzz-failures/` and listed. Exits non-zero on any panic.

use std::io::Write;
use std::time::Instant;

use playbench_fuzz::{entries, run_entry, Report};

struct Options {
    entry: Option<String>,
    replay: Option<String>,
    inputs: u64,
    seed: u64,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        entry: None,
        replay: None,
        inputs: 1_000_000,
        seed: 1,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--entry" => o.entry = Some(value("--entry")?),
            "--inputs" => {
                o.inputs = value("--inputs")?
                    .parse()
                    .map_err(|_| "--inputs takes a whole number".to_string())?
            }
            "--replay" => o.replay = Some(value("--replay")?),
            "--seed" => {
                o.seed = value("--seed")?
                    .parse()
                    .map_err(|_| "--seed takes a whole number".to_string())?
            }
            "-h" | "--help" => {
                println!("fuzz [--entry NAME] [--inputs N (default 1000000)] [--seed S (default 1)] [--replay FILE (with --entry: times that one input)]");
                std::process::exit(0);
            }
            other => return Err(format!("unknown option {other:?} (see --help)")),
        }
    }
    Ok(o)
}

fn shorten(text: &str) -> String {
    let one_line: String = text
        .chars()
        .take(80)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().count() > 80 {
        format!("{one_line}… ({} bytes)", text.len())
    } else {
        one_line
    }
}

/// Runs a saved input (e.g. from `.cache/fuzz-failures/`) through the chosen entry
/// points three times, printing each time: to reproduce a panic or a slow input.
fn replay(chosen: &[&playbench_fuzz::Entry], file: &str) {
    let input = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("fuzz: cannot read {file}: {e}");
            std::process::exit(2);
        }
    };
    for entry in chosen {
        for _ in 0..3 {
            let start = Instant::now();
            (entry.run)(&input);
            println!(
                "{}: {:.2} ms",
                entry.name,
                start.elapsed().as_secs_f64() * 1e3
            );
        }
    }
}

fn main() {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("fuzz: {e}");
            std::process::exit(2);
        }
    };
    let all = entries();
    let names: Vec<&str> = all.iter().map(|e| e.name).collect();
    let chosen: Vec<_> = all
        .iter()
        .filter(|e| o.entry.as_deref().is_none_or(|n| n == e.name))
        .collect();
    if chosen.is_empty() {
        eprintln!(
            "fuzz: no entry point named {:?}; there are: {}",
            o.entry.unwrap_or_default(),
            names.join(", ")
        );
        std::process::exit(2);
    }
    if let Some(file) = &o.replay {
        replay(&chosen, file);
        return;
    }
    let mut reports: Vec<Report> = Vec::new();
    for entry in chosen {
        let start = Instant::now();
        let report = run_entry(entry, o.seed, o.inputs, &mut |n| {
            eprint!("\r{}: {n}/{} inputs", entry.name, o.inputs);
            let _ = std::io::stderr().flush();
        });
        eprintln!(
            "\r{}: {} inputs in {:.1} s, {} panics",
            entry.name,
            report.inputs,
            start.elapsed().as_secs_f64(),
            report.failures.len()
        );
        reports.push(report);
    }
    println!("\n| entry point | inputs | failures | slowest ms | slowest input |");
    println!("|---|---:|---:|---:|---|");
    for r in &reports {
        println!(
            "| {} | {} | {} | {:.2} | `{}` |",
            r.name,
            r.inputs,
            r.failures.len(),
            r.slowest.as_secs_f64() * 1e3,
            shorten(&r.slowest_input)
                .replace('|', "\\|")
                .replace('`', "'")
        );
    }
    let mut failed = false;
    for r in &reports {
        for f in &r.failures {
            failed = true;
            let at = f
                .saved
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            println!(
                "{}: panic {:?} on {} {at}",
                r.name,
                f.message,
                shorten(&f.input)
            );
        }
    }
    if failed {
        std::process::exit(1);
    }
}
