//! Run identity: FNV-1a 64 of the scenario's canonical text.
//!
//! FNV-1a (Fowler, Noll, Vo; offset basis 0xcbf29ce484222325, prime
//! 0x100000001b3, one byte at a time) is fixed by its definition, so a run's
//! id is the same on every machine, Rust version and build. (std's
//! `DefaultHasher` is not: its algorithm may change between releases.) A
//! 64-bit hash could collide; the run file also stores the canonical text and
//! is only reused when that text matches exactly.

/// FNV-1a 64 offset basis.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a 64 prime.
pub const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a 64 of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(FNV_PRIME)
    })
}

/// A run's id: FNV-1a 64 of `canonical` (the scenario's canonical text after
/// overrides) as 16 lowercase hex digits. Run files are `runs/<id>.json`.
pub fn run_id(canonical: &str) -> String {
    format!("{:016x}", fnv1a64(canonical.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_matches_the_published_test_vectors() {
        // From the FNV reference test suite (Landon Curt Noll's fnv test vectors).
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn run_ids_are_16_hex_digits_and_pinned() {
        assert_eq!(run_id(""), "cbf29ce484222325");
        assert_eq!(run_id("foobar"), "85944171f73967e8");
        let id = run_id("duration = \"5s\"\nname = \"x\"\n");
        assert_eq!(id.len(), 16);
        assert!(id
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
        assert_ne!(id, run_id("duration = \"6s\"\nname = \"x\"\n"));
    }
}
