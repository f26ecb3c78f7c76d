#!/usr/bin/env python3
"""Golden trajectories of the three third-party games: Tetris, FlappyBird, HighwayEnv.

Reference packages (one virtual environment, exactly these versions):
    python3 -m venv .cache/venv-thirdparty
    .cache/venv-thirdparty/bin/pip install numpy==2.4.6 gymnasium==1.4.0 \
        tetris-gymnasium==0.3.1 flappy-bird-gymnasium==0.4.0 pygame==2.6.1 pandas==3.1.1
    .cache/venv-thirdparty/bin/pip install --no-deps highway-env==1.12.1
(highway-env asks for pygame-ce, flappy-bird-gymnasium for pygame; both install the same
`pygame` module, so only pygame is installed; their frames agree. Do not set
SDL_VIDEODRIVER=dummy: highway-env then draws nothing.) The FlappyBird frame test reads
the package's sprites from this environment (they are not in the repository).
Run from the repository root:
    .cache/venv-thirdparty/bin/python tests/golden/thirdparty/generate.py [tetris|flappy|highway ...]
It writes one gzipped JSON file per configuration into this folder. Tests need no Python.

File layout: {"env", "kwargs", "versions", "episodes": [...]}, the episodes played in
order on ONE environment instance (so seeded, unseeded and, for Tetris, seed-0 resets
are all checked). An episode is {"seed": int|null, "reset": {"state", "info", "frame"?},
"steps": [{"action", "state", "reward", "terminated", "truncated", "info", "frame"?}]}.
"state" is the driver's STATE of the game; "frame" the SHA-256 (hex) of the rgb_array
frame (H x W x 3, row-major uint8), present on sampled steps only. To keep files small
some values are replaced by the string "~" (left out, not compared) between sampled
steps: FlappyBird's 180-ray lidar, Highway's far cars' floats. Highway observations are
float32, stored in their shortest float32 form.
"""
import functools
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
    "pandas": "3.1.1",
    "pygame": "2.6.1",
    "gymnasium": "1.4.0",
    "tetris-gymnasium": "0.3.1",
    "flappy-bird-gymnasium": "0.4.0",
    "highway-env": "1.12.1",
}


def check_versions():
    found = {name: version(name) for name in PINS}
    if found != PINS:
        sys.exit(f"wrong reference versions: {found}, want {PINS}")
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


def play(env, state_of, frame_of, plan, policy, frame_every, thin=None):
    """Plays the episodes of `plan` ([(seed, max_steps, policy name[, steps after the
    end])]) on one env; an episode may go on for some steps after it terminated, as the
    packages allow.
    Frames are kept on every `frame_every`-th step and on the last; `thin(state, t)`
    may leave values out of the states of steps that are not the last."""
    episodes = []
    for seed, max_steps, policy_name, *after in plan:
        after_end = after[0] if after else 0
        obs, info = env.reset(seed=seed)
        ep = {"seed": seed,
              "reset": {"state": state_of(env, obs), "info": info, "frame": frame_of(env)},
              "steps": []}
        choose = policy(policy_name, seed)
        ended_at = None
        for t in range(1, max_steps + 1):
            action = int(choose(env))
            obs, reward, terminated, truncated, info = env.step(action)
            step = {"action": action, "state": state_of(env, obs), "reward": float(reward),
                    "terminated": bool(terminated), "truncated": bool(truncated),
                    "info": info}
            if (terminated or truncated) and ended_at is None:
                ended_at = t
            stop = t == max_steps or (ended_at is not None and t >= ended_at + after_end)
            last = terminated or truncated or stop
            if t % frame_every == 0 or last:
                step["frame"] = frame_of(env)
            if thin and not last:
                thin(step["state"], t)
            ep["steps"].append(step)
            if stop:
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

