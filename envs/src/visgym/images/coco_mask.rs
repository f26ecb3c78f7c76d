//! COCO segmentation masks, computed exactly as pycocotools 2.0.8 computes them
//! (`common/maskApi.c` behind `pycocotools.mask`): the datasets the image environments
//! read (COCO, LVIS, RefCOCO) store objects as polygons or run-length encodings, and the
//! reference turns them into masks whose areas and centroids end up in prompts and
//! checks, so every pixel must fall on the same side as in the reference.
//!
//! An [`Rle`] is COCO's run-length encoding: runs over the pixels in column-major order
//! (down each column, columns left to right), alternating zeros and ones and starting
//! with a (possibly empty) run of zeros. The rasteriser is a transcription of the C
//! code's operations in the same order, with C's integer conversions as x86-64 performs
//! them (the PyPI wheels), so that rounding, clamping and the odd corner (repeated
//! vertices, negative coordinates, out-of-range values) agree. Replayed against the
//! reference by `tests/tests/coco_mask_golden.rs` (`tests/golden/visgym/coco_masks.py`).

use serde_json::Value;

/// A run-length encoded binary mask (pycocotools' `RLE`): `counts` alternate runs of 0
/// and 1 over the pixels in column-major order, the first run being zeros.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rle {
    pub height: u32,
    pub width: u32,
    pub counts: Vec<u32>,
}

/// `rleFrPoly` upsamples the polygon by this factor before tracing its boundary.
const SCALE: f64 = 5.0;

/// Counts from -2^29 to 2^29 - 1 survive the compressed string unchanged (six characters
/// at most); larger ones are read back by the C code's 32-bit shifts.
const STRING_SAFE: u32 = 1 << 29;

/// C's `(int)` of a double as x86-64 computes it (`cvttsd2si`): truncation toward zero,
/// and `INT_MIN` for NaN and for values out of range. (A repeated polygon vertex makes a
/// 0/0 slope whose NaN lands here; that point's column never differs from its
/// neighbours', so the value never reaches a mask, but it is kept as the C code has it.)
fn c_int(v: f64) -> i32 {
    if v > -2_147_483_649.0 && v < 2_147_483_648.0 {
        v as i32
    } else {
        i32::MIN
    }
}

