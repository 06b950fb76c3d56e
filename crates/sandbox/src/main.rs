//! `sightline-sandbox`: serve the sandbox on 127.0.0.1 until Ctrl-C or SIGTERM.

use sightline_sandbox::cli::{announce_and_wait, cannot_start, options_or_exit, split_flag};
use sightline_sandbox::Sandbox;
use std::process::ExitCode;

const NAME: &str = "sightline-sandbox";

const USAGE: &str = "Usage: sightline-sandbox [--port N] [--seed N] [--keys k1,k2] [--rate-limit N] [--pace-ms N] [--faults] [--balance-usd X] [--forecast-ms N] [--jobs-file PATH] [--body-log PATH] [--live-rate N] [--float-costs]

Serves a local stand-in of the service on 127.0.0.1 and prints, on two lines,
  base_url=http://127.0.0.1:PORT
  demo_key=dt_$...
  --port N         port to listen on (default 8787; 0 picks a free one)
  --seed N         seed of the synthetic world (default 42)
  --keys k1,k2     the valid API keys (default: the demo key)
  --rate-limit N   requests per key per minute (default: unlimited)
  --pace-ms N      pause between streamed text deltas (default 30)
  --faults         enable the fault-injection routes under /__sandbox/faults
  --balance-usd X  prepaid balance per key; 402 once spent (default: none)
  --forecast-ms N  how long a forecast job runs, in ms (default 20000)
  --jobs-file PATH keep forecast jobs in this file, so a restart still knows them
                   (default: in memory only)
  --body-log PATH  append one JSON line per response sent to this file: method, path
                   and query, status, SHA-256 of the body bytes as sent (default: off)
  --live-rate N    new posts per minute while it runs, seeded (default 12; 0 for none;
                   at most 6000); with --faults, POST /__sandbox/clock {\"advance_ms\": N}
                   moves the clock forward
  --float-costs    compute each cost in binary floating point and write it as a Python
                   service does (0.00010499999999999999, 1.5e-05) instead of as an exact
                   decimal";

struct Args {
    port: u16,
    seed: u64,
    keys: Option<Vec<String>>,
    rate_limit: Option<u32>,
    pace_ms: u64,
    faults: bool,
    balance_usd: Option<rust_decimal::Decimal>,
    forecast_ms: u64,
    jobs_file: Option<std::path::PathBuf>,
    body_log: Option<std::path::PathBuf>,
    live_rate: u32,
    float_costs: bool,
}

fn value<T: std::str::FromStr>(flag: &str, v: Option<String>) -> Result<T, String> {
    let v = v.ok_or_else(|| format!("{flag} needs a value"))?;
    v.parse()
        .map_err(|_| format!("{flag}: invalid value {v:?}"))
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut args = Args {
        port: 8787,
        seed: 42,
        keys: None,
        rate_limit: None,
        pace_ms: sightline_sandbox::DEFAULT_PACE_MS,
        faults: false,
        balance_usd: None,
        forecast_ms: sightline_sandbox::ops::forecast::DEFAULT_DURATION.as_millis() as u64,
        jobs_file: None,
        body_log: None,
        live_rate: sightline_sandbox::DEFAULT_LIVE_RATE,
        float_costs: false,
    };
    while let Some(arg) = it.next() {
        let (flag, inline) = split_flag(&arg);
        let mut next = || inline.clone().or_else(|| it.next());
        match flag.as_str() {
            "--port" => args.port = value(&flag, next())?,
            "--seed" => args.seed = value(&flag, next())?,
            "--keys" => {
                let list: String = value(&flag, next())?;
                args.keys = Some(
                    list.split(',')
                        .map(str::trim)
                        .filter(|k| !k.is_empty())
                        .map(String::from)
                        .collect(),
                );
            }
            "--rate-limit" => args.rate_limit = Some(value(&flag, next())?),
            "--pace-ms" => args.pace_ms = value(&flag, next())?,
            "--faults" => args.faults = true,
            "--float-costs" => args.float_costs = true,
            "--balance-usd" => args.balance_usd = Some(value(&flag, next())?),
            "--forecast-ms" => args.forecast_ms = value(&flag, next())?,
            "--jobs-file" => args.jobs_file = Some(value::<String>(&flag, next())?.into()),
            "--body-log" => args.body_log = Some(value::<String>(&flag, next())?.into()),
            "--live-rate" => {
                args.live_rate = value(&flag, next())?;
                if args.live_rate > sightline_sandbox::world::live::MAX_LIVE_RATE {
                    return Err(format!("{flag}: at most 6000 posts per minute"));
                }
            }
            "-h" | "--help" => return Ok(None),
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    Ok(Some(args))
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match options_or_exit(NAME, USAGE, parse_args(std::env::args().skip(1))) {
        Ok(args) => args,
        Err(code) => return code,
    };
    let mut builder = Sandbox::builder()
        .seed(args.seed)
        .port(args.port)
        .pace_ms(args.pace_ms)
        .faults(args.faults)
        .rate_limit(args.rate_limit)
        .balance_usd(args.balance_usd)
        .forecast_duration(std::time::Duration::from_millis(args.forecast_ms))
        .live_rate(args.live_rate)
        .float_costs(args.float_costs);
    if let Some(keys) = args.keys {
        builder = builder.keys(keys);
    }
    if let Some(file) = args.jobs_file {
        builder = builder.jobs_file(file);
    }
    if let Some(file) = args.body_log {
        builder = builder.body_log(file);
    }
    let sandbox = match builder.start().await {
        Ok(sandbox) => sandbox,
        Err(e) => return cannot_start(NAME, e),
    };
    announce_and_wait(&[
        ("base_url", sandbox.base_url().to_string()),
        ("demo_key", sandbox.demo_key().to_string()),
    ])
    .await;
    sandbox.shutdown().await;
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(v: &[&str]) -> Result<Option<Args>, String> {
        parse_args(v.iter().map(|s| s.to_string()))
    }

    #[test]
    fn options() {
        let a = parse(&[
            "--port",
            "0",
            "--seed=7",
            "--keys",
            "a, b",
            "--rate-limit",
            "5",
            "--pace-ms",
            "0",
            "--faults",
        ])
        .unwrap()
        .unwrap();
        assert!(!a.float_costs);
        assert!(parse(&["--float-costs"]).unwrap().unwrap().float_costs);
        assert_eq!(
            (a.port, a.seed, a.rate_limit, a.pace_ms, a.faults),
            (0, 7, Some(5), 0, true)
        );
        assert_eq!(a.keys.unwrap(), ["a", "b"]);
        assert!(parse(&["--help"]).unwrap().is_none());
        let b = parse(&["--balance-usd", "1.50", "--body-log", "/tmp/b.jsonl"])
            .unwrap()
            .unwrap();
        assert_eq!(b.body_log.unwrap().to_str(), Some("/tmp/b.jsonl"));
        assert_eq!(b.balance_usd.unwrap().to_string(), "1.50");
        assert_eq!(b.live_rate, sightline_sandbox::DEFAULT_LIVE_RATE);
        assert_eq!(parse(&["--live-rate", "0"]).unwrap().unwrap().live_rate, 0);
        assert!(parse(&["--live-rate", "6001"]).is_err());
        assert!(parse(&["--port"]).is_err());
        assert!(parse(&["--bogus"]).is_err());
        assert!(parse(&["--port", "x"]).is_err());
    }
}
