//! Cartridges and their bank switching, with the type detection ALE's Stella applies to
//! a ROM image whose type its property table leaves open.
//!
//! Supported schemes: 2K, 4K, F8, F6, F4 (Atari 8/16/32K), their Super Chip variants
//! F8SC/F6SC/F4SC (128 bytes of extra RAM) and E0 (Parker Brothers).

use super::mt19937::Mt19937;
use super::AtariError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CartKind {
    K2,
    K4,
    F8,
    F6,
    F4,
    F8SC,
    F6SC,
    F4SC,
    E0,
}

impl CartKind {
    /// Detects the scheme from the image (the reference's heuristics, in its order).
    pub fn detect(image: &[u8]) -> Result<CartKind, AtariError> {
        let size = image.len();
        let unsupported = |name: &str| Err(AtariError::UnsupportedCartridge(name.to_string()));
        if size != 0 && size.is_multiple_of(8448) {
            return unsupported("AR");
        }
        if size == 2048 || (size == 4096 && image[..2048] == image[2048..]) {
            return if is_probably_cv(image) {
                unsupported("CV")
            } else {
                Ok(CartKind::K2)
            };
        }
        match size {
            4096 => {
                if is_probably_cv(image) {
                    unsupported("CV")
                } else {
                    Ok(CartKind::K4)
                }
            }
            8192 => {
                if is_probably_sc(image) {
                    Ok(CartKind::F8SC)
                } else if image[..4096] == image[4096..] {
                    Ok(CartKind::K4)
                } else if is_probably_e0(image) {
                    Ok(CartKind::E0)
                } else if is_probably_3e(image) {
                    unsupported("3E")
                } else if is_probably_3f(image) {
                    unsupported("3F")
                } else if search(image, &[0x8d, 0x40, 0x02], 1) {
                    unsupported("UA")
                } else if is_probably_fe(image) {
                    unsupported("FE")
                } else {
                    Ok(CartKind::F8)
                }
            }
            10240 | 10495 | 10496 => unsupported("DPC"),
            12288 => unsupported("FASC"),
            16384 => {
                if is_probably_sc(image) {
                    Ok(CartKind::F6SC)
                } else if is_probably_e7(image) {
                    unsupported("E7")
                } else if is_probably_3e(image) {
                    unsupported("3E")
                } else if is_probably_3f(image) {
                    unsupported("3F")
                } else {
                    Ok(CartKind::F6)
                }
            }
            32768 => {
                if is_probably_sc(image) {
                    Ok(CartKind::F4SC)
                } else if is_probably_3e(image) {
                    unsupported("3E")
                } else if is_probably_3f(image) {
                    unsupported("3F")
                } else {
                    Ok(CartKind::F4)
                }
            }
            _ => unsupported(&format!("{size}-byte image")),
        }
    }
}

/// Counts non-overlapping occurrences of `signature`, as the reference's search does
/// (it stops one byte short of the end and skips a byte after each hit).
fn search(image: &[u8], signature: &[u8], min_hits: usize) -> bool {
    if signature.len() > image.len() {
        return false;
    }
    let mut count = 0;
    let mut i = 0;
    while i < image.len() - signature.len() {
        if &image[i..i + signature.len()] == signature {
            count += 1;
            i += signature.len();
        }
        if count >= min_hits {
            break;
        }
        i += 1;
    }
    count >= min_hits
}

fn is_probably_sc(image: &[u8]) -> bool {
    image
        .chunks(4096)
        .all(|bank| bank[..256].iter().all(|&b| b == bank[0]))
}

fn is_probably_3f(image: &[u8]) -> bool {
    search(image, &[0x85, 0x3f], 2)
}

fn is_probably_3e(image: &[u8]) -> bool {
    search(image, &[0x85, 0x3e, 0xa9, 0x00], 1)
}

fn is_probably_e0(image: &[u8]) -> bool {
    const SIGNATURES: [[u8; 3]; 6] = [
        [0x8d, 0xe0, 0x1f],
        [0x8d, 0xe0, 0x5f],
        [0x8d, 0xe9, 0xff],
        [0xad, 0xe9, 0xff],
        [0xad, 0xed, 0xff],
        [0xad, 0xf3, 0xbf],
    ];
    SIGNATURES.iter().any(|s| search(image, s, 1))
}

fn is_probably_e7(image: &[u8]) -> bool {
    let first = image[0x3800];
    if image[0x3800..0x3a00].iter().any(|&b| b != first) {
        return false;
    }
    image[0x3800 - 32..0x3800].iter().any(|&b| b != first)
        || image[0x3a00..0x3a20].iter().any(|&b| b != first)
}

fn is_probably_cv(image: &[u8]) -> bool {
    search(image, &[0x9d, 0xff, 0xf3], 1) || search(image, &[0x99, 0x00, 0xf4], 1)
}