impl Rle {
    /// `rleFrPoly`: the mask of a polygon `[x0, y0, x1, y1, ...]` (an odd last number is
    /// ignored, as `int(len(p)/2)` ignores it). The vertices are scaled by 5 and rounded
    /// with `(int)(v + .5)`, which truncates toward zero (a scaled -3 becomes -2 and a
    /// scaled -1 becomes 0: negative coordinates round up); each edge is walked one
    /// upsampled step at a time along its longer axis, every step that crosses a
    /// pixel-centre column yields a boundary point (down-scaled, clamped to the image and
    /// rounded up), and the sorted boundary points become the runs, a boundary met twice
    /// cancelling out. Polygons with fewer than two vertices give an empty mask. Like the
    /// reference, the work grows with the perimeter (in fifths of a pixel), even outside
    /// the image.
    pub fn from_polygon(xy: &[f64], height: u32, width: u32) -> Rle {
        let k = xy.len() / 2;
        let mut x: Vec<i32> = (0..k).map(|j| c_int(SCALE * xy[2 * j] + 0.5)).collect();
        let mut y: Vec<i32> = (0..k).map(|j| c_int(SCALE * xy[2 * j + 1] + 0.5)).collect();
        if k > 0 {
            x.push(x[0]);
            y.push(y[0]);
        }
        let (h, w) = (u64::from(height), u64::from(width));
        // `w-1` and `h` are `siz` (unsigned long) in the comparisons with doubles.
        let x_last = w.wrapping_sub(1) as f64;
        let y_max = h as f64;
        let h_int = height as i32;

        // The boundary's positions in column-major order (`x * h + y`), then `h * w`.
        let mut marks: Vec<u32> = Vec::new();
        // The previous upsampled point: the C code walks all edges' points as one list.
        let mut prev: Option<(i32, i32)> = None;
        let mut step = |u: i32, v: i32| {
            if let Some((pu, pv)) = prev {
                if u != pu {
                    let xd = f64::from(if u < pu { u } else { u.wrapping_sub(1) });
                    let xd = (xd + 0.5) / SCALE - 0.5;
                    if xd.floor() == xd && xd >= 0.0 && xd <= x_last {
                        let yd = f64::from(if v < pv { v } else { pv });
                        let mut yd = (yd + 0.5) / SCALE - 0.5;
                        if yd < 0.0 {
                            yd = 0.0;
                        } else if yd > y_max {
                            yd = y_max;
                        }
                        let yd = yd.ceil();
                        let pos = c_int(xd).wrapping_mul(h_int).wrapping_add(c_int(yd));
                        marks.push(pos as u32);
                    }
                }
            }
            prev = Some((u, v));
        };
        for j in 0..k {
            let (mut xs, mut xe, mut ys, mut ye) = (x[j], x[j + 1], y[j], y[j + 1]);
            let dx = xe.wrapping_sub(xs).wrapping_abs();
            let dy = ys.wrapping_sub(ye).wrapping_abs();
            // Each edge is stepped from its lower end but its points are listed from
            // vertex j to vertex j + 1.
            let flip = (dx >= dy && xs > xe) || (dx < dy && ys > ye);
            if flip {
                std::mem::swap(&mut xs, &mut xe);
                std::mem::swap(&mut ys, &mut ye);
            }
            if dx >= dy {
                let s = f64::from(ye.wrapping_sub(ys)) / f64::from(dx);
                for d in 0..=dx {
                    let t = if flip { dx - d } else { d };
                    step(
                        t.wrapping_add(xs),
                        c_int(f64::from(ys) + s * f64::from(t) + 0.5),
                    );
                }
            } else {
                let s = f64::from(xe.wrapping_sub(xs)) / f64::from(dy);
                for d in 0..=dy {
                    let t = if flip { dy - d } else { d };
                    step(
                        c_int(f64::from(xs) + s * f64::from(t) + 0.5),
                        t.wrapping_add(ys),
                    );
                }
            }
        }

        marks.push((h * w) as u32);
        marks.sort_unstable();
        let mut prev_mark = 0u32;
        for m in marks.iter_mut() {
            let t = *m;
            *m = m.wrapping_sub(prev_mark);
            prev_mark = t;
        }
        // A zero run (a boundary met twice) joins its neighbours into one run.
        let mut counts = vec![marks[0]];
        let mut j = 1;
        while j < marks.len() {
            if marks[j] > 0 {
                counts.push(marks[j]);
                j += 1;
            } else {
                j += 1;
                if j < marks.len() {
                    if let Some(last) = counts.last_mut() {
                        *last = last.wrapping_add(marks[j]);
                    }
                    j += 1;
                }
            }
        }
        Rle {
            height,
            width,
            counts,
        }
    }

    /// `rleFrBbox`: a box `[x, y, width, height]` is the polygon of its four corners,
    /// `(x, y), (x, y + h), (x + w, y + h), (x + w, y)`, rasterised as one. (From JSON,
    /// `frPyObjects` never reaches it; see [`segmentation_rles`].)
    pub fn from_bbox(bb: [f64; 4], height: u32, width: u32) -> Rle {
        let (xs, ys) = (bb[0], bb[1]);
        let (xe, ye) = (xs + bb[2], ys + bb[3]);
        Rle::from_polygon(&[xs, ys, xs, ye, xe, ye, xe, ys], height, width)
    }