def tetris_state(env, _obs):
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

    # A seed > 0 reseeds the bag; 0 and None continue it.
    plans = {
        "tetris": ({}, [(1, 1200, "greedy"), (None, 400, "random"), (0, 1200, "greedy"),
                        (7, 400, "random"), (42, 1200, "greedy"), (2024, 1200, "greedy"),
                        (0, 400, "random"), (None, 1200, "greedy"), (99, 400, "random")]),
        # Without gravity a piece locks only on a hard drop.
        "tetris_variant": ({"width": 7, "height": 12, "gravity": False, "render_upscale": 3},
                           [(5, 600, "greedy"), (None, 600, "random"), (0, 600, "greedy"),
                            (8, 300, "random", 10)]),
    }
    for name, (kwargs, plan) in plans.items():
        env = gym.make("tetris_gymnasium/Tetris", render_mode="rgb_array", **kwargs)
        rgb = RgbObservation(env)

        def frame_of(e, rgb=rgb):
            return sha256(rgb.render())

        episodes = play(env, tetris_state, frame_of, plan, tetris_policy, frame_every=9)
        write(name, jsonable({"env": "tetris_gymnasium/Tetris", "kwargs": kwargs,
                              "versions": check_versions(), "episodes": episodes}))


# --------------------------------------------------------------------------- FlappyBird

class CountingCycle:
    """Wraps the env's wing-frame cycle to count its advances (STATE `anim_advances`)."""

    def __init__(self, inner):
        self.inner, self.count = inner, 0

    def __iter__(self):
        return self

    def __next__(self):
        self.count += 1
        return next(self.inner)


def flappy_state(env, obs):
    """The STATE after a reset or step; "obs" is the observation that call returned."""
    u = env.unwrapped
    return {
        "player_x": u._player_x, "player_y": u._player_y, "vel_y": u._player_vel_y,
        "rot": u._player_rot, "player_idx": u._player_idx,
        "anim_advances": u._player_idx_gen.count, "loop_iter": u._loop_iter,
        "score": u._score, "ground_x": u._ground["x"],
        "upper_pipes": [[p["x"], p["y"]] for p in u._upper_pipes],
        "lower_pipes": [[p["x"], p["y"]] for p in u._lower_pipes],
        "obs": [float(v) for v in obs],
    }


def flappy_safe(player_y, vel_y, pipes, action, horizon=40):
    """Whether some flap/idle sequence survives `horizon` steps after `action`, in a
    model of the game (gravity, flap, ground clamp, pipe rectangles; no respawns)."""
    pipes = tuple(pipes)

    def move(t, y, vel, a):
        if a and y <= -48:
            return None
        v = -9 if a else (vel + 1 if vel < 10 else vel)
        ny = y + min(v, 404.48 - y - 24)
        if ny + 24 >= 403.48:
            return None
        for x, up_y, low_y in pipes:
            xi = int(x - 4 * (t + 1))
            if 57 < xi + 52 and xi < 91 and (int(ny) < up_y + 320 or int(ny) + 24 > low_y):
                return None
        return ny, v

    @functools.lru_cache(maxsize=None)
    def ok(t, y, vel):
        if t == horizon:
            return True
        return any((n := move(t, y, vel, a)) is not None and ok(t + 1, *n) for a in (0, 1))

    first = move(0, player_y, vel_y, action)
    return first is not None and ok(1, *first)