fn is_probably_fe(image: &[u8]) -> bool {
    const SIGNATURES: [[u8; 5]; 4] = [
        [0x20, 0x00, 0xd0, 0xc6, 0xc5],
        [0x20, 0xc3, 0xf8, 0xa5, 0x82],
        [0xd0, 0xfb, 0x20, 0x73, 0xfe],
        [0x20, 0x00, 0xf0, 0x84, 0xd6],
    ];
    SIGNATURES.iter().any(|s| search(image, s, 1))
}

/// A cartridge's bank switching. The bytes live in the console's memory (the ROM image
/// and any Super Chip RAM, see `machine.rs`); this is the state that says which part of
/// the image each 1K window of the 4K cartridge space shows.
#[derive(Clone, Debug)]
pub struct Cartridge {
    kind: CartKind,
    /// Image offset shown in each 1K window of the 4K cartridge space; every scheme
    /// here switches whole 1K windows (4K banks as four of them).
    windows: [usize; 4],
    /// Accesses at or above this cartridge offset may switch banks.
    hotspot_start: usize,
}

/// The cartridge space's last 64 bytes, which hold every scheme's hotspots.
pub const HOTSPOT_PAGE: usize = 0xfc0;

impl Cartridge {
    /// The cartridge and the image it maps (a 2K image doubled to 4K is cut to 2K).
    pub fn new(image: &[u8]) -> Result<(Self, Vec<u8>), AtariError> {
        let kind = CartKind::detect(image)?;
        let image = if kind == CartKind::K2 {
            image[..2048].to_vec()
        } else {
            image.to_vec()
        };
        let hotspot_start = match kind {
            CartKind::K2 | CartKind::K4 => 0x1000,
            CartKind::F8 | CartKind::F8SC => 0xff8,
            CartKind::F6 | CartKind::F6SC => 0xff6,
            CartKind::F4 | CartKind::F4SC => 0xff4,
            CartKind::E0 => 0xfe0,
        };
        let mut cart = Cartridge {
            kind,
            windows: [0, 0x400, 0x800, 0xc00],
            hotspot_start,
        };
        // Installing selects these banks before the first reset.
        match kind {
            CartKind::K2 => cart.windows = [0, 0x400, 0, 0x400],
            CartKind::F8 | CartKind::F8SC => cart.select_bank(1),
            CartKind::E0 => cart.windows = [4 << 10, 5 << 10, 6 << 10, 7 << 10],
            _ => {}
        }
        Ok((cart, image))
    }

    /// Whether the cartridge has 128 bytes of Super Chip RAM (written at offsets
    /// 0x000..0x07F, read at 0x080..0x0FF).
    pub fn has_superchip(&self) -> bool {
        matches!(self.kind, CartKind::F8SC | CartKind::F6SC | CartKind::F4SC)
    }

    /// Whether touching some offset may switch banks (at [`HOTSPOT_PAGE`] or above).
    pub fn touch_possible(&self) -> bool {
        self.hotspot_start < 0x1000
    }

    /// The image offsets the four 1K windows show.
    pub fn windows(&self) -> [usize; 4] {
        self.windows
    }

    fn select_bank(&mut self, bank: usize) {
        let base = bank * 4096;
        self.windows = [base, base + 0x400, base + 0x800, base + 0xc00];
    }

    /// Console reset: the start-up banks; Super Chip RAM is filled from the generator.
    pub fn reset(&mut self, rng: &mut Mt19937, superchip_ram: &mut [u8]) {
        match self.kind {
            CartKind::F8 => self.select_bank(1),
            CartKind::F6 | CartKind::F4 => self.select_bank(0),
            CartKind::F8SC | CartKind::F6SC | CartKind::F4SC => {
                for byte in superchip_ram.iter_mut() {
                    *byte = rng.next_u32() as u8;
                }
                self.select_bank(if self.kind == CartKind::F8SC { 1 } else { 0 });
            }
            CartKind::E0 => {
                self.windows[0] = 4 << 10;
                self.windows[1] = 5 << 10;
                self.windows[2] = 6 << 10;
            }
            CartKind::K2 | CartKind::K4 => {}
        }
    }

    /// Bank switching by touching cartridge offset `a` (reads and writes alike);
    /// whether that may have changed the windows.
    pub fn touch(&mut self, a: usize) -> bool {
        if a < self.hotspot_start {
            return false;
        }
        match self.kind {
            CartKind::F8 | CartKind::F8SC if a <= 0xff9 => self.select_bank(a - 0xff8),
            CartKind::F6 | CartKind::F6SC if a <= 0xff9 => self.select_bank(a - 0xff6),
            CartKind::F4 | CartKind::F4SC if a <= 0xffb => self.select_bank(a - 0xff4),
            // E0: 0xFE0-0xFE7, 0xFE8-0xFEF and 0xFF0-0xFF7 pick the slice of the first
            // three windows; the last window always shows slice 7.
            CartKind::E0 if a <= 0xff7 => self.windows[(a - 0xfe0) >> 3] = (a & 7) << 10,
            _ => return false,
        }
        true
    }
}
