//! The NTSC palette ALE renders with (Stella's "standard" palette): 128 colours indexed
//! by the TIA's colour-luminance byte with bit 0 clear. An odd index (only a greyed,
//! unfinished frame produces one) shows the grey level of the colour below it, which is
//! also what the grayscale observation uses for every pixel.

/// RGB of colour-luminance values 0x00, 0x02, ..., 0xFE.
const NTSC_RGB: [u32; 128] = [
    0x000000, 0x4a4a4a, 0x6f6f6f, 0x8e8e8e, 0xaaaaaa, 0xc0c0c0, 0xd6d6d6, 0xececec, 0x484800,
    0x69690f, 0x86861d, 0xa2a22a, 0xbbbb35, 0xd2d240, 0xe8e84a, 0xfcfc54, 0x7c2c00, 0x904811,
    0xa26221, 0xb47a30, 0xc3903d, 0xd2a44a, 0xdfb755, 0xecc860, 0x901c00, 0xa33915, 0xb55328,
    0xc66c3a, 0xd5824a, 0xe39759, 0xf0aa67, 0xfcbc74, 0x940000, 0xa71a1a, 0xb83232, 0xc84848,
    0xd65c5c, 0xe46f6f, 0xf08080, 0xfc9090, 0x840064, 0x97197a, 0xa8308f, 0xb846a2, 0xc659b3,
    0xd46cc3, 0xe07cd2, 0xec8ce0, 0x500084, 0x68199a, 0x7d30ad, 0x9246c0, 0xa459d0, 0xb56ce0,
    0xc57cee, 0xd48cfc, 0x140090, 0x331aa3, 0x4e32b5, 0x6848c6, 0x7f5cd5, 0x956fe3, 0xa980f0,
    0xbc90fc, 0x000094, 0x181aa7, 0x2d32b8, 0x4248c8, 0x545cd6, 0x656fe4, 0x7580f0, 0x8490fc,
    0x001c88, 0x183b9d, 0x2d57b0, 0x4272c2, 0x548ad2, 0x65a0e1, 0x75b5ef, 0x84c8fc, 0x003064,
    0x185080, 0x2d6d98, 0x4288b0, 0x54a0c5, 0x65b7d9, 0x75cceb, 0x84e0fc, 0x004030, 0x18624e,
    0x2d8169, 0x429e82, 0x54b899, 0x65d1ae, 0x75e7c2, 0x84fcd4, 0x004400, 0x1a661a, 0x328432,
    0x48a048, 0x5cba5c, 0x6fd26f, 0x80e880, 0x90fc90, 0x143c00, 0x355f18, 0x527e2d, 0x6e9c42,
    0x87b754, 0x9ed065, 0xb4e775, 0xc8fc84, 0x303800, 0x505916, 0x6d762b, 0x88923e, 0xa0ab4f,
    0xb7c25f, 0xccd86e, 0xe0ec7c, 0x482c00, 0x694d14, 0x866a26, 0xa28638, 0xbb9f47, 0xd2b656,
    0xe8cc63, 0xfce070,
];

/// RGB (packed 0xRRGGBB) for every byte value.
#[derive(Clone, Debug)]
pub struct Palette {
    rgb: [[u8; 3]; 256],
    /// `rgb` as little-endian words (red in the low byte), for [`Palette::rgb_into`].
    packed: [u32; 256],
    /// Eight pixels of each colour, as RGB bytes.
    run: Box<[[u8; 24]; 256]>,
    gray: [u8; 256],
}

fn unpack(c: u32) -> [u8; 3] {
    [(c >> 16) as u8, (c >> 8) as u8, c as u8]
}

/// Luminance with the weights ALE uses, rounded half away from zero.
fn luminance(c: u32) -> u8 {
    let [r, g, b] = unpack(c);
    libm::round(r as f64 * 0.2989 + g as f64 * 0.5870 + b as f64 * 0.1140) as u8
}

