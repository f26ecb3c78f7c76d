//! A minimal WebM (Matroska) muxer for one VP8 video track (`docs/video.md`, "The
//! container"): the EBML header, a Segment of sized elements — Info with the duration,
//! Tracks with the track, Clusters of SimpleBlocks (every frame a key frame) — and Cues
//! pointing at each Cluster. Timecodes are milliseconds.

/// An element: its ID (with its length marker, as Matroska writes it) and its body.
fn element(id: u32, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 12);
    let id_bytes = id.to_be_bytes();
    let skip = id_bytes.iter().take_while(|&&b| b == 0).count();
    out.extend_from_slice(&id_bytes[skip..]);
    out.extend_from_slice(&size(body.len() as u64));
    out.extend_from_slice(body);
    out
}

/// A size as an EBML variable-length integer of the fewest bytes (all-ones values mean
/// "unknown", so they take one byte more).
fn size(n: u64) -> Vec<u8> {
    let len = (1..=8u32).find(|&l| n < (1u64 << (7 * l)) - 1).unwrap_or(8);
    let marked = n | (1u64 << (7 * len));
    marked.to_be_bytes()[8 - len as usize..].to_vec()
}

fn uint(id: u32, v: u64) -> Vec<u8> {
    let bytes = v.to_be_bytes();
    let skip = bytes.iter().take_while(|&&b| b == 0).count().min(7);
    element(id, &bytes[skip..])
}

fn float(id: u32, v: f64) -> Vec<u8> {
    element(id, &v.to_be_bytes())
}

fn string(id: u32, s: &str) -> Vec<u8> {
    element(id, s.as_bytes())
}

const EBML: u32 = 0x1A45_DFA3;
const SEGMENT: u32 = 0x1853_8067;
const INFO: u32 = 0x1549_A966;
const TRACKS: u32 = 0x1654_AE6B;
const TRACK_ENTRY: u32 = 0xAE;
const VIDEO: u32 = 0xE0;
const CLUSTER: u32 = 0x1F43_B675;
const TIMECODE: u32 = 0xE7;
const SIMPLE_BLOCK: u32 = 0xA3;
const CUES: u32 = 0x1C53_BB6B;
const CUE_POINT: u32 = 0xBB;
const CUE_TIME: u32 = 0xB3;
const CUE_TRACK_POSITIONS: u32 = 0xB7;
const CUE_TRACK: u32 = 0xF7;
const CUE_CLUSTER_POSITION: u32 = 0xF1;

/// The longest span of one Cluster: a SimpleBlock's timecode is a signed 16-bit
/// offset from its Cluster's.
const CLUSTER_SPAN_MS: u64 = 30_000;

/// A WebM file of one VP8 track of `width`×`height`: `frames[i]` (each a key frame) shown
/// at `timecodes_ms[i]` for `duration_ms` in all.
pub fn mux(
    width: u32,
    height: u32,
    frames: &[Vec<u8>],
    timecodes_ms: &[u64],
    duration_ms: f64,
) -> Vec<u8> {
    let header = element(
        EBML,
        &[
            uint(0x4286, 1),        // EBMLVersion
            uint(0x42F7, 1),        // EBMLReadVersion
            uint(0x42F2, 4),        // EBMLMaxIDLength
            uint(0x42F3, 8),        // EBMLMaxSizeLength
            string(0x4282, "webm"), // DocType
            uint(0x4287, 2),        // DocTypeVersion
            uint(0x4285, 2),        // DocTypeReadVersion
        ]
        .concat(),
    );
    let info = element(
        INFO,
        &[
            uint(0x2A_D7B1, 1_000_000),  // TimecodeScale: milliseconds
            string(0x4D80, "playbench"), // MuxingApp
            string(0x5741, "playbench"), // WritingApp
            float(0x4489, duration_ms),  // Duration
        ]
        .concat(),
    );
    let video = element(
        VIDEO,
        &[uint(0xB0, u64::from(width)), uint(0xBA, u64::from(height))].concat(),
    );
    let tracks = element(
        TRACKS,
        &element(
            TRACK_ENTRY,
            &[
                uint(0xD7, 1),         // TrackNumber
                uint(0x73C5, 1),       // TrackUID
                uint(0x83, 1),         // TrackType: video
                string(0x86, "V_VP8"), // CodecID
                uint(0x9C, 0),         // FlagLacing
                video,
            ]
            .concat(),
        ),
    );
    // Clusters, and where each starts (relative to the Segment's body) for the Cues.
    let head_len = (info.len() + tracks.len()) as u64;
    let mut clusters = Vec::new();
    let mut cues = Vec::new();
    let mut i = 0;
    while i < frames.len() {
        let start = timecodes_ms[i];
        let mut body = uint(TIMECODE, start);
        while i < frames.len() && timecodes_ms[i] - start < CLUSTER_SPAN_MS {
            let mut block = vec![0x81]; // track 1
            block.extend_from_slice(&((timecodes_ms[i] - start) as i16).to_be_bytes());
            block.push(0x80); // key frame
            block.extend_from_slice(&frames[i]);
            body.extend(element(SIMPLE_BLOCK, &block));
            i += 1;
        }
        let position = head_len + clusters.len() as u64;
        cues.extend(element(
            CUE_POINT,
            &[
                uint(CUE_TIME, start),
                element(
                    CUE_TRACK_POSITIONS,
                    &[uint(CUE_TRACK, 1), uint(CUE_CLUSTER_POSITION, position)].concat(),
                ),
            ]
            .concat(),
        ));
        clusters.extend(element(CLUSTER, &body));
    }
    let segment = element(
        SEGMENT,
        &[info, tracks, clusters, element(CUES, &cues)].concat(),
    );
    [header, segment].concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_ebml_variable_length_integers() {
        assert_eq!(size(0), vec![0x80]);
        assert_eq!(size(126), vec![0xFE]);
        assert_eq!(size(127), vec![0x40, 0x7F]);
        assert_eq!(size(300), vec![0x41, 0x2C]);
        assert_eq!(element(0xA3, &[1, 2]), vec![0xA3, 0x82, 1, 2]);
        assert_eq!(uint(0xD7, 0), vec![0xD7, 0x81, 0]);
    }
}