    /// `rleMerge`: the union (or intersection) of masks of one size. No masks give an
    /// empty 0×0 RLE, and so do masks of different sizes (the reference returns
    /// `{'size': [0, 0], 'counts': b''}` rather than raising). Where the C code has no
    /// answer this stops instead: a missing first count (it reads a null pointer) is
    /// taken as 0, and when one mask's runs end before the other's (it loops forever)
    /// the merged runs end there too.
    pub fn merge(rles: &[Rle], intersect: bool) -> Rle {
        let Some(first) = rles.first() else {
            return Rle {
                height: 0,
                width: 0,
                counts: Vec::new(),
            };
        };
        if rles.len() == 1 {
            return first.clone();
        }
        let (h, w) = (first.height, first.width);
        let mut counts = first.counts.clone();
        for b in &rles[1..] {
            if b.height != h || b.width != w {
                return Rle {
                    height: 0,
                    width: 0,
                    counts: Vec::new(),
                };
            }
            let a = std::mem::take(&mut counts);
            let (mut ca, mut cb) = (
                a.first().copied().unwrap_or(0),
                b.counts.first().copied().unwrap_or(0),
            );
            let (mut ia, mut ib) = (1, 1);
            let (mut va, mut vb, mut v) = (false, false, false);
            let mut cc = 0u32;
            let mut ct = 1u32;
            while ct > 0 {
                let c = ca.min(cb);
                cc = cc.wrapping_add(c);
                ct = 0;
                let mut moved = false;
                ca -= c;
                if ca == 0 && ia < a.len() {
                    ca = a[ia];
                    ia += 1;
                    va = !va;
                    moved = true;
                }
                ct = ct.wrapping_add(ca);
                cb -= c;
                if cb == 0 && ib < b.counts.len() {
                    cb = b.counts[ib];
                    ib += 1;
                    vb = !vb;
                    moved = true;
                }
                ct = ct.wrapping_add(cb);
                let vp = v;
                v = if intersect { va && vb } else { va || vb };
                // Nothing consumed and nothing moved: the C loop would spin forever.
                let stuck = c == 0 && !moved && v == vp;
                if v != vp || ct == 0 || stuck {
                    counts.push(cc);
                    cc = 0;
                }
                if stuck {
                    break;
                }
            }
        }
        Rle {
            height: h,
            width: w,
            counts,
        }
    }

    /// `rleArea`: the number of ones (the odd runs, summed in C's 32-bit `uint`).
    pub fn area(&self) -> u64 {
        let sum = self
            .counts
            .iter()
            .skip(1)
            .step_by(2)
            .fold(0u32, |s, &c| s.wrapping_add(c));
        u64::from(sum)
    }

    /// `rleToString`: COCO's compressed counts, 6 bits a character (`'0'..='o'`), LEB128
    /// style with a sign bit, each count from the third on stored as its difference from
    /// the count two before (`i > 2`: the third count is stored whole).
    pub fn to_compressed(&self) -> String {
        let mut out = String::new();
        for (i, &count) in self.counts.iter().enumerate() {
            let mut x = i64::from(count);
            if i > 2 {
                x -= i64::from(self.counts[i - 2]);
            }
            loop {
                let mut c = (x & 0x1f) as u8;
                x >>= 5;
                let more = if c & 0x10 != 0 { x != -1 } else { x != 0 };
                if more {
                    c |= 0x20;
                }
                out.push(char::from(c + 48));
                if !more {
                    break;
                }
            }
        }
        out
    }

    /// `rleFrString`: reads compressed counts (as `str.encode` gives them, up to a NUL
    /// byte). Any byte is read as the C code reads it (its low six bits after
    /// subtracting 48); counts longer than six characters go through the C code's 32-bit
    /// shifts as x86-64 performs them. Errors on a string that ends inside a count, where
    /// the C code reads past the end of the string.
    pub fn from_compressed(s: impl AsRef<[u8]>, height: u32, width: u32) -> Result<Rle, String> {
        let s = s.as_ref();
        let s = s.iter().position(|&b| b == 0).map_or(s, |n| &s[..n]);
        let mut counts: Vec<u32> = Vec::new();
        let mut p = 0;
        while p < s.len() {
            let mut x = 0i64;
            let mut k = 0u32;
            loop {
                let Some(&byte) = s.get(p) else {
                    return Err(format!(
                        "compressed RLE counts {:?} end inside a count",
                        String::from_utf8_lossy(s)
                    ));
                };
                let c = byte.wrapping_sub(48);
                x |= i64::from(i32::from(c & 0x1f).wrapping_shl(k.wrapping_mul(5)));
                let more = c & 0x20 != 0;
                p += 1;
                k += 1;
                if !more {
                    if c & 0x10 != 0 {
                        x |= i64::from((-1i32).wrapping_shl(k.wrapping_mul(5)));
                    }
                    break;
                }
            }
            if counts.len() > 2 {
                x = x.wrapping_add(i64::from(counts[counts.len() - 2]));
            }
            counts.push(x as u32);
        }
        Ok(Rle {
            height,
            width,
            counts,
        })
    }

