//! A VP8 key-frame encoder (RFC 6386; `docs/video.md`, "The encoder"): every frame is a
//! key frame of 16×16 intra-predicted macroblocks (DC, vertical, horizontal or
//! TrueMotion, chosen by the smallest error), one quantizer, no loop filter, one token
//! partition and the format's default probabilities. Frames that stand alone decode
//! in any player and from any point; the choices that leave a decoder room (the edge
//! pixels a prediction reads, the loop filter) are avoided, so what we reconstruct is
//! what every decoder shows.

use super::bool_encoder::BoolEncoder;
use super::transform::{forward_dct, forward_wht, inverse_dct, inverse_wht};
use super::vp8_tables::{AC_STEPS, DC_STEPS, DEFAULT_TOKEN_PROBS, TOKEN_UPDATE_PROBS};
use super::yuv::{Plane, Yuv420};

/// Coefficient positions in the order tokens are coded.
const ZIGZAG: [usize; 16] = [0, 1, 4, 8, 5, 2, 3, 6, 9, 12, 13, 10, 7, 11, 14, 15];
/// The probability band of each coded position.
const BANDS: [usize; 16] = [0, 1, 2, 3, 6, 4, 5, 6, 6, 6, 6, 6, 6, 6, 6, 7];
/// The extra bits of the token categories 1-6: the smallest value and the bits'
/// probabilities, most significant first.
const CATEGORIES: [(u32, &[u8]); 6] = [
    (5, &[159]),
    (7, &[165, 145]),
    (11, &[173, 148, 140]),
    (19, &[176, 155, 140, 135]),
    (35, &[180, 157, 141, 134, 130]),
    (67, &[254, 254, 243, 230, 196, 177, 153, 140, 133, 130, 129]),
];
/// The largest coefficient magnitude a token can carry.
const MAX_COEFF: i32 = 2048;

/// Plane types of the token probabilities.
const PLANE_Y_AFTER_Y2: usize = 0;
const PLANE_Y2: usize = 1;
const PLANE_CHROMA: usize = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Dc,
    Vertical,
    Horizontal,
    TrueMotion,
}

/// The quantizer steps of a frame.
struct Steps {
    y: (i32, i32),
    y2: (i32, i32),
    uv: (i32, i32),
}

impl Steps {
    fn new(index: u8) -> Self {
        let i = usize::from(index.min(127));
        let (dc, ac) = (i32::from(DC_STEPS[i]), i32::from(AC_STEPS[i]));
        Self {
            y: (dc, ac),
            y2: (dc * 2, (ac * 155 / 100).max(8)),
            uv: (dc.min(132), ac),
        }
    }
}

/// One macroblock's decisions and quantized coefficients (raster order in each block).
struct Macroblock {
    y_mode: Mode,
    uv_mode: Mode,
    y2: [i32; 16],
    y: [[i32; 16]; 16],
    u: [[i32; 16]; 4],
    v: [[i32; 16]; 4],
}

impl Macroblock {
    fn is_empty(&self) -> bool {
        let zero = |b: &[i32; 16]| b.iter().all(|&c| c == 0);
        zero(&self.y2)
            && self.y.iter().all(zero)
            && self.u.iter().all(zero)
            && self.v.iter().all(zero)
    }
}

