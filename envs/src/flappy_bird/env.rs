//! FlappyBird as flappy-bird-gymnasium 0.4.0 plays it (`FlappyBird-v0`): integer
//! physics, three recycled pipe pairs whose gaps come from the environment generator, and a
//! lidar or a 12-feature observation.

use std::sync::Arc;

use serde_json::{json, Value};

use crate::core::error::EnvError;
use crate::core::kwargs::Kwargs;
use crate::rng::EnvRng;

use super::lidar::{self, Obstacles, LIDAR_MAX_DISTANCE};
use super::sprite_set::SpriteSet;
use super::{ACTION_NAMES, ID};
use crate::pygame::IntRect;

pub const PLAYER_WIDTH: i64 = 34;
pub const PLAYER_HEIGHT: i64 = 24;
pub const PIPE_WIDTH: i64 = 52;
pub const PIPE_HEIGHT: i64 = 320;
const PIPE_VEL_X: f64 = -4.0;
const PLAYER_MAX_VEL_Y: i64 = 10;
const PLAYER_ACC_Y: i64 = 1;
const PLAYER_VEL_ROT: i64 = 3;
const PLAYER_FLAP_ACC: i64 = -9;
/// Rotation shown (and used by the lidar) is capped at this many degrees.
pub const PLAYER_ROT_THR: i64 = 20;
/// A ray shorter than this costs −0.5 (lidar variant only): (max(34, 24) + 30) / 2.
const PLAYER_PRIVATE_ZONE: f64 = 32.0;
const BASE_WIDTH: i64 = 336;
const BACKGROUND_WIDTH: i64 = 288;
/// The ground's scroll period: base width − background width.
const BASE_SHIFT: i64 = BASE_WIDTH - BACKGROUND_WIDTH;
const GAP_YS: [i64; 8] = [20, 30, 40, 50, 60, 70, 80, 90];
/// The sprite-frame cycle (up, middle, down, middle).
const WING_CYCLE: [usize; 4] = [0, 1, 2, 1];

/// Constructor kwargs as the package names them.
#[derive(Clone, Debug, PartialEq)]
pub struct FlappyBirdConfig {
    pub screen_size: (u32, u32),
    /// Accepted for compatibility; Playbench plays no sound.
    pub audio_on: bool,
    pub normalize_obs: bool,
    pub use_lidar: bool,
    pub pipe_gap: i64,
    pub bird_color: String,
    pub pipe_color: String,
    /// `"day"`, `"night"` or null (flat grey).
    pub background: Option<String>,
    pub score_limit: Option<i64>,
    /// Accepted for compatibility; the package only prints diagnostics with it.
    pub debug: bool,
}

impl Default for FlappyBirdConfig {
    fn default() -> Self {
        Self {
            screen_size: (288, 512),
            audio_on: false,
            normalize_obs: true,
            use_lidar: true,
            pipe_gap: 100,
            bird_color: "yellow".into(),
            pipe_color: "green".into(),
            background: Some("day".into()),
            score_limit: None,
            debug: false,
        }
    }
}

impl FlappyBirdConfig {
    /// The package's kwargs, each optional. `sprites` (a folder of the package's sprite
    /// files) is refused here: `envs` reads no files, so the caller reads them and passes
    /// their bytes to `flappy_bird::make_with_sprites`.
    pub fn from_kwargs(kw: &mut Kwargs) -> Result<Self, EnvError> {
        let d = Self::default();
        if kw.value::<Option<Value>>("sprites", "", None)?.is_some() {
            return Err(EnvError::BadKwargs(format!(
                "{ID}: `sprites` names a folder, and envs reads no files: read the sprite \
                 files and pass them to flappy_bird::make_with_sprites"
            )));
        }
        let background: Option<String> = kw.value(
            "background",
            "\"day\", \"night\" or null",
            d.background.clone(),
        )?;
        Ok(Self {
            screen_size: kw.value("screen_size", "[width, height] in pixels", d.screen_size)?,
            audio_on: kw.bool("audio_on", d.audio_on)?,
            normalize_obs: kw.bool("normalize_obs", d.normalize_obs)?,
            use_lidar: kw.bool("use_lidar", d.use_lidar)?,
            pipe_gap: kw.value("pipe_gap", "a whole number of pixels", d.pipe_gap)?,
            bird_color: kw.choice("bird_color", &["yellow", "blue", "red"], &d.bird_color)?,
            pipe_color: kw.choice("pipe_color", &["green", "red"], &d.pipe_color)?,
            background,
            score_limit: kw.value("score_limit", "a whole number or null", d.score_limit)?,
            debug: kw.bool("debug", d.debug)?,
        })
    }
}

