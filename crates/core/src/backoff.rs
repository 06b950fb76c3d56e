//! How the background workers (the stamper, the media fetcher) pace themselves: a gap between two
//! requests and, after a failure, a hold that doubles with each failure in a row up to a longest
//! one. One rule for both, so neither can send requests in a loop after an error.

use std::sync::Mutex;
use std::time::Duration;

use chrono::{DateTime, Utc};
use sightline_api::wait;

/// How fast a worker asks, and how long it holds off after a failure.
#[derive(Debug, Clone, Copy)]
pub struct Pace {
    /// The wait between two requests.
    pub gap: Duration,
    /// The hold after a first failure; doubled for each failure in a row.
    pub first_hold: Duration,
    /// The longest hold.
    pub longest_hold: Duration,
}

impl Pace {
    /// The hold earned by the `strikes`-th failure in a row (the first is `first_hold`).
    pub fn hold_for(&self, strikes: u32) -> Duration {
        wait::doubling(self.first_hold, strikes).min(self.longest_hold)
    }
}

/// Failures in a row, and until when nothing is asked; kept in memory beside the rows, so a
/// database that refuses the write cannot make a worker ask again at once.
#[derive(Debug, Default)]
pub struct Hold(Mutex<Strikes>);

#[derive(Debug, Default, Clone, Copy)]
struct Strikes {
    count: u32,
    until: Option<DateTime<Utc>>,
}

impl Hold {
    /// Until when nothing may be asked, if a hold is on.
    pub fn until(&self) -> Option<DateTime<Utc>> {
        self.0.lock().expect("hold lock").until
    }

    /// How long is left of a hold that is on at `now`, if one is.
    pub fn left(&self, now: DateTime<Utc>) -> Option<Duration> {
        self.until()
            .filter(|until| *until > now)
            .map(|until| wait::until(now, until))
    }

    /// A success, or the user's own ask: the count starts again.
    pub fn clear(&self) {
        *self.0.lock().expect("hold lock") = Strikes::default();
    }

    /// One more failure in a row at `now`: nothing is asked for the hold it earns, which it answers.
    pub fn strike(&self, pace: &Pace, now: DateTime<Utc>) -> Duration {
        let mut strikes = self.0.lock().expect("hold lock");
        strikes.count = strikes.count.saturating_add(1);
        let length = pace.hold_for(strikes.count);
        strikes.until = Some(wait::after(now, length));
        length
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_failure_in_a_row_doubles_the_hold_up_to_the_longest_and_a_success_starts_again() {
        let pace = Pace {
            gap: Duration::ZERO,
            first_hold: Duration::from_secs(30),
            longest_hold: Duration::from_secs(100),
        };
        let hold = Hold::default();
        let now = Utc::now();
        assert_eq!(hold.until(), None);
        assert_eq!(hold.strike(&pace, now), Duration::from_secs(30));
        assert_eq!(hold.strike(&pace, now), Duration::from_secs(60));
        assert_eq!(hold.strike(&pace, now), Duration::from_secs(100));
        assert_eq!(
            hold.until(),
            Some(wait::after(now, Duration::from_secs(100)))
        );
        hold.clear();
        assert_eq!(hold.until(), None);
        assert_eq!(hold.strike(&pace, now), Duration::from_secs(30));
    }
}