/// The prediction of an `n`×`n` block at (`x`, `y`) of `recon` in `mode`, where the
/// frame's edges read as the format defines: 127 above the first row, 129 left of the
/// first column (the corner is never read: TrueMotion is not used on an edge).
fn predict(recon: &Plane, x: usize, y: usize, n: usize, mode: Mode) -> Vec<u8> {
    let above: Vec<i32> = (0..n)
        .map(|c| {
            if y > 0 {
                i32::from(recon.at(x + c, y - 1))
            } else {
                127
            }
        })
        .collect();
    let left: Vec<i32> = (0..n)
        .map(|r| {
            if x > 0 {
                i32::from(recon.at(x - 1, y + r))
            } else {
                129
            }
        })
        .collect();
    let shift = n.trailing_zeros();
    let mut out = vec![0u8; n * n];
    match mode {
        Mode::Dc => {
            let (sa, sl) = (above.iter().sum::<i32>(), left.iter().sum::<i32>());
            let dc = match (y > 0, x > 0) {
                (true, true) => (sa + sl + (1 << shift)) >> (shift + 1),
                (true, false) => (sa + (1 << (shift - 1))) >> shift,
                (false, true) => (sl + (1 << (shift - 1))) >> shift,
                (false, false) => 128,
            };
            out.fill(dc as u8);
        }
        Mode::Vertical => {
            for r in 0..n {
                for c in 0..n {
                    out[r * n + c] = above[c] as u8;
                }
            }
        }
        Mode::Horizontal => {
            for r in 0..n {
                out[r * n..(r + 1) * n].fill(left[r] as u8);
            }
        }
        Mode::TrueMotion => {
            let corner = i32::from(recon.at(x - 1, y - 1));
            for r in 0..n {
                for c in 0..n {
                    out[r * n + c] = (left[r] + above[c] - corner).clamp(0, 255) as u8;
                }
            }
        }
    }
    out
}

/// The modes usable at (`x`, `y`): none that reads outside the frame but DC.
fn modes_at(x: usize, y: usize) -> Vec<Mode> {
    let mut modes = vec![Mode::Dc];
    if y > 0 {
        modes.push(Mode::Vertical);
    }
    if x > 0 {
        modes.push(Mode::Horizontal);
    }
    if x > 0 && y > 0 {
        modes.push(Mode::TrueMotion);
    }
    modes
}

fn error(src: &Plane, x: usize, y: usize, n: usize, pred: &[u8]) -> u32 {
    let mut sum = 0u32;
    for r in 0..n {
        for c in 0..n {
            sum += u32::from(src.at(x + c, y + r).abs_diff(pred[r * n + c]));
        }
    }
    sum
}

fn quantize(c: i32, step: i32) -> i32 {
    let q = (c.abs() + step / 2) / step;
    q.min(MAX_COEFF) * c.signum()
}

/// The residual of the 4×4 block `b` (raster order) of an `n`×`n` area at (`x`, `y`).
fn residual(src: &Plane, x: usize, y: usize, n: usize, pred: &[u8], b: usize) -> [i32; 16] {
    let (bx, by) = ((b % (n / 4)) * 4, (b / (n / 4)) * 4);
    std::array::from_fn(|i| {
        let (c, r) = (bx + i % 4, by + i / 4);
        i32::from(src.at(x + c, y + r)) - i32::from(pred[r * n + c])
    })
}

/// Writes prediction plus the inverse transform of `coeffs` (dequantized) into block
/// `b` of the area.
fn reconstruct(
    recon: &mut Plane,
    x: usize,
    y: usize,
    n: usize,
    pred: &[u8],
    b: usize,
    coeffs: &[i32; 16],
) {
    let res = inverse_dct(coeffs);
    let (bx, by) = ((b % (n / 4)) * 4, (b / (n / 4)) * 4);
    for (i, d) in res.iter().enumerate() {
        let (c, r) = (bx + i % 4, by + i / 4);
        let v = (i32::from(pred[r * n + c]) + d).clamp(0, 255) as u8;
        recon.set(x + c, y + r, v);
    }
}

fn dequantize(q: &[i32; 16], (dc, ac): (i32, i32)) -> [i32; 16] {
    std::array::from_fn(|i| q[i] * if i == 0 { dc } else { ac })
}

/// Chooses the mode of an `n`×`n` area of `planes` (summing their errors).
fn choose_mode(pairs: &[(&Plane, &Plane)], x: usize, y: usize, n: usize) -> Mode {
    let mut best = (u32::MAX, Mode::Dc);
    for mode in modes_at(x, y) {
        let e = pairs
            .iter()
            .map(|(src, recon)| error(src, x, y, n, &predict(recon, x, y, n, mode)))
            .sum();
        if e < best.0 {
            best = (e, mode);
        }
    }
    best.1
}