/// One pipe: x may be fractional (respawns at 397.6), y is an integer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pipe {
    pub x: f64,
    pub y: i64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StepResult {
    /// 180 ray lengths or 12 features, float64.
    pub obs: Vec<f64>,
    pub reward: f64,
    pub terminated: bool,
    pub truncated: bool,
    /// `{"score": n}`.
    pub info: Value,
}

#[derive(Clone, Debug)]
pub struct FlappyBird {
    config: FlappyBirdConfig,
    rng: EnvRng,
    pub(super) player_x: i64,
    /// An integer except after the ground clamp (the crash step).
    pub(super) player_y: f64,
    pub(super) vel_y: i64,
    pub(super) rot: i64,
    pub(super) player_idx: usize,
    /// Advances of the wing cycle since construction (not reset by `reset`).
    anim_advances: u64,
    loop_iter: i64,
    pub(super) score: i64,
    /// Not reset by `reset` either.
    pub(super) ground_x: i64,
    pub(super) ground_y: f64,
    pub(super) upper: [Pipe; 3],
    pub(super) lower: [Pipe; 3],
    obs: Vec<f64>,
    was_reset: bool,
    pub(super) sprites: Arc<SpriteSet>,
}

impl FlappyBird {
    pub fn with_config(config: FlappyBirdConfig) -> Result<Self, EnvError> {
        let bad = |what: String| Err(EnvError::BadKwargs(format!("{ID}: {what}")));
        let (w, h) = config.screen_size;
        if !(64..=4096).contains(&w) || !(64..=4096).contains(&h) {
            return bad(format!("screen_size must be within 64..=4096, got {w}×{h}"));
        }
        if !["yellow", "blue", "red"].contains(&config.bird_color.as_str()) {
            return bad(format!(
                "bird_color must be yellow, blue or red, got {:?}",
                config.bird_color
            ));
        }
        if !["green", "red"].contains(&config.pipe_color.as_str()) {
            return bad(format!(
                "pipe_color must be green or red, got {:?}",
                config.pipe_color
            ));
        }
        if let Some(b) = &config.background {
            if b != "day" && b != "night" {
                return bad(format!("background must be day, night or null, got {b:?}"));
            }
        }
        if !(0..=10_000).contains(&config.pipe_gap) {
            return bad(format!(
                "pipe_gap must be within 0..=10000, got {}",
                config.pipe_gap
            ));
        }
        let sprites = Arc::new(SpriteSet::own(&config));
        let mut env = Self {
            player_x: 0,
            player_y: 0.0,
            vel_y: 0,
            rot: 0,
            player_idx: 0,
            anim_advances: 0,
            loop_iter: 0,
            score: 0,
            ground_x: 0,
            ground_y: f64::from(h) * 0.79,
            upper: [Pipe { x: 0.0, y: 0 }; 3],
            lower: [Pipe { x: 0.0, y: 0 }; 3],
            obs: Vec::new(),
            was_reset: false,
            rng: EnvRng::default(),
            sprites,
            config,
        };
        env.obs = env.observe().0;
        Ok(env)
    }

    pub fn config(&self) -> &FlappyBirdConfig {
        &self.config
    }

    fn screen(&self) -> (f64, f64) {
        let (w, h) = self.config.screen_size;
        (f64::from(w), f64::from(h))
    }

    /// One draw from the environment generator: the gap height; (upper y, lower y).
    fn random_pipe_ys(&mut self) -> (i64, i64) {
        let k = self.rng.get().index(GAP_YS.len()).unwrap_or(0);
        let gap_y = GAP_YS[k] + (self.ground_y * 0.2) as i64;
        (gap_y - PIPE_HEIGHT, gap_y + self.config.pipe_gap)
    }