    /// `rleEncode` of a row-major `height × width` mask (as `maskUtils.encode` of a
    /// numpy array): a run ends wherever the byte changes, so values other than 0 and 1
    /// start runs too (`[0, 1, 2]` encodes as three runs and decodes as `0, 1, 0`).
    pub fn from_mask(mask: &[u8], height: u32, width: u32) -> Result<Rle, String> {
        let (h, w) = (height as usize, width as usize);
        if Some(mask.len()) != h.checked_mul(w) {
            return Err(format!(
                "a {height}×{width} mask needs {} bytes, not {}",
                u64::from(height) * u64::from(width),
                mask.len()
            ));
        }
        let mut counts = Vec::new();
        let (mut prev, mut run) = (0u8, 0u32);
        for x in 0..w {
            for y in 0..h {
                let b = mask[y * w + x];
                if b != prev {
                    counts.push(run);
                    run = 0;
                    prev = b;
                }
                run += 1;
            }
        }
        counts.push(run);
        Ok(Rle {
            height,
            width,
            counts,
        })
    }

    /// `maskUtils.decode` of one RLE: the row-major `height × width` mask of 0 and 1.
    /// Runs past the last pixel are cut (the reference raises `Invalid RLE mask
    /// representation`; [`decode_sum`] reports it) and pixels past shorter runs,
    /// uninitialised memory in the reference, are 0.
    pub fn to_mask(&self) -> Vec<u8> {
        let (masks, _) = decode(std::slice::from_ref(self));
        masks.into_iter().next().unwrap_or_default()
    }
}

/// `maskUtils.decode` of a list: every RLE decoded into one column-major buffer of the
/// first RLE's size times their number, each RLE continuing where the previous one's
/// runs ended (so a short or long RLE shifts the ones after it, and only the total is
/// checked, as in the C code). Returns the row-major masks and whether the reference
/// raises; runs past the end are cut.
fn decode(rles: &[Rle]) -> (Vec<Vec<u8>>, Result<(), String>) {
    let Some(first) = rles.first() else {
        return (
            Vec::new(),
            Err("cannot decode an empty list of RLEs".into()),
        );
    };
    let (h, w) = (first.height as usize, first.width as usize);
    let Some((plane, total)) = h
        .checked_mul(w)
        .and_then(|plane| Some((plane, plane.checked_mul(rles.len())?)))
    else {
        return (Vec::new(), Err("the masks are too large to decode".into()));
    };
    let mut buf = vec![0u8; total];
    let mut status = Ok(());
    let mut c = 0usize;
    'fill: for r in rles {
        let mut v = 0u8;
        for &run in &r.counts {
            let end = c.saturating_add(run as usize);
            if end > total {
                buf[c..].fill(v);
                status = Err("ValueError: Invalid RLE mask representation".into());
                break 'fill;
            }
            buf[c..end].fill(v);
            c = end;
            v ^= 1;
        }
    }
    let masks = buf
        .chunks(plane.max(1))
        .take(rles.len())
        .map(|col| {
            let mut row = vec![0u8; plane];
            for x in 0..w {
                for y in 0..h {
                    row[y * w + x] = col[x * h + y];
                }
            }
            row
        })
        .collect();
    (masks, status)
}

/// `np.sum(maskUtils.decode(rles), axis=2)`, as RefCOCO's loader builds an object's mask
/// from its polygons: row-major per-pixel counts of the masks covering it (2 where two
/// polygons overlap), with `decode`'s rules (the first RLE's size, runs continuing from
/// one RLE into the next) and its error when the runs overrun the masks.
pub fn decode_sum(rles: &[Rle]) -> Result<Vec<u32>, String> {
    let (masks, status) = decode(rles);
    status?;
    let mut sum = vec![0u32; masks.first().map_or(0, Vec::len)];
    for m in &masks {
        for (s, &b) in sum.iter_mut().zip(m) {
            *s += u32::from(b);
        }
    }
    Ok(sum)
}

