//! The encoder checked by decoding: our own EBML reader takes the file apart and the
//! `image-webp` crate's VP8 decoder (an independent implementation) decodes each frame.

use std::io::Cursor;

use envs::{Action, Frame};
use serde_json::Map;

use super::yuv::{Plane, Yuv420};
use super::*;

/// An EBML element: its ID, where its body starts and its length.
struct El {
    id: u32,
    start: usize,
    len: usize,
}

fn vint(b: &[u8], at: usize, keep_marker: bool) -> (u64, usize) {
    let len = b[at].leading_zeros() as usize + 1;
    let mut v = u64::from(b[at]);
    if !keep_marker {
        v &= (1u64 << (8 - len)) - 1;
    }
    for k in 1..len {
        v = (v << 8) | u64::from(b[at + k]);
    }
    (v, len)
}

fn children(b: &[u8], start: usize, end: usize) -> Vec<El> {
    let mut out = Vec::new();
    let mut at = start;
    while at < end {
        let (id, n) = vint(b, at, true);
        let (len, m) = vint(b, at + n, false);
        out.push(El {
            id: id as u32,
            start: at + n + m,
            len: len as usize,
        });
        at += n + m + len as usize;
    }
    assert_eq!(at, end, "elements overrun their parent");
    out
}

fn find(els: &[El], id: u32) -> &El {
    els.iter()
        .find(|e| e.id == id)
        .unwrap_or_else(|| panic!("no element {id:x}"))
}

fn uint(b: &[u8], e: &El) -> u64 {
    b[e.start..e.start + e.len]
        .iter()
        .fold(0, |v, &x| (v << 8) | u64::from(x))
}

/// What a player reads from the file.
pub(crate) struct Demuxed {
    pub width: u64,
    pub height: u64,
    pub codec: String,
    pub duration_ms: f64,
    /// Each frame's timecode (ms), whether it is a key frame, and its VP8 data.
    pub frames: Vec<(u64, bool, Vec<u8>)>,
    pub cues: usize,
}

pub(crate) fn demux(b: &[u8]) -> Demuxed {
    let top = children(b, 0, b.len());
    assert_eq!(top.len(), 2);
    let header = children(b, top[0].start, top[0].start + top[0].len);
    let doc = find(&header, 0x4282);
    assert_eq!(&b[doc.start..doc.start + doc.len], b"webm");
    let seg = children(b, top[1].start, top[1].start + top[1].len);
    let info = children(
        b,
        find(&seg, 0x1549_A966).start,
        find(&seg, 0x1549_A966).start + find(&seg, 0x1549_A966).len,
    );
    assert_eq!(uint(b, find(&info, 0x2A_D7B1)), 1_000_000);
    let d = find(&info, 0x4489);
    let duration_ms = f64::from_be_bytes(b[d.start..d.start + 8].try_into().unwrap());
    let tracks = find(&seg, 0x1654_AE6B);
    let entry = &children(b, tracks.start, tracks.start + tracks.len)[0];
    let t = children(b, entry.start, entry.start + entry.len);
    let c = find(&t, 0x86);
    let codec = String::from_utf8(b[c.start..c.start + c.len].to_vec()).unwrap();
    let v = find(&t, 0xE0);
    let video = children(b, v.start, v.start + v.len);
    let mut frames = Vec::new();
    let mut cluster_offsets = Vec::new();
    for cl in seg.iter().filter(|e| e.id == 0x1F43_B675) {
        cluster_offsets.push(cl.start - top[1].start);
        let els = children(b, cl.start, cl.start + cl.len);
        let base = uint(b, find(&els, 0xE7));
        for blk in els.iter().filter(|e| e.id == 0xA3) {
            let data = &b[blk.start..blk.start + blk.len];
            assert_eq!(data[0], 0x81, "track 1");
            let rel = i16::from_be_bytes([data[1], data[2]]);
            frames.push((
                (base as i64 + i64::from(rel)) as u64,
                data[3] & 0x80 != 0,
                data[4..].to_vec(),
            ));
        }
    }
    let cues = find(&seg, 0x1C53_BB6B);
    let points = children(b, cues.start, cues.start + cues.len);
    assert_eq!(points.len(), cluster_offsets.len());
    Demuxed {
        width: uint(b, find(&video, 0xB0)),
        height: uint(b, find(&video, 0xBA)),
        codec,
        duration_ms,
        frames,
        cues: points.len(),
    }
}

