//! Baseline JPEG for RGB frames: chroma at half resolution both ways, the example
//! tables of the JPEG standard (ITU-T T.81, Annex K) scaled by quality as libjpeg (and
//! so Pillow) scales them, and a separable floating-point DCT.
//!
//! Written for the page's per-request budget (issue 17): in Chromium the `jpeg-encoder`
//! crate took 4-5 ms for a 550×350 frame, mostly per-sample work this encoder does a
//! row of blocks at a time. The arithmetic is IEEE `f32` without fused operations and
//! integer otherwise, so native and wasm builds write the same bytes.

/// Quantisation tables of Annex K (K.1 luminance, K.2 chrominance), in natural order.
const LUMA_QUANT: [u16; 64] = [
    16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56,
    14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113,
    92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];
const CHROMA_QUANT: [u16; 64] = [
    17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99,
    47, 66, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
    99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
];

/// The natural-order index of each zig-zag position.
const ZIGZAG: [usize; 64] = [
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20,
    13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59,
    52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
];

/// Huffman tables of Annex K.3: code counts per length 1-16, then symbols.
struct TableSpec {
    counts: [u8; 16],
    symbols: &'static [u8],
}

const DC_LUMA: TableSpec = TableSpec {
    counts: [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0],
    symbols: &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
};
const DC_CHROMA: TableSpec = TableSpec {
    counts: [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0],
    symbols: &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
};
const AC_LUMA: TableSpec = TableSpec {
    counts: [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 125],
    symbols: &[
        0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61,
        0x07, 0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52,
        0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25,
        0x26, 0x27, 0x28, 0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45,
        0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64,
        0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83,
        0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99,
        0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6,
        0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3,
        0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8,
        0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa,
    ],
};
const AC_CHROMA: TableSpec = TableSpec {
    counts: [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 119],
    symbols: &[
        0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61,
        0x71, 0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33,
        0x52, 0xf0, 0x15, 0x62, 0x72, 0xd1, 0x0a, 0x16, 0x24, 0x34, 0xe1, 0x25, 0xf1, 0x17, 0x18,
        0x19, 0x1a, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44,
        0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63,
        0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a,
        0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97,
        0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4,
        0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca,
        0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7,
        0xe8, 0xe9, 0xea, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa,
    ],
};

/// Code and length of each symbol, by the canonical assignment of T.81 Annex C.
struct HuffmanCodes {
    code: [u16; 256],
    len: [u8; 256],
}

impl HuffmanCodes {
    fn of(spec: &TableSpec) -> Self {
        let mut codes = Self {
            code: [0; 256],
            len: [0; 256],
        };
        let (mut code, mut next) = (0u16, 0);
        for (i, &count) in spec.counts.iter().enumerate() {
            for &symbol in &spec.symbols[next..next + usize::from(count)] {
                codes.code[usize::from(symbol)] = code;
                codes.len[usize::from(symbol)] = i as u8 + 1;
                code += 1;
            }
            next += usize::from(count);
            code <<= 1;
        }
        codes
    }
}

/// The scale of each output of the AAN DCT below: cos(k·π/16)·√2, 1 for k = 0.
const AAN_SCALE: [f64; 8] = [
    1.0,
    1.387_039_845,
    1.306_562_965,
    1.175_875_602,
    1.0,
    0.785_694_958,
    0.541_196_100,
    0.275_899_379,
];

/// libjpeg's quality scaling of a base table (quality 1-100), entries 1-255.
fn scaled_table(base: &[u16; 64], quality: u8) -> [u8; 64] {
    let q = u32::from(quality.clamp(1, 100));
    let scale = if q < 50 { 5000 / q } else { 200 - 2 * q };
    base.map(|b| ((u32::from(b) * scale + 50) / 100).clamp(1, 255) as u8)
}

/// What quantising a DCT output multiplies by: the AAN scale and 8 undone, in natural
/// order.
fn reciprocals(table: &[u8; 64]) -> [f32; 64] {
    std::array::from_fn(|i| {
        let (row, col) = (i / 8, i % 8);
        (1.0 / (f64::from(table[i]) * AAN_SCALE[row] * AAN_SCALE[col] * 8.0)) as f32
    })
}

