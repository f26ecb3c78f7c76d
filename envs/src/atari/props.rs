//! Per-cartridge console properties from Stella's property table, for the ROMs we
//! support: where the visible picture starts, controllers, difficulty switches at power
//! on and whether HMOVE blanks are drawn. Everything else takes the table's defaults.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RomProperties {
    /// First scanline (counted from the frame start) of the 210-line picture.
    pub y_start: u32,
    pub height: u32,
    pub left_paddles: bool,
    pub right_paddles: bool,
    pub swap_paddles: bool,
    pub left_difficulty_a: bool,
    pub right_difficulty_a: bool,
    pub hmove_blanks: bool,
}

impl Default for RomProperties {
    fn default() -> Self {
        RomProperties {
            y_start: 34,
            height: 210,
            left_paddles: false,
            right_paddles: false,
            swap_paddles: false,
            left_difficulty_a: false,
            right_difficulty_a: false,
            hmove_blanks: true,
        }
    }
}

impl RomProperties {
    /// The properties of a ROM, by its MD5 (hex, lower case).
    pub fn for_md5(md5: &str) -> RomProperties {
        let d = RomProperties::default();
        match md5 {
            // Breakout: paddles.
            "f34f08e5eb96e500e851a80be3277a56" => RomProperties {
                left_paddles: true,
                ..d
            },
            // Video Olympics (Pong): paddles on both jacks, swapped.
            "60e0ea3cbe0913d39803477945e9e5ec" => RomProperties {
                left_paddles: true,
                right_paddles: true,
                swap_paddles: true,
                ..d
            },
            // Battlezone, Ms. Pac-Man: no HMOVE blanks.
            "41f252a66c6301f1e8ab3612c19bc5d4" | "87e79cd41ce136fd4f72cc6e2c161bee" => {
                RomProperties {
                    hmove_blanks: false,
                    ..d
                }
            }
            // Q*bert: the picture starts lower.
            "484b0076816a104875e00467d431c2d2" => RomProperties { y_start: 40, ..d },
            // Amidar: both difficulty switches on A.
            "acb7750b4d0c4bd34969802a7deb2990" => RomProperties {
                left_difficulty_a: true,
                right_difficulty_a: true,
                ..d
            },
            _ => d,
        }
    }
}
