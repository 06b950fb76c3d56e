//! Per-key token bucket: `per_minute` requests of burst, refilled continuously.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub struct RateLimiter {
    per_minute: u32,
    buckets: Mutex<HashMap<String, Bucket>>,
}

struct Bucket {
    tokens: f64,
    updated: Instant,
}

impl RateLimiter {
    pub fn new(per_minute: u32) -> Self {
        RateLimiter {
            per_minute: per_minute.max(1),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `key`; on refusal returns how long until one is available.
    pub fn check(&self, key: &str) -> Result<(), Duration> {
        self.check_at(key, Instant::now())
    }

    fn check_at(&self, key: &str, now: Instant) -> Result<(), Duration> {
        let capacity = f64::from(self.per_minute);
        let per_second = capacity / 60.0;
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let bucket = buckets.entry(key.to_string()).or_insert(Bucket {
            tokens: capacity,
            updated: now,
        });
        let elapsed = now.saturating_duration_since(bucket.updated).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * per_second).min(capacity);
        bucket.updated = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / per_second))
        }
    }
}

/// Whole seconds to announce in `Retry-After` (never 0: "retry now" would loop).
pub fn retry_after_secs(wait: Duration) -> u64 {
    wait.as_secs_f64().ceil().max(1.0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn burst_then_refusal_then_refill() {
        let rl = RateLimiter::new(60);
        let t0 = Instant::now();
        for _ in 0..60 {
            assert!(rl.check_at("k", t0).is_ok());
        }
        let wait = rl.check_at("k", t0).unwrap_err();
        assert_eq!(retry_after_secs(wait), 1);
        assert!(rl.check_at("other", t0).is_ok(), "buckets are per key");
        assert!(rl.check_at("k", t0 + Duration::from_millis(1_050)).is_ok());
        assert!(rl.check_at("k", t0 + Duration::from_millis(1_060)).is_err());
    }
}
