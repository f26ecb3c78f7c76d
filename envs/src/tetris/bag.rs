//! The 7-bag randomizer: its own generator (not the environment's), reseeded only by a
//! positive seed, and a bag that is reshuffled in place after its last piece.

use crate::rng::NpRandom;

pub const BAG_SIZE: usize = 7;

#[derive(Clone, Debug)]
pub struct Bag {
    rng: Option<NpRandom>,
    pieces: [u8; BAG_SIZE],
    index: usize,
}

impl Default for Bag {
    fn default() -> Self {
        Self {
            rng: None,
            pieces: std::array::from_fn(|i| i as u8),
            index: 0,
        }
    }
}

impl Bag {
    /// Only a seed > 0 rebuilds the generator (`reset(seed=0)` continues the stream like
    /// `reset(seed=None)`). The package falls back to OS entropy when it has no generator
    /// yet; `envs` has no entropy, so it starts from the seed-0 stream instead.
    pub fn reset(&mut self, seed: Option<u64>) {
        match seed {
            Some(s) if s > 0 => self.rng = Some(NpRandom::seeded(u128::from(s))),
            _ => {
                self.rng.get_or_insert_with(|| NpRandom::seeded(0));
            }
        }
        self.pieces = std::array::from_fn(|i| i as u8);
        self.shuffle();
    }

    fn shuffle(&mut self) {
        let rng = self.rng.get_or_insert_with(|| NpRandom::seeded(0));
        rng.shuffle(&mut self.pieces);
        self.index = 0;
    }

    /// The next piece index; the bag is reshuffled (from its current order) as soon as its
    /// seventh piece has been handed out.
    pub fn next_piece(&mut self) -> usize {
        let piece = self.pieces[self.index];
        self.index += 1;
        if self.index >= BAG_SIZE {
            self.shuffle();
        }
        usize::from(piece)
    }

    pub fn pieces(&self) -> [u8; BAG_SIZE] {
        self.pieces
    }

    pub fn index(&self) -> usize {
        self.index
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_one_bag() {
        let mut bag = Bag::default();
        bag.reset(Some(1));
        assert_eq!(bag.pieces(), [5, 0, 1, 4, 2, 6, 3]);
    }

    #[test]
    fn seed_zero_continues_the_stream() {
        let mut a = Bag::default();
        a.reset(Some(5));
        let mut b = a.clone();
        a.reset(Some(0));
        b.reset(None);
        assert_eq!(a.pieces(), b.pieces());
        let (x, y): (Vec<usize>, Vec<usize>) =
            (0..30).map(|_| (a.next_piece(), b.next_piece())).unzip();
        assert_eq!(x, y);
    }

    #[test]
    fn every_bag_holds_each_piece_once() {
        let mut bag = Bag::default();
        bag.reset(Some(3));
        for _ in 0..5 {
            let mut seen: Vec<usize> = (0..BAG_SIZE).map(|_| bag.next_piece()).collect();
            seen.sort_unstable();
            assert_eq!(seen, [0, 1, 2, 3, 4, 5, 6]);
        }
    }
}