/// Python's `len()` of a JSON value, or the `TypeError` it raises.
fn py_len(v: &Value) -> Result<usize, String> {
    match v {
        Value::Array(a) => Ok(a.len()),
        Value::Object(o) => Ok(o.len()),
        Value::String(s) => Ok(s.chars().count()),
        Value::Number(n) => Err(format!(
            "TypeError: object of type '{}' has no len()",
            if n.is_f64() { "float" } else { "int" }
        )),
        Value::Bool(_) => Err("TypeError: object of type 'bool' has no len()".into()),
        Value::Null => Err("TypeError: object of type 'NoneType' has no len()".into()),
    }
}

/// `np.array(p, dtype=np.double)` of one polygon: numbers (and booleans, 1.0 and 0.0).
fn polygon_coords(p: &Value) -> Result<Vec<f64>, String> {
    let Value::Array(items) = p else {
        return Err(format!("a polygon must be a list of numbers, not {p}"));
    };
    items
        .iter()
        .map(|v| match v {
            Value::Number(n) => n
                .as_f64()
                .ok_or_else(|| format!("polygon coordinate {n} is not a number")),
            Value::Bool(b) => Ok(if *b { 1.0 } else { 0.0 }),
            // numpy reads null as NaN (the reference then walks about 2^31 points and
            // runs out of memory) and parses numeric strings; both are refused here.
            _ => Err(format!("polygon coordinate {v} is not a number")),
        })
        .collect()
}

/// One `size` entry converted to C's `siz`: a non-negative integer (booleans count).
fn size_entry(v: Option<&Value>) -> Result<u32, String> {
    match v {
        Some(Value::Number(n)) => n
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| format!("RLE size {n} is not an integer from 0 to 2^32 - 1")),
        Some(Value::Bool(b)) => Ok(u32::from(*b)),
        _ => Err("an RLE's size must be a list [height, width] of integers".into()),
    }
}

/// `np.array(counts, dtype=np.uint32)` of uncompressed counts.
fn count_entry(v: &Value) -> Result<u32, String> {
    let bad = || {
        format!(
            "RLE count {v} is not a number from 0 to 2^32 - 1 \
             (numpy 1.26 wraps negative counts with a DeprecationWarning; refused here)"
        )
    };
    match v {
        Value::Number(n) => match (n.as_u64(), n.as_f64()) {
            (Some(u), _) => u32::try_from(u).map_err(|_| bad()),
            // A float count is cast as C casts it: truncated toward zero.
            (None, Some(f)) if (0.0..4_294_967_296.0).contains(&f) => Ok(f as u32),
            _ => Err(bad()),
        },
        Value::Bool(b) => Ok(u32::from(*b)),
        _ => Err(bad()),
    }
}

/// `frUncompressedRLE` of one dict: its own `size` (the image size passed in is not
/// used) and its counts as given, even when they do not add up to the image.
fn uncompressed(d: &Value) -> Result<Rle, String> {
    let Value::Object(o) = d else {
        return Err(format!("an RLE must be a dict, not {d}"));
    };
    let size = o.get("size").ok_or("KeyError: 'size'")?;
    let counts = o.get("counts").ok_or("KeyError: 'counts'")?;
    let Value::Array(counts) = counts else {
        return Err(format!(
            "uncompressed RLE counts must be a list of integers, not {counts}"
        ));
    };
    let (height, width) = match size {
        Value::Array(s) => (size_entry(s.first())?, size_entry(s.get(1))?),
        _ => return Err("an RLE's size must be a list [height, width]".into()),
    };
    let counts = counts.iter().map(count_entry).collect::<Result<_, _>>()?;
    Ok(through_string(Rle {
        height,
        width,
        counts,
    }))
}

/// The RLE the reference's callers see: `frPyObjects` returns compressed strings, which
/// change counts of 2^29 and more (an identity otherwise).
fn through_string(r: Rle) -> Rle {
    if r.counts.iter().all(|&c| c < STRING_SAFE) {
        return r;
    }
    match Rle::from_compressed(r.to_compressed(), r.height, r.width) {
        Ok(back) => back,
        // `to_compressed` ends every count; reading it back cannot fail.
        Err(_) => r,
    }
}

