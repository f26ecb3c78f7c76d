//! Reads the files of a zip archive held in memory — enough for a Python wheel, which is
//! where the assets users supply come from (the ale-py wheel ships the Atari ROMs,
//! flappy-bird-gymnasium's its sprites): the central directory, entries stored or
//! deflated, no encryption, no zip64, no spanning. The app's ROM shelf and the tests'
//! wheel cache both read through it.

use std::fmt;

/// Why an archive could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZipError(pub String);

impl fmt::Display for ZipError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a readable zip archive: {}", self.0)
    }
}

/// One file of an archive, not yet extracted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZipEntry {
    pub name: String,
    method: u16,
    compressed_size: usize,
    size: usize,
    local_header: usize,
}

const END_OF_DIRECTORY: u32 = 0x0605_4b50;
const DIRECTORY_ENTRY: u32 = 0x0201_4b50;
const LOCAL_HEADER: u32 = 0x0403_4b50;
/// The largest file this reader extracts (a ROM is at most 64 KB; a wheel's other files
/// are never extracted).
const MAX_ENTRY: usize = 16 << 20;

fn err(why: &str) -> ZipError {
    ZipError(why.to_string())
}

fn u16_at(b: &[u8], at: usize) -> Result<u16, ZipError> {
    b.get(at..at + 2)
        .map(|s| u16::from_le_bytes([s[0], s[1]]))
        .ok_or_else(|| err("truncated"))
}

fn u32_at(b: &[u8], at: usize) -> Result<u32, ZipError> {
    b.get(at..at + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        .ok_or_else(|| err("truncated"))
}

/// Whether the bytes start like a zip archive.
pub fn looks_like_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

/// The archive's entries, in the central directory's order.
pub fn entries(bytes: &[u8]) -> Result<Vec<ZipEntry>, ZipError> {
    // The end record is in the last 22 + 65,535 bytes (its comment is at most that long).
    let lowest = bytes.len().saturating_sub(22 + 0xffff);
    let end = (lowest..=bytes.len().saturating_sub(22))
        .rev()
        .find(|&i| u32_at(bytes, i) == Ok(END_OF_DIRECTORY))
        .ok_or_else(|| err("no end of central directory"))?;
    let count = usize::from(u16_at(bytes, end + 10)?);
    let mut at = u32_at(bytes, end + 16)? as usize;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        if u32_at(bytes, at)? != DIRECTORY_ENTRY {
            return Err(err("damaged central directory"));
        }
        let flags = u16_at(bytes, at + 8)?;
        if flags & 1 != 0 {
            return Err(err("encrypted entries"));
        }
        let name_len = usize::from(u16_at(bytes, at + 28)?);
        let extra_len = usize::from(u16_at(bytes, at + 30)?);
        let comment_len = usize::from(u16_at(bytes, at + 32)?);
        let name = bytes
            .get(at + 46..at + 46 + name_len)
            .ok_or_else(|| err("truncated"))?;
        out.push(ZipEntry {
            name: String::from_utf8_lossy(name).into_owned(),
            method: u16_at(bytes, at + 10)?,
            compressed_size: u32_at(bytes, at + 20)? as usize,
            size: u32_at(bytes, at + 24)? as usize,
            local_header: u32_at(bytes, at + 42)? as usize,
        });
        at += 46 + name_len + extra_len + comment_len;
    }
    Ok(out)
}

/// The bytes of one entry.
pub fn extract(bytes: &[u8], entry: &ZipEntry) -> Result<Vec<u8>, ZipError> {
    let at = entry.local_header;
    if u32_at(bytes, at)? != LOCAL_HEADER {
        return Err(err("damaged local header"));
    }
    if entry.size > MAX_ENTRY {
        return Err(ZipError(format!("{} is too large", entry.name)));
    }
    let start =
        at + 30 + usize::from(u16_at(bytes, at + 26)?) + usize::from(u16_at(bytes, at + 28)?);
    let data = bytes
        .get(start..start + entry.compressed_size)
        .ok_or_else(|| err("truncated"))?;
    let out = match entry.method {
        0 => data.to_vec(),
        8 => miniz_oxide::inflate::decompress_to_vec_with_limit(data, MAX_ENTRY)
            .map_err(|e| ZipError(format!("{}: {e}", entry.name)))?,
        m => return Err(ZipError(format!("{}: compression method {m}", entry.name))),
    };
    if out.len() != entry.size {
        return Err(ZipError(format!("{}: wrong size", entry.name)));
    }
    Ok(out)
}

/// An archive of (name, bytes, deflate?) laid out the way zip tools write one, without
/// checksums (this reader does not check them): for tests that need a wheel.
pub fn build(files: &[(&str, &[u8], bool)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut directory = Vec::new();
    for &(name, data, deflate) in files {
        let stored = if deflate {
            miniz_oxide::deflate::compress_to_vec(data, 6)
        } else {
            data.to_vec()
        };
        let method: u16 = if deflate { 8 } else { 0 };
        let offset = out.len() as u32;
        out.extend_from_slice(&LOCAL_HEADER.to_le_bytes());
        out.extend_from_slice(&[20, 0, 0, 0]);
        out.extend_from_slice(&method.to_le_bytes());
        out.extend_from_slice(&[0; 8]); // time, date, crc (unchecked here)
        out.extend_from_slice(&(stored.len() as u32).to_le_bytes());
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(&(name.len() as u16).to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&stored);
        directory.extend_from_slice(&DIRECTORY_ENTRY.to_le_bytes());
        directory.extend_from_slice(&[20, 0, 20, 0, 0, 0]);
        directory.extend_from_slice(&method.to_le_bytes());
        directory.extend_from_slice(&[0; 8]);
        directory.extend_from_slice(&(stored.len() as u32).to_le_bytes());
        directory.extend_from_slice(&(data.len() as u32).to_le_bytes());
        directory.extend_from_slice(&(name.len() as u16).to_le_bytes());
        directory.extend_from_slice(&[0; 12]);
        directory.extend_from_slice(&offset.to_le_bytes());
        directory.extend_from_slice(name.as_bytes());
    }
    let dir_at = out.len() as u32;
    out.extend_from_slice(&directory);
    out.extend_from_slice(&END_OF_DIRECTORY.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(files.len() as u16).to_le_bytes());
    out.extend_from_slice(&(files.len() as u16).to_le_bytes());
    out.extend_from_slice(&(directory.len() as u32).to_le_bytes());
    out.extend_from_slice(&dir_at.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_and_deflated_entries_read_back() {
        let long: Vec<u8> = (0..5000u32).map(|i| (i % 7) as u8).collect();
        let zip = build(&[("a/one.txt", b"hello", false), ("b/two.bin", &long, true)]);
        assert!(looks_like_zip(&zip));
        let list = entries(&zip).unwrap();
        let names: Vec<&str> = list.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["a/one.txt", "b/two.bin"]);
        assert_eq!(extract(&zip, &list[0]).unwrap(), b"hello");
        assert_eq!(extract(&zip, &list[1]).unwrap(), long);
    }

    #[test]
    fn damaged_archives_are_errors_not_panics() {
        let zip = build(&[("x", b"data", true)]);
        assert!(!looks_like_zip(b"not a zip"));
        assert!(entries(b"not a zip").is_err());
        for cut in [0, 10, zip.len() / 2, zip.len() - 1] {
            let _ = entries(&zip[..cut]);
        }
        let mut broken = zip.clone();
        broken[0] = b'X';
        let list = entries(&broken).unwrap();
        assert!(extract(&broken, &list[0]).is_err());
    }
}
