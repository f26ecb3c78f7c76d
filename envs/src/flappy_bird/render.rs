//! The `rgb_array` frame: background, pipes, ground, then the bird turned by its visible
//! rotation with its (grown) box's top-left at the bird's position. No score, no rays.

use std::sync::Arc;

use crate::core::error::EnvError;
use crate::core::frame::Frame;

use super::env::FlappyBird;
use super::sprite_set::{sprite_files, SpriteSet, SpriteSource};

/// Fill colour when the background is switched off.
const FILL_BACKGROUND_COLOR: [u8; 3] = [200, 200, 200];

impl FlappyBird {
    pub fn frame_dims(&self) -> (u32, u32) {
        self.config().screen_size
    }

    /// The sprite file names this configuration draws with (see [`Self::load_sprites`]).
    pub fn sprite_files(&self) -> Vec<String> {
        sprite_files(self.config())
    }

    /// Draws with the package's sprites: `read` maps each name of [`Self::sprite_files`]
    /// (e.g. `"yellowbird-upflap.png"`) to that file's PNG bytes.
    pub fn load_sprites(
        &mut self,
        read: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
    ) -> Result<(), EnvError> {
        self.sprites = Arc::new(SpriteSet::from_files(self.config(), read)?);
        Ok(())
    }

    /// Back to Playbench's own art.
    pub fn use_own_sprites(&mut self) {
        self.sprites = Arc::new(SpriteSet::own(self.config()));
    }

    pub fn sprite_source(&self) -> SpriteSource {
        self.sprites.source
    }

    /// The package's `rgb_array` frame of the current state.
    pub fn draw(&self, frame: &mut Frame) {
        let (w, h) = self.frame_dims();
        frame.resize(w, h);
        let s = &self.sprites;
        match &s.background {
            Some(bg) => {
                // A background with holes or smaller than the window shows the black
                // the window starts from.
                if !bg.covers(w as usize, h as usize) {
                    frame.fill([0, 0, 0]);
                }
                bg.blit(frame, 0, 0)
            }
            None => frame.fill(FILL_BACKGROUND_COLOR),
        }
        for (up, low) in self.upper.iter().zip(&self.lower) {
            s.upper_pipe.blit(frame, up.x as i64, up.y);
            s.lower_pipe.blit(frame, low.x as i64, low.y);
        }
        s.base.blit(frame, self.ground_x, self.ground_y as i64);
        let bird = s.birds[self.player_idx.min(2)].rotated(self.visible_rot() as f32);
        bird.blit(frame, self.player_x, self.player_y as i64);
    }
}
