//! `cargo run -p playbench-tests --bin webm_sample -- DIR`: writes each sample clip of
//! `playbench_tests::video_samples` as `DIR/NAME.webm` (our encoder), its source frames
//! as `DIR/NAME.rgb` (raw RGB, frame after frame) and `DIR/NAME.json` (width, height,
//! frames, fps), for `scripts/check_webm.py` to check with an independent decoder.

use std::path::PathBuf;

use playbench_tests::video_samples::clips;

fn main() {
    let Some(dir) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: webm_sample DIR");
        std::process::exit(2);
    };
    if let Err(e) = write(&dir) {
        eprintln!("webm_sample: {e}");
        std::process::exit(1);
    }
}

fn write(dir: &std::path::Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for c in clips() {
        let webm = bench::video::encode_webm(&c.frames, c.fps)?;
        let rgb: Vec<u8> = c.frames.iter().flat_map(|f| f.data().to_vec()).collect();
        let meta = serde_json::json!({
            "width": c.frames[0].width(),
            "height": c.frames[0].height(),
            "frames": c.frames.len(),
            "fps": c.fps,
        });
        for (ext, bytes) in [
            ("webm", webm),
            ("rgb", rgb),
            ("json", meta.to_string().into_bytes()),
        ] {
            let path = dir.join(format!("{}.{ext}", c.name));
            std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        println!("{}: {} frames at {} fps", c.name, c.frames.len(), c.fps);
    }
    Ok(())
}