    /// The package's `reset`. Gymnasium's rule: a seed rebuilds the generator, no seed
    /// continues it. The wing cycle and the ground scroll carry over from the previous
    /// episode. Returns the observation and the info dict.
    pub fn start(&mut self, seed: Option<u64>) -> (Vec<f64>, Value) {
        self.rng.reset(seed);
        let (w, h) = self.screen();
        self.player_x = (w * 0.2) as i64;
        self.player_y = ((h - PLAYER_HEIGHT as f64) / 2.0) as i64 as f64;
        self.vel_y = -9;
        self.rot = 45;
        self.player_idx = 0;
        self.loop_iter = 0;
        self.score = 0;
        let ys = [0; 3].map(|_| self.random_pipe_ys());
        // The first draws' x is not used: the pairs start at w, 1.5·w and 2·w.
        let xs = [w, w + w / 2.0, w + w];
        for i in 0..3 {
            self.upper[i] = Pipe {
                x: xs[i],
                y: ys[i].0,
            };
            self.lower[i] = Pipe {
                x: xs[i],
                y: ys[i].1,
            };
        }
        self.was_reset = true;
        self.obs = self.observe().0;
        (self.obs.clone(), self.info())
    }

    /// The info dict of the last reset or step.
    pub fn info(&self) -> Value {
        json!({ "score": self.score })
    }

    /// The package's `step`.
    pub fn play(&mut self, action: usize) -> Result<StepResult, EnvError> {
        if !self.was_reset {
            return Err(EnvError::NotReset);
        }
        if action >= ACTION_NAMES.len() {
            return Err(EnvError::InvalidAction(format!(
                "action {action} is out of range: {ID} has actions 0..{}",
                ACTION_NAMES.len() - 1
            )));
        }
        let passed_pipe = self.advance(action);
        let (obs, too_close) = self.observe();
        self.obs = obs;
        let mut reward = if passed_pipe {
            1.0
        } else if too_close {
            -0.5
        } else {
            0.1
        };
        if self.player_y < 0.0 {
            reward = -0.5;
        }
        let crashed = self.crashed();
        if crashed {
            reward = -1.0;
            self.vel_y = 0;
        }
        let truncated = self.score_limit_reached();
        Ok(StepResult {
            obs: self.obs.clone(),
            reward,
            terminated: crashed,
            truncated,
            info: self.info(),
        })
    }

    /// Whether the score has reached the `score_limit` kwarg (the package truncates).
    pub fn score_limit_reached(&self) -> bool {
        self.config
            .score_limit
            .is_some_and(|limit| self.score >= limit)
    }

    /// The motion of one step, in the package's order (flap, score, wing frame, ground,
    /// rotation, gravity, move, pipes); whether a pipe was passed. The observation, the
    /// reward and the crash test follow in [`Self::play`].
    pub(super) fn advance(&mut self, action: usize) -> bool {
        let mut passed_pipe = false;
        let mut flapped = false;
        if action == 1 && self.player_y > (-2 * PLAYER_HEIGHT) as f64 {
            self.vel_y = PLAYER_FLAP_ACC;
            flapped = true;
        }
        // Scoring looks at the pipes before they move.
        let player_mid = self.player_x as f64 + (PLAYER_WIDTH / 2) as f64;
        for pipe in &self.upper {
            let pipe_mid = pipe.x + (PIPE_WIDTH / 2) as f64;
            if pipe_mid <= player_mid && player_mid < pipe_mid + 4.0 {
                self.score += 1;
                passed_pipe = true;
            }
        }
        if (self.loop_iter + 1) % 3 == 0 {
            self.player_idx = WING_CYCLE[(self.anim_advances % 4) as usize];
            self.anim_advances += 1;
        }
        self.loop_iter = (self.loop_iter + 1) % 30;
        self.ground_x = -((-self.ground_x + 100).rem_euclid(BASE_SHIFT));
        if self.rot > -90 {
            self.rot -= PLAYER_VEL_ROT;
        }
        if self.vel_y < PLAYER_MAX_VEL_Y && !flapped {
            self.vel_y += PLAYER_ACC_Y;
        }
        if flapped {
            self.rot = 45;
        }
        let room = self.ground_y - self.player_y - PLAYER_HEIGHT as f64;
        let vel = self.vel_y as f64;
        self.player_y += if room < vel { room } else { vel };
        let respawn_x = self.screen().0 + PIPE_WIDTH as f64 + self.screen().0 * 0.2;
        for i in 0..3 {
            self.upper[i].x += PIPE_VEL_X;
            self.lower[i].x += PIPE_VEL_X;
            if self.upper[i].x < -PIPE_WIDTH as f64 {
                let (up_y, low_y) = self.random_pipe_ys();
                self.upper[i] = Pipe {
                    x: respawn_x,
                    y: up_y,
                };
                self.lower[i] = Pipe {
                    x: respawn_x,
                    y: low_y,
                };
            }
        }
        passed_pipe
    }

