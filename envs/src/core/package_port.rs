//! The `Env` methods the ports of Python game packages (Tetris, FlappyBird, Highway)
//! answer the same way, written once: named discrete actions with a no-op and keys, the
//! frame, clones, the driver's STATE and the package's info dict.

/// Expands, inside `impl Env for T`, to `action_space`, `action_names`, `noop`, `keymap`,
/// `frame_size`, `render`, `clone_box`, `as_any`, `snapshot` and `reply_fields` from the
/// family's `ACTION_NAMES`, `NOOP_ACTION` and `KEYMAP` and `T`'s `frame_dims()`,
/// `draw(&mut Frame)`, `state_json()` and `info()`.
macro_rules! package_port_methods {
    ($names:expr, $noop:expr, $keymap:expr) => {
        fn action_space(&self) -> $crate::core::action::ActionSpace {
            $crate::core::action::ActionSpace::Discrete { n: $names.len() }
        }

        fn action_names(&self) -> Vec<String> {
            $names.iter().map(|s| s.to_string()).collect()
        }

        fn noop(&self) -> Option<usize> {
            Some($noop)
        }

        fn keymap(&self) -> Vec<$crate::core::env::KeyBinding> {
            $keymap.to_vec()
        }

        fn frame_size(&self) -> (u32, u32) {
            self.frame_dims()
        }

        fn render(&self, frame: &mut $crate::core::frame::Frame) {
            self.draw(frame);
        }

        fn clone_box(&self) -> Box<dyn $crate::core::env::Env> {
            Box::new(self.clone())
        }

        fn as_any(&self) -> &dyn std::any::Any {
            self
        }

        /// The driver's STATE (`docs/third-party-games.md`).
        fn snapshot(&self) -> Option<serde_json::Value> {
            Some(self.state_json())
        }

        /// The package's info dict of the last reset or step.
        fn reply_fields(&self) -> serde_json::Map<String, serde_json::Value> {
            let mut fields = serde_json::Map::new();
            fields.insert("info".into(), self.info());
            fields
        }
    };
}
pub(crate) use package_port_methods;
