#!/usr/bin/env python3
"""Golden trajectories of the three third-party games: Tetris, FlappyBird, HighwayEnv.

Reference packages (one virtual environment, exactly these versions):
    python3 -m venv .cache/venv-thirdparty
    .cache/venv-thirdparty/bin/pip install numpy==2.4.6 gymnasium==1.4.0 \
        tetris-gymnasium==0.3.1 flappy-bird-gymnasium==0.4.0 pygame==2.6.1 pandas
    .cache/venv-thirdparty/bin/pip install --no-deps highway-env==1.12.1
(highway-env asks for pygame-ce, flappy-bird-gymnasium for pygame; both install the same
`pygame` module, so only pygame is installed; their frames agree.)
Run from the repository root:
    .cache/venv-thirdparty/bin/python tests/golden/thirdparty/generate.py [tetris|flappy|highway ...]
It writes one gzipped JSON file per configuration into this folder. Tests need no Python.

File layout: {"env", "kwargs", "versions", "episodes": [...]}, the episodes played in
order on ONE environment instance (so seeded, unseeded and, for Tetris, seed-0 resets
are all checked). An episode is {"seed": int|null, "reset": {"state", "info", "frame"?},
"steps": [{"action", "state", "reward", "terminated", "truncated", "info", "frame"?}]}.
"state" is the driver's STATE of the game; "frame" the SHA-256 (hex) of the rgb_array
frame (H x W x 3, row-major uint8), present on sampled steps only.
"""
import gzip
import hashlib
import json
import os
import random
import sys
from importlib.metadata import version

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PINS = {
    "numpy": "2.4.6",
    "gymnasium": "1.4.0",
    "tetris-gymnasium": "0.3.1",
    "flappy-bird-gymnasium": "0.4.0",
    "highway-env": "1.12.1",
}


def check_versions():
    found = {name: version(name) for name in PINS}
    if found != PINS:
        sys.exit(f"wrong reference versions: {found}, want {PINS}")
    found["pygame"] = version("pygame")
    return found


def sha256(frame):
    frame = np.ascontiguousarray(frame, dtype=np.uint8)
    return hashlib.sha256(frame.tobytes()).hexdigest()


def write(name, data):
    path = os.path.join(HERE, name + ".json.gz")
    raw = json.dumps(data, separators=(",", ":")).encode()
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        f.write(raw)
    print(f"{path}: {len(raw)} bytes raw, {os.path.getsize(path)} gzipped")


def play(env, state_of, frame_of, plan, policy, frame_every):
    """Plays the episodes of `plan` ([(seed, max_steps, policy name)]) on one env."""
    episodes = []
    for seed, max_steps, policy_name in plan:
        _, info = env.reset(seed=seed)
        ep = {"seed": seed,
              "reset": {"state": state_of(env), "info": info, "frame": frame_of(env)},
              "steps": []}
        choose = policy(policy_name, seed)
        for t in range(1, max_steps + 1):
            action = int(choose(env))
            _, reward, terminated, truncated, info = env.step(action)
            step = {"action": action, "state": state_of(env), "reward": float(reward),
                    "terminated": bool(terminated), "truncated": bool(truncated),
                    "info": info}
            if t % frame_every == 0 or terminated or truncated:
                step["frame"] = frame_of(env)
            ep["steps"].append(step)
            if terminated or truncated:
                break
        episodes.append(ep)
    return episodes


def jsonable(value):
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    return value


# --------------------------------------------------------------------------- Tetris

def tetris_state(env):
    u = env.unwrapped

    def rows(matrix):
        return ["".join(str(int(v)) for v in row) for row in matrix]

    held = u.holder.get_tetrominoes()
    return {
        "board": rows(u.board),
        "active": {"id": int(u.active_tetromino.id), "matrix": rows(u.active_tetromino.matrix),
                   "x": int(u.x), "y": int(u.y)},
        "queue": [int(u.tetrominoes[i].id) for i in u.queue.get_queue()],
        "holder": None if not held else {"id": int(held[0].id), "matrix": rows(held[0].matrix)},
        "has_swapped": bool(u.has_swapped),
        "game_over": bool(u.game_over),
        "bag": [int(v) for v in u.randomizer.bag],
        "bag_index": int(u.randomizer.index),
    }


def tetris_policy(name, seed):
    """`random`: uniform actions. `greedy`: aims each piece at the placement with the best
    lines/height/holes score (ties and 10% of actions random, some swaps), so lines clear."""
    rng = random.Random(f"tetris-{name}-{seed}")
    plan = {}

    def placements(u):
        piece = u.active_tetromino
        best = None
        for turns in range(4):
            m = piece.matrix
            for _ in range(turns):
                m = np.rot90(m, k=-1)
            shaped = type(piece)(piece.id, piece.color_rgb, m)
            for x in range(0, u.width_padded - m.shape[1] + 1):
                y = u.y
                if u.collision(shaped, x, y):
                    continue
                while not u.collision(shaped, x, y + 1):
                    y += 1
                board = u.board.copy()
                board[y:y + m.shape[0], x:x + m.shape[1]] += m
                inner = board[:u.height, u.padding:u.padding + u.width]
                full = int(np.sum(np.all(inner > 0, axis=1)))
                filled = inner > 0
                heights = np.where(filled.any(axis=0), u.height - filled.argmax(axis=0), 0)
                holes = int(sum(np.sum(~filled[u.height - h:, c]) for c, h in enumerate(heights)))
                score = (0.76 * full - 0.51 * heights.sum() - 0.36 * holes
                         - 0.18 * np.abs(np.diff(heights)).sum() + 0.05 * rng.random())
                if best is None or score > best[0]:
                    best = (score, turns, x)
        return best

    def choose(env):
        u = env.unwrapped
        if name == "random" or rng.random() < 0.04:
            return rng.randrange(8)
        # A new piece (lock or swap) changes the board or the piece or the swap flag.
        key = (int(u.board.sum()), int(u.active_tetromino.id), bool(u.has_swapped))
        if key not in plan:
            plan.clear()
            best = placements(u)
            plan[key] = [0, best[1], best[2]] if best else [0, 0, u.x]
            if rng.random() < 0.05 and not u.has_swapped:
                return 6
        done, turns, x = plan[key]
        if done < turns:
            plan[key][0] += 1
            return 4
        if u.x < x:
            return 1
        if u.x > x:
            return 0
        return 5

    return choose


def generate_tetris():
    import gymnasium as gym
    import tetris_gymnasium.envs  # noqa: F401  (registers the id)
    from tetris_gymnasium.wrappers.observation import RgbObservation

    env = gym.make("tetris_gymnasium/Tetris", render_mode="rgb_array")
    rgb = RgbObservation(env)

    def frame_of(e):
        return sha256(rgb.render())

    # A seed > 0 reseeds the bag; 0 and None continue it.
    plan = [(1, 1200, "greedy"), (None, 400, "random"), (0, 1200, "greedy"),
            (7, 400, "random"), (42, 1200, "greedy"), (2024, 1200, "greedy"),
            (0, 400, "random"), (None, 1200, "greedy"), (99, 400, "random")]
    episodes = play(env, tetris_state, frame_of, plan, tetris_policy, frame_every=9)
    write("tetris", jsonable({"env": "tetris_gymnasium/Tetris", "kwargs": {},
                              "versions": check_versions(), "episodes": episodes}))


GAMES = {"tetris": generate_tetris}

if __name__ == "__main__":
    check_versions()
    for game in sys.argv[1:] or list(GAMES):
        GAMES[game]()
