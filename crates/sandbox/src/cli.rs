//! What the sandbox's two programs (`sightline-sandbox`, and `sightline-test-tsa` with the
//! `test-tsa` feature) share around their server: options written `--flag value` or
//! `--flag=value`, the usage (`--help`) or a wrong option's error and exit code, the
//! `key=value` lines that tell whoever started it where the server is, and serving until
//! Ctrl-C or SIGTERM.

use std::io::Write;
use std::process::ExitCode;

/// `arg` as a flag and the value written after its `=`, if any (`--seed=7`); any other
/// argument (a flag alone, or a value) whole, with no value.
pub fn split_flag(arg: &str) -> (String, Option<String>) {
    match arg.split_once('=') {
        Some((flag, value)) if flag.starts_with("--") => (flag.to_owned(), Some(value.to_owned())),
        _ => (arg.to_owned(), None),
    }
}

/// The options `parse` read, or how the program ends without them: the usage printed for
/// `--help` (`Ok(None)`, success), or `program`'s error and the usage on stderr (exit code 2).
pub fn options_or_exit<T>(
    program: &str,
    usage: &str,
    parsed: Result<Option<T>, String>,
) -> Result<T, ExitCode> {
    match parsed {
        Ok(Some(options)) => Ok(options),
        Ok(None) => {
            println!("{usage}");
            Err(ExitCode::SUCCESS)
        }
        Err(error) => {
            eprintln!("{program}: {error}\n\n{usage}");
            Err(ExitCode::from(2))
        }
    }
}

/// Says on stderr why `program` could not start its server; the exit code that follows.
pub fn cannot_start(program: &str, error: impl std::fmt::Display) -> ExitCode {
    eprintln!("{program}: cannot start: {error}");
    ExitCode::FAILURE
}

/// Prints each `(key, value)` as a `key=value` line on stdout, flushed at once (a test reads
/// them to find the server), then waits for Ctrl-C or SIGTERM.
pub async fn announce_and_wait(lines: &[(&str, String)]) {
    {
        let mut out = std::io::stdout().lock();
        for (key, value) in lines {
            let _ = writeln!(out, "{key}={value}");
        }
        let _ = out.flush();
    }
    stop_signal().await;
}

async fn stop_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let Ok(mut term) = signal(SignalKind::terminate()) else {
            let _ = ctrl_c.await;
            return;
        };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_splits_at_its_equals_sign_only() {
        assert_eq!(split_flag("--seed=7"), ("--seed".into(), Some("7".into())));
        assert_eq!(
            split_flag("--keys=a=b"),
            ("--keys".into(), Some("a=b".into()))
        );
        assert_eq!(split_flag("--faults"), ("--faults".into(), None));
        assert_eq!(split_flag("x=1"), ("x=1".into(), None));
    }

    #[test]
    fn help_and_errors_end_the_program_with_their_codes() {
        assert_eq!(options_or_exit("p", "usage", Ok(Some(3))), Ok(3));
        assert_eq!(
            options_or_exit::<u8>("p", "usage", Ok(None)),
            Err(ExitCode::SUCCESS)
        );
        assert_eq!(
            options_or_exit::<u8>("p", "usage", Err("bad".into())),
            Err(ExitCode::from(2))
        );
    }
}
