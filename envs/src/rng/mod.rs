//! The reference environments' random generators, bit for bit: numpy's
//! `default_rng(seed)` (SeedSequence → PCG64 → Generator), numpy's legacy `RandomState`
//! and CPython's `random.Random` (both MT19937; docs/rng.md).

mod generator;
pub mod glibc_log;
pub mod glibc_trig;
mod mt19937;
mod pcg64;
mod py_random;
mod random_state;
mod seed_sequence;

pub use generator::{EmptyRange, NpRandom};
pub use mt19937::Mt19937;
pub use pcg64::Pcg64;
pub use py_random::{PyRandom, PyRandomError};
pub use random_state::{RandomState, RandomStateError};
pub use seed_sequence::SeedSequence;

/// An environment's generator with Gymnasium's reset rule: a seed rebuilds it, no seed
/// continues the stream. There is no entropy source in `envs`, so an environment that is
/// first reset without a seed starts from seed 0.
#[derive(Clone, Debug, Default)]
pub struct EnvRng {
    rng: Option<NpRandom>,
}

impl EnvRng {
    pub fn reset(&mut self, seed: Option<u64>) -> &mut NpRandom {
        match seed {
            Some(s) => self.rng.insert(NpRandom::seeded(u128::from(s))),
            None => self.rng.get_or_insert_with(|| NpRandom::seeded(0)),
        }
    }

    /// The generator; an environment that was never reset draws as if seeded with 0.
    pub fn get(&mut self) -> &mut NpRandom {
        self.rng.get_or_insert_with(|| NpRandom::seeded(0))
    }
}
