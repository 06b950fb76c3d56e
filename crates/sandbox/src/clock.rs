//! The sandbox's "now". By default it runs: the world's "now" plus the time since the world was
//! generated. A manual clock stands still at the world's "now" until a test advances it. Either
//! can be moved forward (`advance`, or `POST /__sandbox/clock`), never back, so what the service
//! has said exists keeps existing.

use crate::world::World;
use std::sync::atomic::{AtomicI64, Ordering};

#[derive(Debug, Default)]
pub struct Clock {
    manual: bool,
    /// How far the clock has been moved forward, in ms.
    advanced_ms: AtomicI64,
}

impl Clock {
    /// The clock that runs with real time.
    pub fn running() -> Clock {
        Clock::default()
    }

    /// A clock that stands at the world's "now" and moves only when advanced.
    pub fn manual() -> Clock {
        Clock {
            manual: true,
            advanced_ms: AtomicI64::new(0),
        }
    }

    pub fn is_manual(&self) -> bool {
        self.manual
    }

    /// The time in ms since the epoch.
    pub fn now_ms(&self, world: &World) -> i64 {
        let base = if self.manual {
            world.now_ms
        } else {
            world.clock_ms()
        };
        base + self.advanced_ms.load(Ordering::Acquire)
    }

    /// Moves the clock forward by `ms` (negative values are ignored: time does not go back).
    pub fn advance(&self, ms: i64) {
        self.advanced_ms.fetch_add(ms.max(0), Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manual_clock_moves_only_when_advanced() {
        let world = World::shared(42, Some(1_790_000_000_000));
        let clock = Clock::manual();
        assert_eq!(clock.now_ms(&world), world.now_ms);
        clock.advance(90_000);
        clock.advance(-5_000);
        assert_eq!(clock.now_ms(&world), world.now_ms + 90_000);
        let running = Clock::running();
        running.advance(1_000);
        assert!(running.now_ms(&world) >= world.now_ms + 1_000);
    }
}
