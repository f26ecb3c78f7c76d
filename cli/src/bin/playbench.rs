//! `playbench`: the benchmark from the command line.
//!
//!   playbench tasks                                   the suite as a JSON array
//!   playbench run --task ID --agent random|oracle [--seed S] [--link]
//!                                                     one episode file (JSON), or
//!                                                     its share-link fragment
//!   playbench verify FILE_OR_LINK                     re-simulate an episode: exit 0
//!                                                     verified, 1 diverged, 2 error
//!   playbench baseline --agent random|oracle [--seed S] [--episodes N] [--json]
//!                                                     the suite table
//!   playbench suite [--check]                         regenerate playbench-core (JSON to
//!                                                     stdout), or check the committed one

use std::process::ExitCode;

use playbench_cli::commands::{self, Args};
use playbench_cli::verify::DIVERGED;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match commands::dispatch(&Args::new(args)) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) if e.starts_with(DIVERGED) => {
            println!("{e}");
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("playbench: {e}");
            ExitCode::from(2)
        }
    }
}
