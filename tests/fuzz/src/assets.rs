//! Files people supply that Playbench may not ship: Atari ROMs (one by one, or the
//! ale-py wheel, a zip) and FlappyBird's sprite images (PNG). Inputs are bytes, carried
//! as text one character a byte (a character past U+00FF gives its low byte), so the
//! text mutations reach every byte value.

use app::rom_shelf;
use app::storage::{MemoryStore, Store};
use app::storage_keys::ATARI_ROMS;
use bench::encode::{ImageEncoder, ImageSettings};
use envs::core::frame::Frame;
use envs::core::zip;
use envs::flappy_bird::{sprite_files, FlappyBirdConfig, SpriteSet};

use super::Entry;

/// The bytes an input stands for.
fn bytes(text: &str) -> Vec<u8> {
    text.chars().map(|c| (u32::from(c) & 0xFF) as u8).collect()
}

/// Bytes as an input.
fn text(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

/// A dropped file: read as ROMs (a zip's `roms/*.bin` entries, or the file itself);
/// then the same bytes as a stored shelf, as start-up reads it.
fn rom_file(input: &str) {
    let data = bytes(input);
    if let Ok(files) = rom_shelf::roms_in("dropped.bin", data) {
        for f in &files {
            let _ = f.verdict();
        }
    }
    let store = MemoryStore::new();
    if store.set(ATARI_ROMS.key, input).is_ok() {
        let _ = rom_shelf::restore(&store);
    }
}

/// One sprite file: every sprite of the default set read from these bytes.
fn sprite_png(input: &str) {
    let data = bytes(input);
    let _ = SpriteSet::from_files(&FlappyBirdConfig::default(), &mut |_| Some(data.clone()));
}

fn rom_seeds() -> Vec<String> {
    // A 2 KB and a 4 KB image (no supported game's, by MD5), a wheel holding them
    // stored and deflated, a zip without ROMs, and a stored shelf.
    let rom_2k: Vec<u8> = (0..2048u32).map(|i| (i * 7 % 251) as u8).collect();
    let rom_4k: Vec<u8> = (0..4096u32).map(|i| (i * 13 % 256) as u8).collect();
    let wheel = zip::build(&[
        ("ale_py/roms/pong.bin", &rom_2k, false),
        ("ale_py/roms/breakout.bin", &rom_4k, true),
        ("ale_py/__init__.py", b"", true),
    ]);
    let no_roms = zip::build(&[("README", b"nothing here", false)]);
    vec![
        text(&rom_2k),
        text(&rom_4k),
        text(&wheel),
        text(&no_roms),
        r#"{"0123456789abcdef0123456789abcdef":"AAEC"}"#.to_string(),
    ]
}

fn sprite_seeds() -> Vec<String> {
    let mut seeds = Vec::new();
    for (w, h) in [(1, 1), (34, 24), (52, 320)] {
        let mut frame = Frame::new(w, h);
        for (i, px) in frame.data_mut().iter_mut().enumerate() {
            *px = (i * 37 % 256) as u8;
        }
        let mut encoder = ImageEncoder::new(ImageSettings::default());
        if let Ok(png) = encoder.encode_bytes(&frame) {
            seeds.push(text(png));
        }
    }
    // The set's file names, as a reminder of what the game reads.
    seeds.push(sprite_files(&FlappyBirdConfig::default()).join("\n"));
    seeds
}

pub fn entries() -> Vec<Entry> {
    vec![
        Entry {
            name: "rom-file",
            seeds: rom_seeds(),
            run: Box::new(rom_file),
        },
        Entry {
            name: "sprite-png",
            seeds: sprite_seeds(),
            run: Box::new(sprite_png),
        },
    ]
}