/// Arai, Agui and Nakajima's 8-point DCT (scaled outputs) over `d[o]`, `d[o+s]`, …
#[inline(always)]
fn dct8(d: &mut [f32; 64], o: usize, s: usize) {
    let t0 = d[o] + d[o + 7 * s];
    let t7 = d[o] - d[o + 7 * s];
    let t1 = d[o + s] + d[o + 6 * s];
    let t6 = d[o + s] - d[o + 6 * s];
    let t2 = d[o + 2 * s] + d[o + 5 * s];
    let t5 = d[o + 2 * s] - d[o + 5 * s];
    let t3 = d[o + 3 * s] + d[o + 4 * s];
    let t4 = d[o + 3 * s] - d[o + 4 * s];

    let (t10, t13) = (t0 + t3, t0 - t3);
    let (t11, t12) = (t1 + t2, t1 - t2);
    d[o] = t10 + t11;
    d[o + 4 * s] = t10 - t11;
    let z1 = (t12 + t13) * 0.707_106_77;
    d[o + 2 * s] = t13 + z1;
    d[o + 6 * s] = t13 - z1;

    let (t10, t11, t12) = (t4 + t5, t5 + t6, t6 + t7);
    let z5 = (t10 - t12) * 0.382_683_43;
    let z2 = 0.541_196_1 * t10 + z5;
    let z4 = 1.306_563 * t12 + z5;
    let z3 = t11 * 0.707_106_77;
    let (z11, z13) = (t7 + z3, t7 - z3);
    d[o + 5 * s] = z13 + z2;
    d[o + 3 * s] = z13 - z2;
    d[o + s] = z11 + z4;
    d[o + 7 * s] = z11 - z4;
}

/// Bits to the output, 0xFF bytes stuffed with a zero (T.81 F.1.2.3).
struct BitWriter<'a> {
    out: &'a mut Vec<u8>,
    acc: u64,
    bits: u32,
}

impl BitWriter<'_> {
    #[inline(always)]
    fn put(&mut self, value: u32, len: u32) {
        // `len` is at most 16 (a code, or a coefficient's extra bits), and whole bytes
        // leave as soon as 32 bits wait: under 48 are ever held.
        self.acc = (self.acc << len) | u64::from(value & ((1u32 << len) - 1));
        self.bits += len;
        if self.bits >= 32 {
            self.flush_bytes();
        }
    }

    fn flush_bytes(&mut self) {
        while self.bits >= 8 {
            self.bits -= 8;
            let byte = (self.acc >> self.bits) as u8;
            self.out.push(byte);
            if byte == 0xFF {
                self.out.push(0);
            }
        }
    }

    /// Pads the last byte with one-bits.
    fn finish(mut self) {
        let pad = (8 - self.bits % 8) % 8;
        self.put((1 << pad) - 1, pad);
        self.flush_bytes();
    }
}

/// Number of bits of |v| (the JPEG "category" of a coefficient).
#[inline(always)]
fn category(v: i32) -> u32 {
    32 - v.unsigned_abs().leading_zeros()
}

/// The JPEG encoder, with its working rows kept between frames.
#[derive(Default)]
pub struct JpegEncoder {
    /// One row of 16×16 macroblocks: luma (level-shifted), then the two chroma planes at
    /// half resolution.
    luma: Vec<f32>,
    cb: Vec<f32>,
    cr: Vec<f32>,
}

struct Tables {
    recip: [[f32; 64]; 2],
    dc: [HuffmanCodes; 2],
    ac: [HuffmanCodes; 2],
}

