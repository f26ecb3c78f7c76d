//! `envs-driver`: drive Playbench environments over JSON lines on stdin/stdout
//! (`docs/driver.md`).

use std::io::{self, BufRead, Write};

use clap::Parser;
use playbench_cli::driver::Driver;

/// Drives Playbench environments from another program: one JSON request per line on
/// stdin, one JSON reply per line on stdout (ops: make, reset, step, render, list,
/// prompt, solve). A bad request answers {"error": "..."} and the driver keeps serving.
/// The protocol is described in docs/driver.md.
#[derive(Parser)]
#[command(name = "envs-driver", version)]
struct DriverCli {}

fn main() {
    DriverCli::parse();
    let mut driver = Driver::new();
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else {
            break;
        };
        if line.trim().is_empty() {
            continue;
        }
        let reply = driver.handle_line(&line);
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}