/// The video of a request's `data` (standard base64), demuxed.
pub(crate) fn demux_base64(data: &str) -> Demuxed {
    let url: String = data
        .chars()
        .filter(|&c| c != '=')
        .map(|c| match c {
            '+' => '-',
            '/' => '_',
            c => c,
        })
        .collect();
    demux(&crate::share::base64url_decode(&url).unwrap())
}

/// Checks that `video` (a request's base64 WebM) shows `frames` at `fps`, decoded
/// within 40 dB of each.
pub(crate) fn assert_video_of(data: &str, frames: &[Frame], fps: f64) {
    let d = demux_base64(data);
    assert_eq!(d.frames.len(), frames.len());
    assert_eq!(
        (d.width, d.height),
        (u64::from(frames[0].width()), u64::from(frames[0].height()))
    );
    for (i, ((t, _, vp8), src)) in d.frames.iter().zip(frames).enumerate() {
        assert_eq!(*t, timecode_ms(i, fps));
        let [y, u, v] = decoded_psnr(vp8, src);
        assert!(y > 40.0 && u > 40.0 && v > 40.0, "frame {i}: {y} {u} {v}");
    }
}

fn psnr(a: &[u8], b: &[u8]) -> f64 {
    let se: f64 = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| (f64::from(x) - f64::from(y)).powi(2))
        .sum();
    let mse = se / a.len() as f64;
    if mse == 0.0 {
        return 99.0;
    }
    10.0 * (255.0f64 * 255.0 / mse).log10()
}

/// The visible `w`×`h` region of a plane stored `stride` wide.
fn visible(data: &[u8], stride: usize, w: usize, h: usize) -> Vec<u8> {
    (0..h)
        .flat_map(|y| data[y * stride..y * stride + w].to_vec())
        .collect()
}

/// PSNR of the decoded frame's planes (Y, U, V) against the picture we coded.
pub(crate) fn decoded_psnr(vp8: &[u8], source: &Frame) -> [f64; 3] {
    let f = image_webp::vp8::Vp8Decoder::decode_frame(Cursor::new(vp8)).expect("decodes");
    let (w, h) = (source.width() as usize, source.height() as usize);
    assert_eq!((usize::from(f.width), usize::from(f.height)), (w, h));
    assert!(f.keyframe && f.for_display);
    let pic = Yuv420::from_frame(source);
    let stride = f.ybuf.len() / h.div_ceil(16) / 16;
    let (cw, ch) = (w.div_ceil(2), h.div_ceil(2));
    let cstride = f.ubuf.len() / h.div_ceil(16) / 8;
    let ours = |p: &Plane, w, h| visible(&p.data, p.width, w, h);
    [
        psnr(&visible(&f.ybuf, stride, w, h), &ours(&pic.y, w, h)),
        psnr(&visible(&f.ubuf, cstride, cw, ch), &ours(&pic.u, cw, ch)),
        psnr(&visible(&f.vbuf, cstride, cw, ch), &ours(&pic.v, cw, ch)),
    ]
}

/// Frames of a game played with `moves`, from its reset.
fn game_frames(id: &str, moves: &[&str]) -> Vec<Frame> {
    let mut env = envs::make(id, &Map::new()).unwrap();
    env.reset(Some(1));
    let mut frames = Vec::new();
    for m in moves {
        let mut f = Frame::default();
        env.render(&mut f);
        frames.push(f);
        let _ = env.step(Action::Text((*m).to_string()));
    }
    frames
}

#[test]
fn a_game_clip_decodes_with_its_frames_timecodes_and_quality() {
    let frames = game_frames("GameVerse/2048", &["up", "left", "down", "right", "up"]);
    let webm = encode_webm(&frames, 2.0).unwrap();
    let d = demux(&webm);
    assert_eq!((d.width, d.height), (500, 500));
    assert_eq!(d.codec, "V_VP8");
    assert_eq!(d.duration_ms, 2500.0);
    assert_eq!(d.cues, 1);
    let times: Vec<u64> = d.frames.iter().map(|f| f.0).collect();
    assert_eq!(times, vec![0, 500, 1000, 1500, 2000]);
    for ((_, key, vp8), src) in d.frames.iter().zip(&frames) {
        assert!(key);
        let [y, u, v] = decoded_psnr(vp8, src);
        assert!(
            y > 40.0 && u > 40.0 && v > 40.0,
            "PSNR {y:.1} {u:.1} {v:.1}"
        );
    }
}