    pub(super) fn crashed(&self) -> bool {
        if self.player_y + PLAYER_HEIGHT as f64 >= self.ground_y - 1.0 {
            return true;
        }
        let bird = IntRect::new(
            self.player_x as f64,
            self.player_y,
            PLAYER_WIDTH as i32,
            PLAYER_HEIGHT as i32,
        );
        self.upper.iter().chain(&self.lower).any(|p| {
            bird.overlaps(&IntRect::new(
                p.x,
                p.y as f64,
                PIPE_WIDTH as i32,
                PIPE_HEIGHT as i32,
            ))
        })
    }

    /// The rotation drawn and seen by the lidar.
    pub fn visible_rot(&self) -> i64 {
        self.rot.min(PLAYER_ROT_THR)
    }

    /// (observation, whether a ray is inside the private zone).
    fn observe(&self) -> (Vec<f64>, bool) {
        if self.config.use_lidar {
            let mut order: Vec<usize> = (0..3).collect();
            order.sort_by(|&a, &b| self.upper[a].x.total_cmp(&self.upper[b].x));
            let rect =
                |p: &Pipe| IntRect::new(p.x, p.y as f64, PIPE_WIDTH as i32, PIPE_HEIGHT as i32);
            let obstacles = Obstacles {
                pipes: order
                    .iter()
                    .map(|&i| (rect(&self.upper[i]), rect(&self.lower[i])))
                    .collect(),
                ground_y: self.ground_y,
            };
            let mut rays = lidar::scan(
                (self.player_x + PLAYER_WIDTH) as f64,
                self.player_y + (PLAYER_HEIGHT / 2) as f64,
                self.visible_rot(),
                &obstacles,
            );
            let too_close = rays.iter().any(|&d| d < PLAYER_PRIVATE_ZONE);
            if self.config.normalize_obs {
                for d in &mut rays {
                    *d /= LIDAR_MAX_DISTANCE;
                }
            }
            return (rays, too_close);
        }
        let (w, h) = self.screen();
        let mut pipes: Vec<[f64; 3]> = (0..3)
            .map(|i| {
                if self.lower[i].x > w {
                    [w, 0.0, h]
                } else {
                    [
                        self.lower[i].x,
                        (self.upper[i].y + PIPE_HEIGHT) as f64,
                        self.lower[i].y as f64,
                    ]
                }
            })
            .collect();
        pipes.sort_by(|a, b| a[0].total_cmp(&b[0]));
        let mut features: Vec<f64> = pipes.iter().flatten().copied().collect();
        features.extend([self.player_y, self.vel_y as f64, self.rot as f64]);
        if self.config.normalize_obs {
            let scale = [w, h, h, w, h, h, w, h, h, h, PLAYER_MAX_VEL_Y as f64, 90.0];
            for (f, s) in features.iter_mut().zip(scale) {
                *f /= s;
            }
        }
        (features, false)
    }

    /// The observation of the last reset or step (float64, as the package returns it).
    pub fn observation_values(&self) -> &[f64] {
        &self.obs
    }

    pub fn score(&self) -> i64 {
        self.score
    }

