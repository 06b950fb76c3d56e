//! A tiny deterministic PRNG (SplitMix64). The world must be identical for a given seed on every
//! platform and fast to generate in unoptimised test builds, so we avoid heavier generators.

#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// An independent stream derived from this seed and a label, so that adding a field to one
    /// part of the world does not reshuffle every other part.
    pub fn derive(seed: u64, label: u64) -> Self {
        Rng::new(mix(seed ^ mix(label)))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// Uniform in `0..n` (n > 0). The modulo bias is irrelevant for synthetic data.
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// Pareto-distributed integer: most values are small, a few are huge (engagement, followers).
    pub fn long_tail(&mut self, scale: f64, alpha: f64, cap: u64) -> u64 {
        let u = 1.0 - self.unit(); // (0, 1]
        let v = scale * (u.powf(-1.0 / alpha) - 1.0);
        (v as u64).min(cap)
    }
}

/// SplitMix64 finaliser; also used as a cheap, stable hash of integers.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a over bytes: stable across runs and platforms (unlike `std`'s hasher), for ETags and
/// for deriving deterministic choices from request text.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `n` url-safe base64 characters drawn from the generator (keys, short links, media keys).
pub fn url_safe_chars(rng: &mut Rng, n: usize) -> String {
    (0..n).map(|_| URL_SAFE[rng.below(64)] as char).collect()
}

/// Unpadded url-safe base64, used for opaque cursors.
pub fn base64_url_encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len() * 4 / 3 + 3);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let chars = chunk.len() + 1;
        for i in 0..chars {
            out.push(URL_SAFE[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

pub fn base64_url_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for c in text.bytes() {
        let v = URL_SAFE.iter().position(|&x| x == c)? as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let a: Vec<u64> = (0..5)
            .map({
                let mut r = Rng::new(7);
                move |_| r.next_u64()
            })
            .collect();
        let mut r = Rng::new(7);
        let b: Vec<u64> = (0..5).map(|_| r.next_u64()).collect();
        assert_eq!(a, b);
        assert_ne!(Rng::new(8).next_u64(), a[0]);
    }

    #[test]
    fn base64_round_trip() {
        for data in [&b""[..], b"a", b"ab", b"abc", b"rt:123456:40"] {
            let enc = base64_url_encode(data);
            assert!(enc.bytes().all(|c| URL_SAFE.contains(&c)));
            assert_eq!(base64_url_decode(&enc).unwrap(), data);
        }
        assert!(base64_url_decode("not base64!").is_none());
    }

    #[test]
    fn long_tail_has_small_median_and_big_max() {
        let mut r = Rng::new(1);
        let mut v: Vec<u64> = (0..10_000)
            .map(|_| r.long_tail(10.0, 1.2, 1_000_000))
            .collect();
        v.sort_unstable();
        assert!(v[5_000] < 20, "median {}", v[5_000]);
        assert!(v[9_999] > 1_000, "max {}", v[9_999]);
    }
}