def flappy_policy(name, seed):
    """`random` / `climb` / `dive`: flaps with probability 0.12 / 0.45 / 0 (crashes on the
    ground, flies above the screen into the upper pipes, falls and lies still).
    `pilot`: aims 20 px above the next gap's bottom, keeping only actions a look-ahead
    search finds safe, and picks a random safe action 10% of the time: long flights
    through many pipes (respawns, +1 rewards, near misses)."""
    rng = random.Random(f"flappy-{name}-{seed}")

    def choose(env):
        u = env.unwrapped
        if name in ("random", "climb", "dive"):
            return int(rng.random() < {"random": 0.12, "climb": 0.45, "dive": 0.0}[name])
        pipes = [(up["x"], up["y"], low["y"]) for up, low in zip(u._upper_pipes, u._lower_pipes)]
        gap_bottom = min(p for p in pipes if p[0] + 52 > u._player_x)[2]
        want = int(u._player_y + 24 > gap_bottom - 20 + rng.randint(-5, 5))
        safe = [a for a in (0, 1) if flappy_safe(u._player_y, u._player_vel_y, pipes, a)]
        if len(safe) == 2 and rng.random() < 0.1:
            return rng.randrange(2)
        return want if want in safe or not safe else safe[0]

    return choose


def generate_flappy():
    import gymnasium as gym
    import flappy_bird_gymnasium  # noqa: F401  (registers the id)

    # Episodes end at a crash, except those with a fourth entry, which go on that many
    # steps after it (the bird lies on the ground and turns to -90 degrees).
    long_plan = [(0, 500, "pilot"), (None, 150, "random", 20), (3, 500, "pilot"),
                 (11, 150, "climb"), (None, 400, "pilot"), (5, 150, "dive", 60),
                 (8, 150, "climb", 5)]
    short_plan = [(2, 300, "pilot"), (None, 150, "climb", 50), (4, 100, "dive", 40)]
    # (file, kwargs, plan, keep the observation every n-th step, frame every n-th step)
    configs = [
        ("flappy_bird_lidar", {}, long_plan, 80, 8),
        ("flappy_bird_features", {"use_lidar": False}, long_plan, 4, 10),
        ("flappy_bird_variant", {"normalize_obs": False, "bird_color": "blue",
                                 "pipe_color": "red", "background": "night",
                                 "score_limit": 6, "pipe_gap": 110}, short_plan, 60, 10),
        ("flappy_bird_plain", {"use_lidar": False, "normalize_obs": False,
                               "background": None, "bird_color": "red"}, short_plan, 4, 10),
    ]
    for name, kwargs, plan, obs_every, frame_every in configs:
        def thin(state, t, obs_every=obs_every):
            if t % obs_every:
                state["obs"] = "~"

        env = gym.make("FlappyBird-v0", render_mode="rgb_array", **kwargs)
        env.unwrapped._player_idx_gen = CountingCycle(env.unwrapped._player_idx_gen)

        def frame_of(e):
            return sha256(e.render())

        episodes = play(env, flappy_state, frame_of, plan, flappy_policy,
                        frame_every=frame_every, thin=thin)
        write(name, jsonable({"env": "FlappyBird-v0", "kwargs": kwargs,
                              "versions": check_versions(), "episodes": episodes}))


# --------------------------------------------------------------------------- Highway

def highway_state(env, obs):
    """STATE after a reset or step (see the module docstring); `hidden` holds what STATE
    leaves out but the next step needs: pending collision pushes ("impact")."""
    from highway_env.vehicle.controller import MDPVehicle

    u = env.unwrapped
    rows = []
    for v in u.road.vehicles:
        extra = int(v.speed_index) if isinstance(v, MDPVehicle) else float(v.timer)
        rows.append([int(v.lane_index[2]), int(v.target_lane_index[2]),
                     float(v.position[0]), float(v.position[1]), float(v.heading),
                     float(v.speed), float(v.target_speed), int(v.crashed), extra])
    # str(float32) is the shortest decimal that reads back as the same float32.
    state = {"time": u.time, "sim_steps": u.steps, "vehicles": rows,
             "obs": [[float(str(np.float32(v))) for v in row] for row in obs]}
    if u.steps == 0:
        state["idm_delta"] = [None if isinstance(v, MDPVehicle) else float(v.DELTA)
                              for v in u.road.vehicles]
    return state