impl JpegEncoder {
    /// Appends the JPEG of `rgb` (`width`×`height`, 3 bytes a pixel) to `out`.
    pub fn encode(
        &mut self,
        out: &mut Vec<u8>,
        rgb: &[u8],
        width: u16,
        height: u16,
        quality: u8,
    ) -> Result<(), String> {
        let (w, h) = (usize::from(width), usize::from(height));
        if w == 0 || h == 0 || rgb.len() != w * h * 3 {
            return Err(format!("{} bytes are not a {w}×{h} RGB picture", rgb.len()));
        }
        let quant = [
            scaled_table(&LUMA_QUANT, quality),
            scaled_table(&CHROMA_QUANT, quality),
        ];
        write_headers(out, width, height, &quant);
        let tables = Tables {
            recip: [reciprocals(&quant[0]), reciprocals(&quant[1])],
            dc: [HuffmanCodes::of(&DC_LUMA), HuffmanCodes::of(&DC_CHROMA)],
            ac: [HuffmanCodes::of(&AC_LUMA), HuffmanCodes::of(&AC_CHROMA)],
        };
        let mcus = w.div_ceil(16);
        let (lw, cw) = (mcus * 16, mcus * 8);
        self.luma.resize(lw * 16, 0.0);
        self.cb.resize(cw * 8, 0.0);
        self.cr.resize(cw * 8, 0.0);
        let mut bits = BitWriter {
            out,
            acc: 0,
            bits: 0,
        };
        let mut prev_dc = [0i32; 3];
        let mut block = [0.0f32; 64];
        for my in 0..h.div_ceil(16) {
            self.convert_rows(rgb, w, h, my * 16, lw, cw);
            for mx in 0..mcus {
                for (by, bx) in [(0, 0), (0, 8), (8, 0), (8, 8)] {
                    gather(&mut block, &self.luma, lw, by * lw + mx * 16 + bx);
                    encode_block(&mut bits, &mut block, &tables, 0, &mut prev_dc[0]);
                }
                gather(&mut block, &self.cb, cw, mx * 8);
                encode_block(&mut bits, &mut block, &tables, 1, &mut prev_dc[1]);
                gather(&mut block, &self.cr, cw, mx * 8);
                encode_block(&mut bits, &mut block, &tables, 1, &mut prev_dc[2]);
            }
        }
        bits.finish();
        out.extend_from_slice(&[0xFF, 0xD9]);
        Ok(())
    }

    /// Converts picture rows `y0..y0 + 16` (the last row and column repeated past the
    /// edges) to level-shifted YCbCr, chroma averaged over 2×2 pixels.
    fn convert_rows(&mut self, rgb: &[u8], w: usize, h: usize, y0: usize, lw: usize, cw: usize) {
        // BT.601 full range as JFIF defines it, in 16-bit fixed point.
        for pair in 0..8 {
            let rows = [(y0 + 2 * pair).min(h - 1), (y0 + 2 * pair + 1).min(h - 1)];
            let row = |y: usize| &rgb[y * w * 3..(y + 1) * w * 3];
            for (k, &y) in rows.iter().enumerate() {
                let dst = &mut self.luma[(2 * pair + k) * lw..(2 * pair + k + 1) * lw];
                for (d, px) in dst.iter_mut().zip(row(y).chunks_exact(3)) {
                    let (r, g, b) = (i32::from(px[0]), i32::from(px[1]), i32::from(px[2]));
                    *d = ((19595 * r + 38470 * g + 7471 * b + 32768) >> 16) as f32 - 128.0;
                }
                let last = dst[w - 1];
                dst[w..].fill(last);
            }
            let (top, bottom) = (row(rows[0]), row(rows[1]));
            let (cb, cr) = (
                &mut self.cb[pair * cw..(pair + 1) * cw],
                &mut self.cr[pair * cw..(pair + 1) * cw],
            );
            for (cx, (cb, cr)) in cb.iter_mut().zip(cr.iter_mut()).enumerate() {
                let (xa, xb) = ((2 * cx).min(w - 1) * 3, (2 * cx + 1).min(w - 1) * 3);
                let sum = |c: usize| {
                    i32::from(top[xa + c])
                        + i32::from(top[xb + c])
                        + i32::from(bottom[xa + c])
                        + i32::from(bottom[xb + c])
                };
                let (r, g, b) = (sum(0), sum(1), sum(2));
                // Sums of four pixels: the fixed-point coefficients over 4 · 65536.
                *cb = (-11059 * r - 21709 * g + 32768 * b) as f32 * (1.0 / 262_144.0);
                *cr = (32768 * r - 27439 * g - 5329 * b) as f32 * (1.0 / 262_144.0);
            }
        }
    }
}

/// Copies the 8×8 block at `start` of a plane `stride` wide.
#[inline(always)]
fn gather(block: &mut [f32; 64], plane: &[f32], stride: usize, start: usize) {
    for (row, dst) in block.chunks_exact_mut(8).enumerate() {
        let s = start + row * stride;
        dst.copy_from_slice(&plane[s..s + 8]);
    }
}

