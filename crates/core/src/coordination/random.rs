//! A small seeded generator (SplitMix64) and the one 64-bit mix every hash here uses: the
//! baseline must give the same figures for the same seed on every machine, and the MinHash
//! permutations must be the same from run to run.

/// SplitMix64's finaliser: a fixed bijective mix of 64 bits.
pub(super) fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A seeded stream of 64-bit numbers (SplitMix64).
pub(super) struct Random(u64);

impl Random {
    pub(super) fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub(super) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.0)
    }

    /// A whole number in `[-bound, bound]`.
    pub(super) fn within(&mut self, bound: i64) -> i64 {
        if bound <= 0 {
            return 0;
        }
        let span = (2 * bound + 1) as u64;
        (self.next() % span) as i64 - bound
    }
}