impl Palette {
    pub fn ntsc() -> Self {
        let mut rgb = [[0u8; 3]; 256];
        let mut gray = [0u8; 256];
        for (i, &c) in NTSC_RGB.iter().enumerate() {
            let l = luminance(c);
            rgb[2 * i] = unpack(c);
            rgb[2 * i + 1] = [l, l, l];
            // Grayscale reads the entry after the pixel's: the grey of an even colour;
            // for an odd index, the next colour's RGB blue channel (the reference's
            // table lookup), which wraps to colour 0 at the end.
            gray[2 * i] = l;
        }
        for i in 0..128 {
            let next = NTSC_RGB[(i + 1) % 128];
            gray[2 * i + 1] = next as u8;
        }
        let packed = rgb.map(|[r, g, b]| u32::from_le_bytes([r, g, b, 0]));
        let run = Box::new(rgb.map(|c| {
            let mut bytes = [0u8; 24];
            for px in bytes.chunks_exact_mut(3) {
                px.copy_from_slice(&c);
            }
            bytes
        }));
        Palette {
            rgb,
            packed,
            run,
            gray,
        }
    }

    #[inline]
    pub fn rgb(&self, index: u8) -> [u8; 3] {
        self.rgb[index as usize]
    }

    /// The RGB bytes of `indices` into `out`, as far as both go. Eight pixels of one
    /// colour (most of an Atari picture: background, playfield) are copied whole from
    /// [`Palette::run`]; other pixels go four at a time as three words. A byte at a
    /// time, this was about a tenth of an Atari step with its RGB observation
    /// (`docs/environments.md`, "Reference throughput").
    pub fn rgb_into(&self, indices: &[u8], out: &mut [u8]) {
        for (o, i) in out.chunks_exact_mut(24).zip(indices.chunks_exact(8)) {
            let word = i.try_into().map_or(0, u64::from_le_bytes);
            if word == (word & 0xff) * 0x0101_0101_0101_0101 {
                o.copy_from_slice(&self.run[i[0] as usize]);
            } else {
                self.four(&i[..4], &mut o[..12]);
                self.four(&i[4..], &mut o[12..]);
            }
        }
        let done = indices.len().min(out.len() / 3) / 8 * 8;
        for (px, &index) in out[done * 3..].chunks_exact_mut(3).zip(&indices[done..]) {
            px.copy_from_slice(&self.rgb(index));
        }
    }

    /// Four pixels' RGB as three little-endian words.
    #[inline(always)]
    fn four(&self, i: &[u8], o: &mut [u8]) {
        let [a, b, c, d] = [i[0], i[1], i[2], i[3]].map(|x| self.packed[x as usize]);
        o[0..4].copy_from_slice(&(a | b << 24).to_le_bytes());
        o[4..8].copy_from_slice(&(b >> 8 | c << 16).to_le_bytes());
        o[8..12].copy_from_slice(&(c >> 16 | d << 8).to_le_bytes());
    }

    #[inline]
    pub fn gray(&self, index: u8) -> u8 {
        self.gray[index as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rgb_into_writes_each_pixels_palette_colour_as_far_as_both_go() {
        let p = Palette::ntsc();
        // Every colour, then runs of one colour with a different pixel at each place.
        let mut indices: Vec<u8> = (0..=255u8).rev().chain(0..=255).collect();
        for k in 0..9 {
            indices.extend((0..8).map(|j| if j == k { 0x1e } else { 0x84 }));
        }
        let all = indices.len();
        for (pixels, room) in [
            (all, all),
            (0, 0),
            (7, 7),
            (9, 5),
            (3, 8),
            (13, 11),
            (17, 20),
            (160, 160),
        ] {
            let mut out = vec![0xaa; room * 3 + 2];
            p.rgb_into(&indices[..pixels], &mut out[..room * 3]);
            let shown = pixels.min(room);
            for (k, px) in out.chunks_exact(3).enumerate().take(room) {
                let want = if k < shown {
                    p.rgb(indices[k])
                } else {
                    [0xaa; 3]
                };
                assert_eq!(px, want, "pixel {k} of {pixels} into room for {room}");
            }
            assert_eq!(out[room * 3..], [0xaa, 0xaa], "nothing past the end");
        }
    }
}
