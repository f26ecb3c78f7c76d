//! VP8's boolean entropy coder (RFC 6386 §7; `docs/video.md`): each bit is coded with
//! the probability, out of 256, that it is 0.

pub struct BoolEncoder {
    out: Vec<u8>,
    range: u32,
    bottom: u32,
    /// Shifts left before the next byte is written.
    bit_count: i32,
}

impl Default for BoolEncoder {
    fn default() -> Self {
        Self {
            out: Vec::new(),
            range: 255,
            bottom: 0,
            bit_count: 24,
        }
    }
}

impl BoolEncoder {
    /// `bit`, which is 0 with probability `prob` / 256.
    pub fn put(&mut self, prob: u8, bit: bool) {
        let split = 1 + (((self.range - 1) * u32::from(prob)) >> 8);
        if bit {
            self.bottom += split;
            self.range -= split;
        } else {
            self.range = split;
        }
        while self.range < 128 {
            self.range <<= 1;
            if self.bottom & (1 << 31) != 0 {
                self.carry();
            }
            self.bottom <<= 1;
            self.bit_count -= 1;
            if self.bit_count == 0 {
                self.out.push((self.bottom >> 24) as u8);
                self.bottom &= (1 << 24) - 1;
                self.bit_count = 8;
            }
        }
    }

    /// The low `bits` bits of `value`, most significant first, each at even odds.
    pub fn put_literal(&mut self, bits: u32, value: u32) {
        for i in (0..bits).rev() {
            self.put(128, (value >> i) & 1 == 1);
        }
    }

    /// A carry out of `bottom` ripples into the bytes already written.
    fn carry(&mut self) {
        for b in self.out.iter_mut().rev() {
            if *b == 255 {
                *b = 0;
            } else {
                *b += 1;
                return;
            }
        }
    }

    /// The coded bytes, padded so that a decoder reading ahead finds defined data.
    pub fn finish(mut self) -> Vec<u8> {
        for _ in 0..32 {
            self.put(128, false);
        }
        self.out
    }
}
