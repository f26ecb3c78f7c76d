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
`env.render()` (rgb_array) after an untimed step, so each frame shows a new state. Maze 3D renders with Ursina/Panda3D, which is not
installed: its frames are not timed (null). Same environment versions as generate.py.
"""

import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


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
    for env_id, actions in plans.items():
        name, level = env_id.split("/")
        env = adapters[name].make(level, 0)
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
        frames_per_s = None
        if name != "maze_3d":
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
        print(json.dumps({"env": env_id, "steps_per_s": steps / spent, "frames_per_s": frames_per_s}), flush=True)


if __name__ == "__main__":
    main()
