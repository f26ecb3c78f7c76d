"""Steps and frames per second of VisGym's synthetic environments (the reference),
for `cargo run --release -p playbench-tests --bin visgym_speed`, which runs it in the
same run as ours and prints both.

    SDL_VIDEODRIVER=dummy .cache/venv-visgym/bin/python tests/golden/visgym/speed.py \
        .cache/visgym-ref SECONDS < actions.json

Reads {"maze_2d/easy": [action strings, ...], ...} on stdin (the bench binary writes
it, so both sides step the same strings) and prints one JSON line per id:
{"env", "steps_per_s", "frames_per_s"}. A step is `env.step(action)` as the harness
calls it (the environments are made as `generate.py` makes them, the evaluation
settings); a terminated episode is reset outside the timing. A frame is one
`env.render()` (rgb_array) after an untimed step, so each frame shows a new state. Same environment versions as generate.py.

Maze 3D draws with Ursina/Panda3D, which is not installed: its frame is the reference's
own `_render_frame` with Panda3D's draw and screenshot replaced by no-ops (the Python
read-back of the 336×336 screenshot, pixel by pixel, stays), so its figures are upper
bounds of the reference's speed. Its step renders the observation as every reference
step does.
"""

import builtins
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def maze_3d_readback_only(env):
    """Runs Maze 3D's own `_render_frame` with Panda3D's work as no-ops (see the header)."""
    from gymnasium.envs.maze_3d import maze_3d

    w, h = env._render_size

    class Screenshot:
        def get_x_size(self):
            return w

        def get_y_size(self):
            return h

        def get_red_val(self, x, y):
            return 0

        get_green_val = get_blue_val = get_red_val

    class Sphere:
        x = z = 0.0
        position = (0.0, 0.0, 0.0)

    class Window:
        def getScreenshot(self, image):
            pass

    class Base:
        win = Window()

    class App:
        def step(self):
            pass

    def build_scene(self):  # Panda3D's scene graph: only the agent's stand-in
        self._agent_sphere = Sphere()

    builtins.base = Base()
    maze_3d._uapp = App()
    maze_3d.scene.entities = [Sphere()]
    env._pnm_img = Screenshot()
    env._agent_sphere = Sphere()
    env._app_initialized = True
    maze_3d.RandomMaze3DEnv._build_scene_entities = build_scene
    maze_3d.RandomMaze3DEnv._render_frame = ORIGINAL_MAZE_3D_FRAME


ORIGINAL_MAZE_3D_FRAME = None


def main():
    ref, seconds = sys.argv[1], float(sys.argv[2])
    sys.path.insert(0, os.path.abspath(ref))
    sys.path.insert(0, HERE)
    import generate as g

    adapters = {
        a.name: a
        for a in [
            g.Maze2dAdapter(), g.Maze3dAdapter(), g.SlidingBlockAdapter(),
            g.MatchstickEquationAdapter(), g.MatchstickRotationAdapter(),
            g.PatchReassemblyAdapter(), g.CubeAdapter(),
        ]
    }
    plans = json.load(sys.stdin)
    global ORIGINAL_MAZE_3D_FRAME
    g.stub_ursina()
    from gymnasium.envs.maze_3d import maze_3d

    ORIGINAL_MAZE_3D_FRAME = maze_3d.RandomMaze3DEnv._render_frame
    for env_id, actions in plans.items():
        name, level = env_id.split("/")
        env = adapters[name].make(level, 0)
        if name == "maze_3d":
            maze_3d_readback_only(env)
        env.reset(seed=0)
        steps, spent, i = 0, 0.0, 0
        while spent < seconds:
            a = actions[i % len(actions)]
            i += 1
            t0 = time.perf_counter()
            try:
                _, _, terminated, _, _ = env.step(a)
            except Exception:  # noqa: BLE001 - an action the reference raises on
                terminated = False
            spent += time.perf_counter() - t0
            steps += 1
            if terminated:
                env.reset()
        steps_per_s = steps / spent
        env.reset(seed=0)
        frames, spent = 0, 0.0
        while spent < seconds:
            # A frame of a new state each time: step (untimed), then render.
            try:
                _, _, terminated, _, _ = env.step(actions[frames % len(actions)])
            except Exception:  # noqa: BLE001
                terminated = False
            if terminated:
                env.reset()
            t0 = time.perf_counter()
            env.render()
            spent += time.perf_counter() - t0
            frames += 1
        frames_per_s = frames / spent
        print(json.dumps({"env": env_id, "steps_per_s": steps_per_s, "frames_per_s": frames_per_s}), flush=True)


if __name__ == "__main__":
    main()
