//! `playbench`: the benchmark from the command line.
//!
//!   playbench tasks                                   the suite as a JSON array
//!   playbench run --task ID --agent random|oracle [--seed S]
//!                                                     one episode record (JSON)
//!   playbench baseline --agent random|oracle [--seed S] [--episodes N] [--json]
//!                                                     the suite table
//!   playbench suite [--check]                         regenerate playbench-core (JSON to
//!                                                     stdout), or check the committed one

use std::process::ExitCode;

use playbench_cli::commands::{self, Args};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match commands::dispatch(&Args::new(args)) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("playbench: {e}");
            ExitCode::from(2)
        }
    }
}