/// Transforms, quantises and entropy-codes one block of table `t` (0 luma, 1 chroma).
fn encode_block(
    bits: &mut BitWriter<'_>,
    block: &mut [f32; 64],
    tables: &Tables,
    t: usize,
    prev_dc: &mut i32,
) {
    for row in 0..8 {
        dct8(block, row * 8, 1);
    }
    for col in 0..8 {
        dct8(block, col, 8);
    }
    let recip = &tables.recip[t];
    // Rounded to nearest (ties to even) by adding 1.5·2²³, which leaves the integer in
    // the low mantissa bits: no rounding call and no saturating conversion, so a loop
    // the compiler vectorises (|values| stay far under 2²²). Zig-zag order is a second
    // pass.
    let mut natural = [0i32; 64];
    for ((v, &c), &r) in natural.iter_mut().zip(block.iter()).zip(recip) {
        *v = (c * r + 12_582_912.0).to_bits() as i32 - 0x4B40_0000;
    }
    let q: [i32; 64] = ZIGZAG.map(|n| natural[n]);
    let last = q.iter().rposition(|&v| v != 0).unwrap_or(0);
    let (dc, ac) = (&tables.dc[t], &tables.ac[t]);
    let diff = q[0] - *prev_dc;
    *prev_dc = q[0];
    let cat = category(diff);
    bits.put(
        u32::from(dc.code[cat as usize]),
        u32::from(dc.len[cat as usize]),
    );
    if cat > 0 {
        bits.put(extra_bits(diff, cat), cat);
    }
    let mut run = 0u32;
    for &v in &q[1..=last] {
        if v == 0 {
            run += 1;
            continue;
        }
        while run > 15 {
            bits.put(u32::from(ac.code[0xF0]), u32::from(ac.len[0xF0]));
            run -= 16;
        }
        let cat = category(v);
        let symbol = ((run << 4) | cat) as usize;
        bits.put(u32::from(ac.code[symbol]), u32::from(ac.len[symbol]));
        bits.put(extra_bits(v, cat), cat);
        run = 0;
    }
    if last < 63 {
        bits.put(u32::from(ac.code[0]), u32::from(ac.len[0]));
    }
}

/// A coefficient's extra bits: the value itself, or for negatives its ones' complement.
#[inline(always)]
fn extra_bits(v: i32, cat: u32) -> u32 {
    let v = if v < 0 { v - 1 } else { v };
    (v as u32) & ((1u32 << cat) - 1)
}