/// Codes the 8×8 chroma area of one plane; returns its four quantized blocks.
fn chroma(
    src: &Plane,
    recon: &mut Plane,
    x: usize,
    y: usize,
    mode: Mode,
    steps: (i32, i32),
) -> [[i32; 16]; 4] {
    let pred = predict(recon, x, y, 8, mode);
    let mut blocks = [[0i32; 16]; 4];
    for (b, q) in blocks.iter_mut().enumerate() {
        let coeffs = forward_dct(&residual(src, x, y, 8, &pred, b));
        *q = std::array::from_fn(|i| quantize(coeffs[i], if i == 0 { steps.0 } else { steps.1 }));
        reconstruct(recon, x, y, 8, &pred, b, &dequantize(q, steps));
    }
    blocks
}

/// Predicts, transforms and quantizes the macroblock at (`mx`, `my`), writing what a
/// decoder reconstructs into `recon`.
fn code_macroblock(
    src: &Yuv420,
    recon: &mut Yuv420,
    mx: usize,
    my: usize,
    steps: &Steps,
) -> Macroblock {
    let (x, y) = (mx * 16, my * 16);
    let y_mode = choose_mode(&[(&src.y, &recon.y)], x, y, 16);
    let pred = predict(&recon.y, x, y, 16, y_mode);
    let mut dcs = [0i32; 16];
    let mut yq = [[0i32; 16]; 16];
    for b in 0..16 {
        let coeffs = forward_dct(&residual(&src.y, x, y, 16, &pred, b));
        dcs[b] = coeffs[0];
        yq[b] = std::array::from_fn(|i| {
            if i == 0 {
                0
            } else {
                quantize(coeffs[i], steps.y.1)
            }
        });
    }
    let wht = forward_wht(&dcs);
    let y2: [i32; 16] =
        std::array::from_fn(|i| quantize(wht[i], if i == 0 { steps.y2.0 } else { steps.y2.1 }));
    let dc_back = inverse_wht(&dequantize(&y2, steps.y2));
    for b in 0..16 {
        let mut deq = dequantize(&yq[b], steps.y);
        deq[0] = dc_back[b];
        reconstruct(&mut recon.y, x, y, 16, &pred, b, &deq);
    }
    let (cx, cy) = (mx * 8, my * 8);
    let uv_mode = choose_mode(&[(&src.u, &recon.u), (&src.v, &recon.v)], cx, cy, 8);
    let u = chroma(&src.u, &mut recon.u, cx, cy, uv_mode, steps.uv);
    let v = chroma(&src.v, &mut recon.v, cx, cy, uv_mode, steps.uv);
    Macroblock {
        y_mode,
        uv_mode,
        y2,
        y: yq,
        u,
        v,
    }
}

/// Codes one block's tokens from position `first`; returns whether it had a nonzero
/// coefficient (the context of the blocks right of and below it).
fn put_block(
    e: &mut BoolEncoder,
    plane: usize,
    first: usize,
    ctx: usize,
    coeffs: &[i32; 16],
) -> bool {
    let probs = &DEFAULT_TOKEN_PROBS[plane];
    let last = (first..16).rev().find(|&i| coeffs[ZIGZAG[i]] != 0);
    let Some(last) = last else {
        e.put(probs[BANDS[first]][ctx][0], false);
        return false;
    };
    let mut ctx = ctx;
    let mut after_zero = false;
    for i in first..=last {
        let p = &probs[BANDS[i]][ctx];
        if !after_zero {
            e.put(p[0], true);
        }
        let v = coeffs[ZIGZAG[i]];
        if v == 0 {
            e.put(p[1], false);
            ctx = 0;
            after_zero = true;
            continue;
        }
        e.put(p[1], true);
        let a = v.unsigned_abs();
        if a == 1 {
            e.put(p[2], false);
            ctx = 1;
        } else {
            e.put(p[2], true);
            ctx = 2;
            put_magnitude(e, p, a);
        }
        e.put(128, v < 0);
        after_zero = false;
    }
    if last < 15 {
        e.put(probs[BANDS[last + 1]][ctx][0], false);
    }
    true
}