/// What `maskUtils.frPyObjects(segm, height, width)` returns for a JSON segmentation,
/// one RLE per object part (the reference returns a list of compressed dicts, or one
/// dict for a single shape; here always a list). Its dispatch, in order:
///
/// - A list: `len()` of its **first element** decides (so a first element without a
///   `len()`, a number, raises `TypeError`: a flat list of numbers `[x0, y0, ...]` is
///   refused, its own branch being unreachable):
///   - exactly 4 (a polygon of two points, or a dict of four keys): read as boxes,
///     `frBbox(list)`, which only takes a numpy array: `TypeError`.
///   - more than 4: a list of polygons, each rasterised alone ([`Rle::from_polygon`]);
///     the later ones may be shorter (fewer than 4 numbers: an empty mask) or of odd
///     length (the last number ignored). Any element that is not a flat list of numbers
///     raises.
///   - fewer than 4, and a dict holding `counts` and `size`: uncompressed RLEs, each with
///     its own `size` and a list of integer `counts` (compressed string counts in a list
///     raise).
///   - otherwise: raises whatever the list (a list of 4 → `TypeError` from `frBbox`, more
///     → numpy cannot make one polygon of it, fewer → `input type is not supported.`).
///     So a first polygon of fewer than 4 numbers is always an error. An empty list
///     raises `IndexError`.
/// - A dict with `counts` and `size`: with list counts, one uncompressed RLE; with
///   string counts, the compressed RLE as it is (what the loaders do, COCO's `annToRLE`
///   and LVIS's `ann_to_rle`, before ever calling `frPyObjects`, which would raise).
/// - Anything else: `input type is not supported.`
///
/// Where Python raises this returns `Err`; beyond the reference, `Err` also for
/// polygons holding `null` or strings and for counts that numpy would wrap or parse.
/// The union LVIS takes is [`Rle::merge`] of the result; RefCOCO's is [`decode_sum`].
pub fn segmentation_rles(segm: &Value, height: u32, width: u32) -> Result<Vec<Rle>, String> {
    const UNSUPPORTED: &str = "Exception: input type is not supported.";
    const BBOX_LIST: &str =
        "TypeError: Argument 'bb' has incorrect type (expected numpy.ndarray, got list)";
    match segm {
        Value::Array(list) => {
            let first = list.first().ok_or("IndexError: list index out of range")?;
            let n0 = py_len(first)?;
            if n0 == 4 {
                Err(BBOX_LIST.into())
            } else if n0 > 4 {
                list.iter()
                    .map(|p| Ok(Rle::from_polygon(&polygon_coords(p)?, height, width)))
                    .map(|r| r.map(through_string))
                    .collect()
            } else if first.get("counts").is_some() && first.get("size").is_some() {
                list.iter().map(uncompressed).collect()
            } else if list.len() == 4 {
                Err(BBOX_LIST.into())
            } else if list.len() > 4 {
                Err(
                    "ValueError: a list whose first element has fewer than 4 items \
                     is not one polygon"
                        .into(),
                )
            } else {
                Err(UNSUPPORTED.into())
            }
        }
        Value::Object(o) if o.contains_key("counts") && o.contains_key("size") => {
            if let Some(Value::String(s)) = o.get("counts") {
                let (height, width) = match o.get("size") {
                    Some(Value::Array(sz)) => (size_entry(sz.first())?, size_entry(sz.get(1))?),
                    _ => return Err("an RLE's size must be a list [height, width]".into()),
                };
                Ok(vec![Rle::from_compressed(s, height, width)?])
            } else {
                Ok(vec![uncompressed(segm)?])
            }
        }
        _ => Err(UNSUPPORTED.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_two_pixel_square_covers_two_by_two_pixels() {
        // Pixel centres sit at integer coordinates; the square from (0.5, 0.5) to
        // (2.5, 2.5) holds the centres (1, 1), (2, 1), (1, 2) and (2, 2).
        let r = Rle::from_polygon(&[0.5, 0.5, 2.5, 0.5, 2.5, 2.5, 0.5, 2.5], 4, 4);
        assert_eq!(r.counts, [5, 2, 2, 2, 5]);
        assert_eq!(r.area(), 4);
        #[rustfmt::skip]
        let want = [
            0, 0, 0, 0,
            0, 1, 1, 0,
            0, 1, 1, 0,
            0, 0, 0, 0,
        ];
        assert_eq!(r.to_mask(), want);
    }

    #[test]
    fn masks_are_column_major() {
        // A 2×3 mask with only the top-right pixel set: column 2, row 0 is pixel 4.
        let r = Rle::from_mask(&[0, 0, 1, 0, 0, 0], 2, 3).unwrap();
        assert_eq!(r.counts, [4, 1, 1]);
        assert_eq!(r.to_mask(), [0, 0, 1, 0, 0, 0]);
    }

    #[test]
    fn compressed_strings_as_pycocotools_writes_them() {
        let r = |counts: &[u32]| Rle {
            height: 10,
            width: 10,
            counts: counts.to_vec(),
        };
        // Small counts are one character, '0' + count.
        assert_eq!(r(&[1, 2, 3]).to_compressed(), "123");
        // 100 = 3·32 + 4: low five bits with the continuation bit ('0' + 36 = 'T'), then 3.
        assert_eq!(r(&[100]).to_compressed(), "T3");
        // From the fourth count on, the difference from two counts back: 3 - 3 = 0, and
        // 1 - 5 = -4 is 0b11100 in five bits ('0' + 28 = 'L').
        assert_eq!(r(&[5, 3, 5, 3, 1]).to_compressed(), "5350L");
        for counts in [&[1, 2, 3][..], &[100], &[5, 3, 5, 3, 1], &[0, 100, 0, 7]] {
            let s = r(counts).to_compressed();
            assert_eq!(Rle::from_compressed(&s, 10, 10).unwrap(), r(counts));
        }
        assert!(Rle::from_compressed("T", 10, 10).is_err());
    }

    #[test]
    fn union_and_intersection() {
        let a = Rle::from_mask(&[1, 1, 0, 0], 2, 2).unwrap();
        let b = Rle::from_mask(&[0, 1, 0, 1], 2, 2).unwrap();
        let or = Rle::merge(&[a.clone(), b.clone()], false);
        assert_eq!(or.to_mask(), [1, 1, 0, 1]);
        let and = Rle::merge(&[a.clone(), b.clone()], true);
        assert_eq!(and.to_mask(), [0, 1, 0, 0]);
        assert_eq!(decode_sum(&[a, b]).unwrap(), [1, 2, 0, 1]);
    }

    #[test]
    fn where_the_reference_has_no_answer_this_stops() {
        let full = Rle::from_mask(&[1, 1, 1, 1], 2, 2).unwrap();
        let short = Rle {
            height: 2,
            width: 2,
            counts: vec![1, 1],
        };
        // Runs of different totals: pycocotools' merge loops forever.
        assert_eq!(
            Rle::merge(&[short.clone(), full.clone()], false).counts,
            [0, 2]
        );
        assert_eq!(Rle::merge(&[full.clone(), short], false).counts, [0, 2]);
        let long = Rle {
            height: 2,
            width: 2,
            counts: vec![1, 9],
        };
        // decode raises `Invalid RLE mask representation`; to_mask cuts the run.
        assert!(decode_sum(std::slice::from_ref(&long)).is_err());
        assert_eq!(long.to_mask(), [0, 1, 1, 1]);
        let sizes = [full.clone(), Rle::from_mask(&[1, 1], 1, 2).unwrap()];
        assert_eq!(Rle::merge(&sizes, false), Rle::merge(&[], false));
    }

    #[test]
    fn the_dispatch_refuses_what_pycocotools_refuses() {
        for segm in [
            json!([1, 1, 5, 1, 5, 5]),
            json!([[1, 2, 3, 4], [1, 1, 5, 1, 5, 5]]),
            json!([[1, 2], [1, 1, 5, 1, 5, 5]]),
            json!([]),
            json!({"size": [3, 3]}),
            json!(7),
        ] {
            assert!(segmentation_rles(&segm, 10, 10).is_err(), "{segm}");
        }
        let polys = json!([[1, 1, 5, 1, 5, 5], [1, 2], []]);
        let rles = segmentation_rles(&polys, 10, 10).unwrap();
        assert_eq!(rles.len(), 3);
        assert_eq!(rles[1].counts, [100]);
        let rle = segmentation_rles(&json!({"size": [3, 4], "counts": [1, 2, 3]}), 30, 30);
        assert_eq!(rle.unwrap()[0].to_compressed(), "123");
    }
}
