//! `envs-driver`: drive Playbench environments over JSON lines on stdin/stdout.
//! See the README's "Driving environments from another program".

use std::io::{self, BufRead, Write};

use playbench_cli::driver::Driver;

fn main() {
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