/// A magnitude of at least 2 through the token tree's lower nodes and its extra bits.
fn put_magnitude(e: &mut BoolEncoder, p: &[u8; 11], a: u32) {
    if a <= 4 {
        e.put(p[3], false);
        if a == 2 {
            e.put(p[4], false);
        } else {
            e.put(p[4], true);
            e.put(p[5], a == 4);
        }
        return;
    }
    e.put(p[3], true);
    let cat = CATEGORIES
        .iter()
        .rposition(|(base, _)| a >= *base)
        .unwrap_or(0);
    match cat {
        0 | 1 => {
            e.put(p[6], false);
            e.put(p[7], cat == 1);
        }
        2 | 3 => {
            e.put(p[6], true);
            e.put(p[8], false);
            e.put(p[9], cat == 3);
        }
        _ => {
            e.put(p[6], true);
            e.put(p[8], true);
            e.put(p[10], cat == 5);
        }
    }
    let (base, bits) = CATEGORIES[cat];
    let extra = a - base;
    for (k, &prob) in bits.iter().enumerate() {
        e.put(prob, (extra >> (bits.len() - 1 - k)) & 1 == 1);
    }
}

/// The nonzero flags of the blocks bordering the ones being coded.
#[derive(Clone, Default)]
struct Contexts {
    y: Vec<bool>,
    u: Vec<bool>,
    v: Vec<bool>,
    y2: Vec<bool>,
}

impl Contexts {
    fn new(mbs: usize) -> Self {
        Self {
            y: vec![false; mbs * 4],
            u: vec![false; mbs * 2],
            v: vec![false; mbs * 2],
            y2: vec![false; mbs],
        }
    }
}

/// Codes the blocks of an `n`×`n` area (in 4×4 blocks: `n` = 4 luma, 2 chroma) with
/// the contexts above (`above`, from the area's first column) and left.
fn put_blocks(
    e: &mut BoolEncoder,
    plane: usize,
    first: usize,
    blocks: &[[i32; 16]],
    n: usize,
    above: &mut [bool],
    left: &mut [bool],
) {
    for (b, coeffs) in blocks.iter().enumerate() {
        let (bx, by) = (b % n, b / n);
        let ctx = usize::from(above[bx]) + usize::from(left[by]);
        let nz = put_block(e, plane, first, ctx, coeffs);
        above[bx] = nz;
        left[by] = nz;
    }
}

fn put_y_mode(e: &mut BoolEncoder, mode: Mode) {
    // The key frame's luma mode tree: B_PRED "0", DC "100", V "101", H "110", TM "111".
    e.put(145, true);
    match mode {
        Mode::Dc | Mode::Vertical => {
            e.put(156, false);
            e.put(163, mode == Mode::Vertical);
        }
        Mode::Horizontal | Mode::TrueMotion => {
            e.put(156, true);
            e.put(128, mode == Mode::TrueMotion);
        }
    }
}

fn put_uv_mode(e: &mut BoolEncoder, mode: Mode) {
    // The key frame's chroma mode tree: DC "0", V "10", H "110", TM "111".
    e.put(142, mode != Mode::Dc);
    if mode != Mode::Dc {
        e.put(114, mode != Mode::Vertical);
        if mode != Mode::Vertical {
            e.put(183, mode == Mode::TrueMotion);
        }
    }
}

/// One key frame of `picture` (`width`×`height` visible pixels; its planes cover whole
/// macroblocks) at quantizer index `quantizer` (0 finest, 127 coarsest).
pub fn encode_key_frame(picture: &Yuv420, width: u32, height: u32, quantizer: u8) -> Vec<u8> {
    code_key_frame(picture, width, height, quantizer).0
}

