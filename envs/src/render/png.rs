//! A small PNG decoder for user-supplied pictures (sprites, VisGym image sets):
//! non-interlaced images of every colour type, bit depths 1–8 (16-bit samples keep their
//! high byte), with `tRNS` transparency.
//! Output is RGBA8; a palette image keeps which palette entry each pixel used, because
//! the reference blits palette sprites with a colour key on the *index*.

use miniz_oxide::inflate::{decompress_to_vec_zlib_with_limit, TINFLStatus};

/// The most pixels a sprite may have (4096 × 4096; the game's own are at most 288 × 512),
/// so that a small file cannot ask for gigabytes.
const MAX_PIXELS: u64 = 1 << 24;

const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];

/// A decoded image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodedPng {
    pub width: u32,
    pub height: u32,
    /// Row-major RGBA8.
    pub rgba: Vec<u8>,
    /// For palette images: the palette's alpha per entry (`tRNS`, 255 where absent).
    pub palette_alpha: Option<Vec<u8>>,
}

fn be32(b: &[u8]) -> u32 {
    u32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

/// Decodes `bytes`; the error says what is wrong or unsupported.
pub fn decode_png(bytes: &[u8]) -> Result<DecodedPng, String> {
    if bytes.len() < 8 || bytes[..8] != SIGNATURE {
        return Err("not a PNG file".into());
    }
    let mut at = 8;
    let mut header: Option<[u32; 2]> = None;
    let (mut depth, mut color_type, mut interlace) = (0u8, 0u8, 0u8);
    let mut palette: Vec<[u8; 3]> = Vec::new();
    let mut trns: Vec<u8> = Vec::new();
    let mut idat: Vec<u8> = Vec::new();
    while at + 8 <= bytes.len() {
        let len = be32(&bytes[at..]) as usize;
        let kind = &bytes[at + 4..at + 8];
        // Checked: a length near 4 GB would wrap a 32-bit (wasm) `usize`.
        let end = (at + 8).checked_add(len).ok_or("truncated PNG chunk")?;
        let data = bytes.get(at + 8..end).ok_or("truncated PNG chunk")?;
        match kind {
            b"IHDR" if len >= 13 => {
                header = Some([be32(data), be32(&data[4..])]);
                depth = data[8];
                color_type = data[9];
                interlace = data[12];
            }
            b"PLTE" => palette = data.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect(),
            b"tRNS" => trns = data.to_vec(),
            b"IDAT" => idat.extend_from_slice(data),
            b"IEND" => break,
            _ => {}
        }
        at = end + 4;
    }
    let [width, height] = header.ok_or("PNG without IHDR")?;
    if interlace != 0 {
        return Err("interlaced PNGs are not supported".into());
    }
    let channels: usize = match color_type {
        0 | 3 => 1,
        2 => 3,
        4 => 2,
        6 => 4,
        other => return Err(format!("PNG colour type {other} is invalid")),
    };
    if !matches!(depth, 1 | 2 | 4 | 8 | 16) || (color_type != 0 && color_type != 3 && depth < 8) {
        return Err(format!(
            "PNG bit depth {depth} with colour type {color_type} is invalid"
        ));
    }
    if width == 0 || height == 0 || u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(format!(
            "PNG size {width}×{height} is not supported (at most {MAX_PIXELS} pixels)"
        ));
    }
    let bits_per_pixel = channels * usize::from(depth);
    let stride = (width as usize * bits_per_pixel).div_ceil(8);
    // The image data inflates to one filter byte and one stride a row, no more: a
    // stream that would inflate further (a decompression bomb) is refused there.
    let expected = (stride + 1) * height as usize;
    let raw = decompress_to_vec_zlib_with_limit(&idat, expected).map_err(|e| match e.status {
        TINFLStatus::HasMoreOutput => "PNG data inflates past the image's size".to_string(),
        _ => format!("PNG data: {e:?}"),
    })?;
    let filter_bpp = bits_per_pixel.div_ceil(8);
    let rows = unfilter(&raw, stride, height as usize, filter_bpp)?;

    let sample = |row: &[u8], index: usize| -> u8 {
        // Sample `index` of a row, scaled to 8 bits (16-bit: the high byte).
        match depth {
            16 => row[index * 2],
            8 => row[index],
            d => {
                let per_byte = 8 / usize::from(d);
                let byte = row[index / per_byte];
                let shift = 8 - usize::from(d) * (index % per_byte + 1);
                (byte >> shift) & ((1u16 << d) - 1) as u8
            }
        }
    };
    let palette_alpha = (color_type == 3).then(|| {
        (0..palette.len().max(256))
            .map(|i| trns.get(i).copied().unwrap_or(255))
            .collect::<Vec<u8>>()
    });
    let gray_scale = |v: u8| -> u8 {
        match depth {
            1 => v * 255,
            2 => v * 85,
            4 => v * 17,
            _ => v,
        }
    };
    // A tRNS key for gray / RGB images, compared at the image's own depth.
    let key = |k: usize| -> Option<u16> {
        trns.get(2 * k..2 * k + 2)
            .map(|b| u16::from_be_bytes([b[0], b[1]]))
    };
    let raw_sample = |row: &[u8], index: usize| -> u16 {
        if depth == 16 {
            u16::from_be_bytes([row[index * 2], row[index * 2 + 1]])
        } else {
            u16::from(sample(row, index))
        }
    };
    let mut rgba = Vec::with_capacity(width as usize * height as usize * 4);
    for row in rows.chunks_exact(stride) {
        for x in 0..width as usize {
            let px: [u8; 4] = match color_type {
                3 => {
                    let i = usize::from(sample(row, x));
                    let c = palette
                        .get(i)
                        .ok_or_else(|| format!("PNG palette index {i} out of range"))?;
                    let a = palette_alpha.as_ref().map_or(255, |p| p[i]);
                    [c[0], c[1], c[2], a]
                }
                0 => {
                    let g = gray_scale(sample(row, x));
                    let transparent = key(0) == Some(raw_sample(row, x));
                    [g, g, g, if transparent { 0 } else { 255 }]
                }
                2 => {
                    let v = [0, 1, 2].map(|c| raw_sample(row, 3 * x + c));
                    let transparent = trns.len() >= 6 && [key(0), key(1), key(2)] == v.map(Some);
                    let c = [0, 1, 2].map(|c| sample(row, 3 * x + c));
                    [c[0], c[1], c[2], if transparent { 0 } else { 255 }]
                }
                4 => {
                    let g = sample(row, 2 * x);
                    [g, g, g, sample(row, 2 * x + 1)]
                }
                _ => [0, 1, 2, 3].map(|c| sample(row, 4 * x + c)),
            };
            rgba.extend_from_slice(&px);
        }
    }
    Ok(DecodedPng {
        width,
        height,
        rgba,
        palette_alpha,
    })
}