/// SOI, JFIF, the two quantisation tables, the frame, the four Huffman tables and the
/// scan header.
fn write_headers(out: &mut Vec<u8>, width: u16, height: u16, quant: &[[u8; 64]; 2]) {
    out.extend_from_slice(&[0xFF, 0xD8]);
    // JFIF 1.01, no density units, 1:1, no thumbnail.
    out.extend_from_slice(&[
        0xFF, 0xE0, 0, 16, b'J', b'F', b'I', b'F', 0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
    ]);
    for (id, table) in quant.iter().enumerate() {
        out.extend_from_slice(&[0xFF, 0xDB, 0, 67, id as u8]);
        out.extend(ZIGZAG.iter().map(|&n| table[n]));
    }
    let [wh, wl] = width.to_be_bytes();
    let [hh, hl] = height.to_be_bytes();
    out.extend_from_slice(&[
        0xFF, 0xC0, 0, 17, 8, hh, hl, wh, wl, 3, // precision, size, components
        1, 0x22, 0, // Y: 2×2 sampling, table 0
        2, 0x11, 1, // Cb
        3, 0x11, 1, // Cr
    ]);
    for (class_id, spec) in [
        (0x00, &DC_LUMA),
        (0x10, &AC_LUMA),
        (0x01, &DC_CHROMA),
        (0x11, &AC_CHROMA),
    ] {
        let len = 2 + 1 + 16 + spec.symbols.len();
        out.extend_from_slice(&[0xFF, 0xC4, (len >> 8) as u8, len as u8, class_id]);
        out.extend_from_slice(&spec.counts);
        out.extend_from_slice(spec.symbols);
    }
    out.extend_from_slice(&[0xFF, 0xDA, 0, 12, 3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A picture with edges, gradients and flat areas, not a multiple of 16 either way.
    fn scene(w: usize, h: usize) -> Vec<u8> {
        let mut rgb = Vec::with_capacity(w * h * 3);
        for y in 0..h {
            for x in 0..w {
                let (r, g, b) = if (x / 13 + y / 7) % 3 == 0 {
                    (230, 40, 30)
                } else if x > w / 2 {
                    ((x * 255 / w) as u8, (y * 255 / h) as u8, 128)
                } else {
                    (20, 20, 20)
                };
                rgb.extend_from_slice(&[r, g, b]);
            }
        }
        rgb
    }

    fn psnr(a: &[u8], b: &[u8]) -> f64 {
        let mse = a
            .iter()
            .zip(b)
            .map(|(&x, &y)| (f64::from(x) - f64::from(y)).powi(2))
            .sum::<f64>()
            / a.len() as f64;
        10.0 * (255.0f64 * 255.0 / mse).log10()
    }

    #[test]
    fn a_decoder_reads_it_back_close_to_the_picture_and_quality_trades_size() {
        let (w, h) = (101, 37);
        let rgb = scene(w, h);
        let mut enc = JpegEncoder::default();
        let mut sizes = Vec::new();
        let mut quality_db = Vec::new();
        for q in [20, 75, 95] {
            let mut out = Vec::new();
            enc.encode(&mut out, &rgb, w as u16, h as u16, q).unwrap();
            let img = image::load_from_memory_with_format(&out, image::ImageFormat::Jpeg)
                .unwrap()
                .to_rgb8();
            assert_eq!((img.width(), img.height()), (w as u32, h as u32));
            sizes.push(out.len());
            quality_db.push(psnr(img.as_raw(), &rgb));
        }
        assert!(sizes.windows(2).all(|p| p[0] < p[1]), "{sizes:?}");
        assert!(quality_db.windows(2).all(|p| p[0] < p[1]), "{quality_db:?}");
        // Saturated colour edges lose detail to the half-resolution chroma at any quality.
        assert!(
            quality_db[0] > 19.0 && quality_db[2] > 24.0,
            "{quality_db:?}"
        );
    }

    #[test]
    fn smooth_pictures_come_back_nearly_exact_at_high_quality() {
        let (w, h) = (64, 48);
        let rgb: Vec<u8> = (0..w * h)
            .flat_map(|i| {
                let (x, y) = (i % w, i / w);
                [(x * 3) as u8, (y * 4) as u8, ((x + y) * 2) as u8]
            })
            .collect();
        let mut out = Vec::new();
        JpegEncoder::default()
            .encode(&mut out, &rgb, w as u16, h as u16, 95)
            .unwrap();
        let img = image::load_from_memory(&out).unwrap().to_rgb8();
        let db = psnr(img.as_raw(), &rgb);
        assert!(db > 40.0, "{db}");
    }

    #[test]
    fn flat_pictures_keep_their_colour_and_the_bytes_repeat() {
        let (w, h) = (40, 24);
        let rgb: Vec<u8> = [200u8, 100, 50].repeat(w * h);
        let mut enc = JpegEncoder::default();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        enc.encode(&mut a, &rgb, w as u16, h as u16, 85).unwrap();
        enc.encode(&mut b, &rgb, w as u16, h as u16, 85).unwrap();
        assert_eq!(a, b);
        let img = image::load_from_memory(&a).unwrap().to_rgb8();
        for p in img.pixels() {
            for (got, want) in p.0.iter().zip([200u8, 100, 50]) {
                assert!(got.abs_diff(want) <= 2, "{:?}", p.0);
            }
        }
    }

    #[test]
    fn the_tables_scale_as_libjpeg_scales_them() {
        assert_eq!(scaled_table(&LUMA_QUANT, 50), LUMA_QUANT.map(|v| v as u8));
        assert_eq!(scaled_table(&LUMA_QUANT, 75)[0], 8);
        assert_eq!(scaled_table(&LUMA_QUANT, 100), [1; 64]);
        assert_eq!(scaled_table(&CHROMA_QUANT, 1)[0], 255);
        for spec in [&DC_LUMA, &DC_CHROMA, &AC_LUMA, &AC_CHROMA] {
            let total: usize = spec.counts.iter().map(|&c| usize::from(c)).sum();
            assert_eq!(total, spec.symbols.len());
        }
    }

    #[test]
    fn a_wrong_size_is_an_error() {
        let mut out = Vec::new();
        let err = JpegEncoder::default().encode(&mut out, &[0; 10], 2, 2, 80);
        assert!(err.is_err());
    }
}
