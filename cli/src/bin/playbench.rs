//! `playbench`: the benchmark from the command line (`playbench --help`,
//! `docs/cli.md`).

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use playbench_cli::args::Cli;
use playbench_cli::commands::dispatch;
use playbench_cli::error::CliError;

/// Says what went wrong where it belongs: a divergence is the verification's result
/// (stdout), everything else an error (stderr).
fn report(e: &CliError) -> ExitCode {
    match e {
        CliError::Args(e) => {
            // clap styles its own messages, with the usage.
            let _ = e.print();
        }
        CliError::Diverged(_) => println!("{e}"),
        _ => eprintln!("playbench: {e}"),
    }
    ExitCode::from(e.exit_code())
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help and --version are answers, not errors.
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => return report(&e.into()),
    };
    let output = match dispatch(&cli) {
        Ok(output) => output,
        Err(e) => return report(&e),
    };
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(output.text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        // The reader stopped reading (`playbench tasks | head`): not a failure of ours.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(error) => {
            return report(&CliError::Io {
                what: "writing the output".into(),
                error,
            })
        }
        Ok(()) => {}
    }
    match &output.failure {
        Some(e) => report(e),
        None => ExitCode::SUCCESS,
    }
}