/// [`encode_key_frame`], and the picture a decoder reconstructs from it.
pub fn code_key_frame(
    picture: &Yuv420,
    width: u32,
    height: u32,
    quantizer: u8,
) -> (Vec<u8>, Yuv420) {
    let (mbw, mbh) = (picture.y.width / 16, picture.y.height / 16);
    let steps = Steps::new(quantizer);
    let mut recon = Yuv420::blank(picture.y.width, picture.y.height);
    let mut mbs = Vec::with_capacity(mbw * mbh);
    for my in 0..mbh {
        for mx in 0..mbw {
            mbs.push(code_macroblock(picture, &mut recon, mx, my, &steps));
        }
    }
    let empty = mbs.iter().filter(|m| m.is_empty()).count();
    // The probability that a macroblock has coefficients, as the frame has it.
    let prob_skip_false = ((mbs.len() - empty) * 256 / mbs.len().max(1)).clamp(1, 255) as u8;

    let mut header = BoolEncoder::default();
    header.put_literal(1, 0); // colour space: BT.601
    header.put_literal(1, 0); // the decoder clamps
    header.put_literal(1, 0); // no segmentation
    header.put_literal(1, 0); // the normal loop filter…
    header.put_literal(6, 0); // … at level 0: off
    header.put_literal(3, 0); // sharpness
    header.put_literal(1, 0); // no loop-filter adjustments
    header.put_literal(2, 0); // one token partition
    header.put_literal(7, u32::from(quantizer.min(127)));
    for _ in 0..5 {
        header.put_literal(1, 0); // no quantizer deltas
    }
    header.put_literal(1, 1); // refresh the entropy probabilities
    for plane in TOKEN_UPDATE_PROBS.iter() {
        for band in plane {
            for ctx in band {
                for &p in ctx {
                    header.put(p, false);
                }
            }
        }
    }
    header.put_literal(1, 1); // macroblocks without coefficients are flagged
    header.put_literal(8, u32::from(prob_skip_false));

    let mut tokens = BoolEncoder::default();
    let mut above = Contexts::new(mbw);
    for my in 0..mbh {
        let mut left = Contexts::new(1);
        for mx in 0..mbw {
            let mb = &mbs[my * mbw + mx];
            let skip = mb.is_empty();
            header.put(prob_skip_false, skip);
            put_y_mode(&mut header, mb.y_mode);
            put_uv_mode(&mut header, mb.uv_mode);
            let (ay, au, av) = (mx * 4..mx * 4 + 4, mx * 2..mx * 2 + 2, mx * 2..mx * 2 + 2);
            if skip {
                // A decoder resets the contexts of a macroblock without coefficients.
                above.y[ay].fill(false);
                above.u[au].fill(false);
                above.v[av].fill(false);
                above.y2[mx] = false;
                left = Contexts::new(1);
                continue;
            }
            let ctx = usize::from(above.y2[mx]) + usize::from(left.y2[0]);
            let nz = put_block(&mut tokens, PLANE_Y2, 0, ctx, &mb.y2);
            above.y2[mx] = nz;
            left.y2[0] = nz;
            put_blocks(
                &mut tokens,
                PLANE_Y_AFTER_Y2,
                1,
                &mb.y,
                4,
                &mut above.y[ay],
                &mut left.y,
            );
            put_blocks(
                &mut tokens,
                PLANE_CHROMA,
                0,
                &mb.u,
                2,
                &mut above.u[au],
                &mut left.u,
            );
            put_blocks(
                &mut tokens,
                PLANE_CHROMA,
                0,
                &mb.v,
                2,
                &mut above.v[av],
                &mut left.v,
            );
        }
    }
    let first = header.finish();
    let second = tokens.finish();

    let mut out = Vec::with_capacity(10 + first.len() + second.len());
    // Frame tag: key frame, version 0, shown, the first partition's size.
    let tag = (1u32 << 4) | ((first.len() as u32) << 5);
    out.extend_from_slice(&tag.to_le_bytes()[..3]);
    out.extend_from_slice(&[0x9d, 0x01, 0x2a]);
    out.extend_from_slice(&(width as u16).to_le_bytes());
    out.extend_from_slice(&(height as u16).to_le_bytes());
    out.extend_from_slice(&first);
    out.extend_from_slice(&second);
    (out, recon)
}