    /// The driver's STATE: bird, counters, ground, pipes (list order) and observation.
    pub fn state_json(&self) -> Value {
        let pipes = |ps: &[Pipe; 3]| ps.iter().map(|p| json!([p.x, p.y])).collect::<Vec<_>>();
        json!({
            "player_x": self.player_x,
            "player_y": self.player_y,
            "vel_y": self.vel_y,
            "rot": self.rot,
            "player_idx": self.player_idx,
            "anim_advances": self.anim_advances,
            "loop_iter": self.loop_iter,
            "score": self.score,
            "ground_x": self.ground_x,
            "upper_pipes": pipes(&self.upper),
            "lower_pipes": pipes(&self.lower),
            "obs": self.obs,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn make(kwargs: &str) -> FlappyBird {
        let mut kw = Kwargs::new(ID, serde_json::from_str(kwargs).unwrap());
        let config = FlappyBirdConfig::from_kwargs(&mut kw).unwrap();
        kw.finish().unwrap();
        FlappyBird::with_config(config).unwrap()
    }

    #[test]
    fn seed_zero_pipes() {
        let mut env = make("{}");
        let (obs, info) = env.start(Some(0));
        assert_eq!(obs.len(), 180);
        assert_eq!(info, json!({"score": 0}));
        let s = env.state_json();
        assert_eq!(
            s["upper_pipes"],
            json!([[288.0, -160], [432.0, -170], [576.0, -180]])
        );
        assert_eq!(
            s["lower_pipes"],
            json!([[288.0, 260], [432.0, 250], [576.0, 240]])
        );
        assert_eq!(s["player_y"], 244.0);
    }

    #[test]
    fn flap_and_fall() {
        let mut env = make(r#"{"use_lidar": false, "normalize_obs": false}"#);
        env.start(Some(0));
        let s = env.play(1).unwrap();
        // Flap: velocity −9 with no gravity that step, rotation back to 45.
        assert_eq!(s.obs[9..], [235.0, -9.0, 45.0]);
        assert_eq!(s.reward, 0.1);
        let s = env.play(0).unwrap();
        assert_eq!(s.obs[9..], [227.0, -8.0, 42.0]);
    }

    #[test]
    fn falling_bird_crashes_on_the_ground_at_a_float_height() {
        let mut env = make("{}");
        env.start(Some(0));
        let mut last = None;
        for _ in 0..40 {
            let s = env.play(0).unwrap();
            if s.terminated {
                last = Some(s);
                break;
            }
        }
        let s = last.unwrap();
        assert_eq!(s.reward, -1.0);
        assert_eq!(env.state_json()["player_y"], 512.0 * 0.79 - 24.0);
        assert_eq!(env.state_json()["vel_y"], 0);
    }

    #[test]
    fn wing_cycle_and_ground_survive_reset() {
        let mut env = make("{}");
        env.start(Some(0));
        for _ in 0..4 {
            env.play(1).unwrap();
        }
        env.start(Some(0));
        let s = env.state_json();
        assert_eq!(
            (s["anim_advances"].clone(), s["ground_x"].clone()),
            (json!(1), json!(-16))
        );
    }

    #[test]
    fn bad_kwargs_and_missing_sprites_are_errors() {
        let made = |kwargs: &str| crate::make(ID, &serde_json::from_str(kwargs).unwrap());
        assert!(made(r#"{"bird_color": "green"}"#).is_err());
        assert!(made(r#"{"speed": 3}"#).is_err());
        assert!(made(r#"{"pipe_gap": "wide"}"#).is_err());
        assert!(made(r#"{"sprites": "assets/sprites"}"#)
            .err()
            .is_some_and(|e| e.to_string().contains("make_with_sprites")));
        assert!(made(r#"{"background": null, "screen_size": [288, 512]}"#).is_ok());
        let mut env = make("{}");
        assert_eq!(env.play(0), Err(EnvError::NotReset));
        let err = env.load_sprites(&mut |_| None).unwrap_err();
        assert!(err.to_string().contains("background-day.png"), "{err}");
        assert_eq!(env.sprite_source(), super::super::SpriteSource::Own);
    }

    #[test]
    fn own_sprites_draw_a_full_frame() {
        let mut env = make("{}");
        env.start(Some(0));
        let mut frame = crate::Frame::default();
        env.draw(&mut frame);
        assert_eq!((frame.width(), frame.height()), (288, 512));
        // Sky at the top left, ground at the bottom, the bird's body near (57+15, 244+12).
        assert_ne!(frame.get(0, 0), frame.get(0, 500));
        assert_ne!(frame.get(72, 256), frame.get(20, 256));
    }
}
