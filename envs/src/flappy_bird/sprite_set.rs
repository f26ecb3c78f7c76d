//! The pictures a frame is drawn from: Playbench's own art by default, or the package's
//! sprite files (PNG bytes by file name) for pixel-exact frames.

use crate::core::error::EnvError;

use super::art;
use super::env::FlappyBirdConfig;
use super::ID;
use crate::pygame::{decode_png, SpriteImage};

/// Where the sprites came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpriteSource {
    /// Drawn by Playbench (`art.rs`).
    Own,
    /// Loaded from PNG files (the package's sprite folder).
    Files,
}

#[derive(Clone, Debug)]
pub struct SpriteSet {
    pub source: SpriteSource,
    /// `None` = flat grey (kwarg `background=None`).
    pub background: Option<SpriteImage>,
    pub base: SpriteImage,
    /// Wing up, middle, down.
    pub birds: [SpriteImage; 3],
    pub upper_pipe: SpriteImage,
    pub lower_pipe: SpriteImage,
}

/// The sprite file names a configuration needs, as the package names its assets:
/// background, base, the three bird frames, the pipe.
pub fn sprite_files(config: &FlappyBirdConfig) -> Vec<String> {
    let mut names = Vec::new();
    if let Some(bg) = &config.background {
        names.push(format!("background-{bg}.png"));
    }
    names.push("base.png".into());
    for wing in ["upflap", "midflap", "downflap"] {
        names.push(format!("{}bird-{wing}.png", config.bird_color));
    }
    names.push(format!("pipe-{}.png", config.pipe_color));
    names
}

impl SpriteSet {
    pub fn own(config: &FlappyBirdConfig) -> Self {
        let pipe = art::pipe(&config.pipe_color);
        Self {
            source: SpriteSource::Own,
            background: config
                .background
                .as_deref()
                .map(|bg| art::background(bg == "night")),
            base: art::base(),
            birds: [0, 1, 2].map(|wing| art::bird(&config.bird_color, wing)),
            upper_pipe: pipe.flipped_vertically(),
            lower_pipe: pipe,
        }
    }

    /// Loads every file of [`sprite_files`] through `read` (file name → PNG bytes); a
    /// missing or unreadable file is an error naming it.
    pub fn from_files(
        config: &FlappyBirdConfig,
        read: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
    ) -> Result<Self, EnvError> {
        let mut load = |name: &str| -> Result<SpriteImage, EnvError> {
            let bytes = read(name).ok_or_else(|| {
                EnvError::BadKwargs(format!("{ID}: sprite file {name} is missing"))
            })?;
            let png = decode_png(&bytes)
                .map_err(|e| EnvError::BadKwargs(format!("{ID}: sprite file {name}: {e}")))?;
            SpriteImage::new(png.width as usize, png.height as usize, png.rgba).ok_or_else(|| {
                EnvError::BadKwargs(format!("{ID}: sprite file {name} is malformed"))
            })
        };
        let files = sprite_files(config);
        let mut images = Vec::with_capacity(files.len());
        for name in &files {
            images.push(load(name)?);
        }
        let mut images = images.into_iter();
        let background = match config.background {
            Some(_) => images.next(),
            None => None,
        };
        let mut next = || {
            images
                .next()
                .ok_or_else(|| EnvError::BadKwargs(format!("{ID}: sprite set incomplete")))
        };
        let base = next()?;
        let birds = [next()?, next()?, next()?];
        let pipe = next()?;
        Ok(Self {
            source: SpriteSource::Files,
            background,
            base,
            birds,
            upper_pipe: pipe.flipped_vertically(),
            lower_pipe: pipe,
        })
    }
}