/// Undoes the per-row filters (None, Sub, Up, Average, Paeth).
fn unfilter(raw: &[u8], stride: usize, height: usize, bpp: usize) -> Result<Vec<u8>, String> {
    if raw.len() < (stride + 1) * height {
        return Err("PNG data is too short".into());
    }
    let mut out = vec![0u8; stride * height];
    for y in 0..height {
        let filter = raw[y * (stride + 1)];
        let src = &raw[y * (stride + 1) + 1..(y + 1) * (stride + 1)];
        let (done, rest) = out.split_at_mut(y * stride);
        let prev = if y > 0 {
            &done[(y - 1) * stride..]
        } else {
            &[][..]
        };
        let cur = &mut rest[..stride];
        for x in 0..stride {
            let a = if x >= bpp { cur[x - bpp] } else { 0 };
            let b = prev.get(x).copied().unwrap_or(0);
            let c = if x >= bpp {
                prev.get(x - bpp).copied().unwrap_or(0)
            } else {
                0
            };
            let predicted = match filter {
                0 => 0,
                1 => a,
                2 => b,
                3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
                4 => paeth(a, b, c),
                f => return Err(format!("PNG filter {f} is invalid")),
            };
            cur[x] = src[x].wrapping_add(predicted);
        }
    }
    Ok(out)
}

fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let p = i16::from(a) + i16::from(b) - i16::from(c);
    let (pa, pb, pc) = (
        (p - i16::from(a)).abs(),
        (p - i16::from(b)).abs(),
        (p - i16::from(c)).abs(),
    );
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use miniz_oxide::deflate::compress_to_vec_zlib;

    fn chunk(kind: &[u8], data: &[u8]) -> Vec<u8> {
        let mut c = (data.len() as u32).to_be_bytes().to_vec();
        c.extend_from_slice(kind);
        c.extend_from_slice(data);
        c.extend_from_slice(&[0, 0, 0, 0]);
        c
    }

    fn png(
        width: u32,
        height: u32,
        depth: u8,
        color: u8,
        extra: &[Vec<u8>],
        rows: &[u8],
    ) -> Vec<u8> {
        let mut ihdr = width.to_be_bytes().to_vec();
        ihdr.extend_from_slice(&height.to_be_bytes());
        ihdr.extend_from_slice(&[depth, color, 0, 0, 0]);
        let mut out = SIGNATURE.to_vec();
        out.extend(chunk(b"IHDR", &ihdr));
        for e in extra {
            out.extend_from_slice(e);
        }
        out.extend(chunk(b"IDAT", &compress_to_vec_zlib(rows, 6)));
        out.extend(chunk(b"IEND", &[]));
        out
    }

    #[test]
    fn palette_4bit_with_a_transparent_entry() {
        let extra = [
            chunk(b"PLTE", &[0, 0, 0, 10, 20, 30, 200, 100, 50]),
            chunk(b"tRNS", &[0]),
        ];
        // 3×2 pixels, 4 bits each: row 0 = 0,1,2 ; row 1 (Sub filter) = 2,2,1.
        let rows = [0, 0x01, 0x20, 1, 0x22, 0xF0];
        let img = decode_png(&png(3, 2, 4, 3, &extra, &rows)).unwrap();
        assert_eq!(
            img.rgba[..12],
            [0, 0, 0, 0, 10, 20, 30, 255, 200, 100, 50, 255]
        );
        // Sub: 0x22, then 0xF0 + 0x22 = 0x12 → indices 2, 2, 1.
        assert_eq!(
            img.rgba[12..],
            [200, 100, 50, 255, 200, 100, 50, 255, 10, 20, 30, 255]
        );
        assert_eq!(img.palette_alpha.unwrap()[..3], [0, 255, 255]);
    }

    #[test]
    fn rgba_with_up_and_paeth_filters() {
        let rows = [
            0, 1, 2, 3, 4, 5, 6, 7, 8, 2, 1, 1, 1, 1, 1, 1, 1, 1, 4, 0, 0, 0, 0, 0, 0, 0, 0,
        ];
        let img = decode_png(&png(2, 3, 8, 6, &[], &rows)).unwrap();
        assert_eq!(img.rgba[8..16], [2, 3, 4, 5, 6, 7, 8, 9]);
        // Paeth over a row whose left neighbour equals the one above: copies upward.
        assert_eq!(img.rgba[16..24], [2, 3, 4, 5, 6, 7, 8, 9]);
    }

    #[test]
    fn rejects_what_it_cannot_read() {
        assert!(decode_png(b"GIF89a").is_err());
        let mut bad = png(1, 1, 8, 6, &[], &[0, 1, 2, 3, 4]);
        bad[8 + 8 + 12] = 1; // interlace flag
        assert!(decode_png(&bad).is_err());
    }

    /// What a hostile file can ask for is bounded: a 1×1 image whose data inflates to
    /// 16 MB, a header of 2³² × 2³² pixels, a chunk claiming 4 GB.
    #[test]
    fn a_small_file_cannot_ask_for_much_memory() {
        let bomb = png(1, 1, 8, 6, &[], &vec![0u8; 16 << 20]);
        assert!(bomb.len() < 40_000, "{}", bomb.len());
        let e = decode_png(&bomb).unwrap_err();
        assert_eq!(e, "PNG data inflates past the image's size");
        let e = decode_png(&png(u32::MAX, u32::MAX, 8, 6, &[], &[0])).unwrap_err();
        assert!(
            e.contains("is not supported (at most 16777216 pixels)"),
            "{e}"
        );
        assert!(decode_png(&png(4096, 4097, 8, 0, &[], &[0])).is_err());
        let mut huge_chunk = SIGNATURE.to_vec();
        huge_chunk.extend_from_slice(&0xFFFF_FFF0u32.to_be_bytes());
        huge_chunk.extend_from_slice(b"IHDR");
        huge_chunk.extend_from_slice(&[0; 20]);
        assert_eq!(decode_png(&huge_chunk).unwrap_err(), "truncated PNG chunk");
    }
}
