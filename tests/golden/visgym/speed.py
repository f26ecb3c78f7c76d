"""Steps and frames per second of VisGym's own environments (the reference), for
`cargo run --release -p playbench-tests --bin bench -- --reference`, which runs this in
the same run as ours (from the venv and checkout of generate.py under `.cache/`):

    SDL_VIDEODRIVER=dummy .cache/venv-visgym/bin/python tests/golden/visgym/speed.py \
        .cache/visgym-ref < job.json

The job is the benchmark's: {"seconds": S, "cases": [{"name", "env", "actions"}, ...]},
where `env` is a VisGym id (`maze_2d/easy`) and `actions` the texts of our presets for it.
Prints a JSON line of versions, then one per case: {"env": name, "steps_per_s",
"frames_per_s"}. The workload is the benchmark's (tests/golden/speed.py): a random one
of the actions per step from a seeded generator, a finished episode reset inside the
timing, and for frames an `env.render()` (rgb_array) after every step. The environments
are made as generate.py makes them (the evaluation settings); a step is `env.step(text)`
as the harness calls it, which renders the observation in every reference step.

Maze 3D draws with Ursina/Panda3D, which is not installed: its frame is the reference's
own `_render_frame` with Panda3D's draw and screenshot replaced by no-ops (the Python
read-back of the 336×336 screenshot, pixel by pixel, stays), so its figures are upper
bounds of the reference's speed.
"""

import builtins
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.dirname(HERE))
from speed_job import report, steps_per_second  # noqa: E402


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


def rate(env, actions, seconds, render):
    """Steps per second of `env` stepping random `actions`, rendering after each or not."""
    rng = random.Random(0)
    env.reset(seed=0)

    def step():
        try:
            _, _, terminated, truncated, _ = env.step(rng.choice(actions))
        except Exception:  # noqa: BLE001 - an action the reference raises on
            terminated = truncated = False
        if render:
            env.render()
        if terminated or truncated:
            env.reset()

    return steps_per_second(step, seconds)


def main():
    ref = sys.argv[1]
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
    job = json.load(sys.stdin)
    global ORIGINAL_MAZE_3D_FRAME
    g.stub_ursina()
    from gymnasium.envs.maze_3d import maze_3d

    ORIGINAL_MAZE_3D_FRAME = maze_3d.RandomMaze3DEnv._render_frame
    import numpy

    print(json.dumps({"versions": {"python": sys.version.split()[0], "numpy": numpy.__version__}}), flush=True)
    def measure(case):
        name, level = case["env"].split("/")
        env = adapters[name].make(level, 0)
        if name == "maze_3d":
            maze_3d_readback_only(env)
        actions = case["actions"]
        rate(env, actions, 0.05, True)  # untimed: first calls load modules and caches
        return rate(env, actions, job["seconds"], False), rate(env, actions, job["seconds"], True)

    report(job["cases"], measure)

if __name__ == "__main__":
    main()