#[test]
fn odd_sizes_and_long_clips_decode() {
    // Snake's frame is 495×595: odd on both sides.
    let frames = game_frames("GameVerse/Snake", &["U", "L", "L"]);
    assert_eq!((frames[0].width(), frames[0].height()), (495, 595));
    let d = demux(&encode_webm(&frames, 0.5).unwrap());
    assert_eq!((d.width, d.height), (495, 595));
    assert_eq!(
        d.frames.iter().map(|f| f.0).collect::<Vec<_>>(),
        vec![0, 2000, 4000]
    );
    for ((_, _, vp8), src) in d.frames.iter().zip(&frames) {
        let [y, ..] = decoded_psnr(vp8, src);
        assert!(y > 40.0, "{y}");
    }
    // Past 30 s the frames go to a second cluster; a tiny frame is padded internally.
    let tiny = vec![Frame::new(3, 5); 40];
    let d = demux(&encode_webm(&tiny, 1.0).unwrap());
    assert_eq!(d.cues, 2);
    assert_eq!(d.frames.len(), 40);
    assert_eq!(d.frames[39].0, 39_000);
    assert_eq!(decoded_psnr(&d.frames[0].2, &tiny[0])[0], 99.0);
}

#[test]
fn a_flat_and_a_noisy_frame_decode_exactly_as_reconstructed() {
    // Every pixel value and sharp edges everywhere: the worst case for the predictor
    // edges and for the large-coefficient tokens.
    let mut f = Frame::new(64, 48);
    for (i, px) in f.data_mut().iter_mut().enumerate() {
        *px = ((i * 7919) % 251) as u8;
    }
    let flat = Frame::new(40, 24);
    for (frame, q) in [(&f, 0u8), (&f, 10), (&f, 60), (&f, 127), (&flat, 10)] {
        let (vp8, recon) =
            vp8::code_key_frame(&Yuv420::from_frame(frame), frame.width(), frame.height(), q);
        let d = image_webp::vp8::Vp8Decoder::decode_frame(Cursor::new(vp8)).unwrap();
        assert_eq!(d.ybuf, recon.y.data, "quantizer {q}");
        assert_eq!(d.ubuf, recon.u.data, "quantizer {q}");
        assert_eq!(d.vbuf, recon.v.data, "quantizer {q}");
    }
}

#[test]
fn bad_input_is_an_error() {
    assert!(encode_webm(&[], 2.0)
        .unwrap_err()
        .contains("at least one frame"));
    let f = Frame::new(4, 4);
    assert!(encode_webm(std::slice::from_ref(&f), 0.0)
        .unwrap_err()
        .contains("frame rate"));
    assert!(encode_webm(&[f, Frame::new(4, 6)], 2.0)
        .unwrap_err()
        .contains("frame 2 is 4×6"));
    assert!(encode_webm(&[Frame::new(0, 3)], 2.0).is_err());
}

/// Not a check: prints size and PSNR by quantizer for `docs/video.md`
/// (`cargo test -p playbench-bench --lib video::tests::quality_table -- --ignored --nocapture`).
#[test]
#[ignore]
fn quality_table() {
    let frames = game_frames(
        "GameVerse/2048",
        &["up", "left", "down", "right", "up", "left"],
    );
    let snake = game_frames("GameVerse/Snake", &["U", "L", "L", "D"]);
    for q in [0u8, 4, 10, 20, 40] {
        for (name, fr) in [("2048", &frames), ("snake", &snake)] {
            let d = demux(&encode_webm_at(fr, 2.0, q).unwrap());
            let n = d.frames.len() as f64;
            let bytes: usize = d.frames.iter().map(|f| f.2.len()).sum();
            let mut p = [0.0; 3];
            for ((_, _, vp8), src) in d.frames.iter().zip(fr.iter()) {
                for (k, v) in decoded_psnr(vp8, src).iter().enumerate() {
                    p[k] += v / n;
                }
            }
            println!(
                "{name} q{q}: {:.0} bytes/frame, PSNR Y {:.1} U {:.1} V {:.1}",
                bytes as f64 / n,
                p[0],
                p[1],
                p[2]
            );
        }
    }
}