def highway_thin(state, t):
    """Between every 10th step, the other cars keep only lane, target lane and crash flag."""
    if t % 10:
        for row in state["vehicles"][1:]:
            row[2:7] = ["~"] * 5
            row[8] = "~"


def highway_policy(name, seed):
    """`random`: uniform meta-actions (lane changes into traffic, crashes). `careful`:
    slows down or changes lane when a car is close ahead, else cruises with some random
    actions (long episodes that reach the time limit)."""
    rng = random.Random(f"highway-{name}-{seed}")

    def gap_ahead(u, lane):
        ego = u.vehicle
        gaps = [v.position[0] - ego.position[0] for v in u.road.vehicles
                if v is not ego and v.lane_index[2] == lane and v.position[0] > ego.position[0]]
        return min(gaps, default=1e9)

    def choose(env):
        if name == "random" or rng.random() < 0.1:
            return rng.randrange(5)
        u = env.unwrapped
        lane = u.vehicle.target_lane_index[2]
        if gap_ahead(u, lane) < 35:
            for side, action in ((lane - 1, 0), (lane + 1, 2)):
                if 0 <= side < u.config["lanes_count"] and gap_ahead(u, side) > 45:
                    return action
            return 4
        return rng.choice([1, 1, 3, 1])

    return choose


def generate_highway():
    import gymnasium as gym
    import highway_env  # noqa: F401  (registers the ids)

    if os.environ.get("SDL_VIDEODRIVER") == "dummy":
        sys.exit("highway-env draws nothing with SDL_VIDEODRIVER=dummy; unset it")
    plans = {
        "highway-v0": [(0, 40, "careful"), (None, 40, "random"), (1, 40, "random"),
                       (2, 40, "careful"), (7, 40, "random"), (None, 40, "careful"),
                       (3, 40, "careful"), (5, 40, "careful"), (None, 40, "random"),
                       (11, 40, "careful"), (13, 40, "careful"), (17, 40, "random")],
        "highway-fast-v0": [(0, 30, "careful"), (None, 30, "random"), (3, 30, "random"),
                            (4, 30, "careful"), (9, 30, "random"), (None, 30, "careful"),
                            (12, 30, "random"), (1, 30, "careful"), (2, 30, "careful"),
                            (None, 30, "careful"), (6, 30, "random"), (8, 30, "careful"),
                            (10, 30, "careful"), (14, 30, "random")],
    }
    # A configured road: other sizes, frequencies and a fixed start lane.
    config = {"lanes_count": 5, "vehicles_count": 25, "initial_lane_id": 1, "duration": 12,
              "simulation_frequency": 10, "policy_frequency": 2, "ego_spacing": 1.2,
              "vehicles_density": 1.4, "screen_width": 400, "screen_height": 200,
              "scaling": 4.5, "centering_position": [0.4, 0.6]}
    plans["highway-v0 config"] = [(21, 24, "careful"), (None, 24, "random"),
                                  (22, 24, "random"), (23, 24, "careful")]
    for key, plan in plans.items():
        env_id = key.split()[0]
        kwargs = {"config": config} if key.endswith("config") else {}
        env = gym.make(env_id, render_mode="rgb_array", **kwargs)

        def frame_of(e):
            return sha256(e.render())

        episodes = play(env, highway_state, frame_of, plan, highway_policy, frame_every=4,
                        thin=highway_thin)
        for ep in episodes:
            # The reset info's "action" samples a freshly built, unseeded action space:
            # not reproducible, so it is stored as null.
            ep["reset"]["info"]["action"] = None
        name = key.replace("-", "_").replace("_v0", "").replace(" ", "_")
        write(name, jsonable({"env": env_id, "kwargs": kwargs, "versions": check_versions(),
                              "episodes": episodes}))


GAMES = {"tetris": generate_tetris, "flappy": generate_flappy, "highway": generate_highway}

if __name__ == "__main__":
    check_versions()
    for game in sys.argv[1:] or list(GAMES):
        GAMES[game]()
