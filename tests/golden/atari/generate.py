"""Golden trajectories of the Atari games from the Arcade Learning Environment (ale-py).

Run from the repository root, in a virtual environment with the pinned packages:

    python3 -m venv .cache/venv-atari
    .cache/venv-atari/bin/pip install ale-py==0.12.1 gymnasium==1.2.2 numpy==2.4.6
    .cache/venv-atari/bin/python tests/golden/atari/generate.py [Game ...]

ale-py 0.12.1 is ALE commit 8a8fafb1ac37796e3e8197a2e5727204fa1b926d. The ROMs come from
the ale-py wheel; nothing derived from them is written except hashes.

For every game, three traces of `ALE/<Game>-v5` are recorded: two with the v5 defaults
and one with the full action space and a short frame limit (so truncation happens).
Actions are random, each held for 1 to 8 steps; when an episode ends the trace resets
without a seed (ALE's soft reset path), and half-way through it resets with a new seed.

Each trace stores, per step, the action index, and sparsely the rewards, the episode
ends and every change of lives as [step, phase, lives] (phase 0: after the reseeding
reset before the step, 1: after the step, 2: after the reset that follows an episode
end). Every screen is covered by a hash chain: after each step (and after
each reset) chain = SHA-256(chain || SHA-256(RGB screen) || RAM), starting from 32 zero
bytes; the chain value (first 16 hex digits) is stored every CHECKPOINT steps, with the
frame counters and the grayscale screen's SHA-256 (16 hex digits), and the full RAM
every RAM_EVERY steps. A replay that differs anywhere is caught within CHECKPOINT steps.

Output: tests/golden/atari/<Game>.json.gz, naming the registered id it covers ("env").
"""

import gzip
import hashlib
import json
import os
import sys

import ale_py
import gymnasium as gym
import numpy as np

GAMES = [
    "Alien",
    "Amidar",
    "Asterix",
    "BattleZone",
    "Berzerk",
    "Boxing",
    "Breakout",
    "Enduro",
    "Freeway",
    "Frostbite",
    "Kangaroo",
    "MontezumaRevenge",
    "MsPacman",
    "Pong",
    "Qbert",
    "Riverraid",
    "RoadRunner",
    "Seaquest",
    "SpaceInvaders",
    "Tennis",
]

STEPS = 2500
SHORT_STEPS = 1200
CHECKPOINT = 25
RAM_EVERY = 250
TRACES = [
    {"seed": 7, "kwargs": {}, "steps": STEPS},
    {"seed": 2024, "kwargs": {}, "steps": STEPS},
    {
        "seed": 99,
        "kwargs": {"full_action_space": True, "max_num_frames_per_episode": 1000},
        "steps": SHORT_STEPS,
    },
]

OUT_DIR = os.path.dirname(os.path.abspath(__file__))


def record(game, trace):
    env = gym.make(f"ALE/{game}-v5", **trace["kwargs"])
    ale = env.unwrapped.ale
    seed = trace["seed"]
    steps = trace["steps"]
    reseed_step = steps // 2
    reseed = seed + 1

    chain = bytes(32)

    def fold():
        nonlocal chain
        screen = hashlib.sha256(ale.getScreenRGB().tobytes()).digest()
        chain = hashlib.sha256(chain + screen + ale.getRAM().tobytes()).digest()

    def checkpoint(step, with_ram):
        entry = {
            "step": step,
            "chain": chain.hex()[:16],
            "frame_number": ale.getFrameNumber(),
            "episode_frame_number": ale.getEpisodeFrameNumber(),
            "gray": hashlib.sha256(ale.getScreenGrayscale().tobytes()).hexdigest()[:16],
        }
        if with_ram:
            entry["ram"] = ale.getRAM().tobytes().hex()
        return entry

    env.reset(seed=seed)
    fold()
    n = env.action_space.n
    policy = np.random.default_rng(seed)
    actions, rewards, ends = [], [], []
    lives = [[0, 0, ale.lives()]]

    def note_lives(step, phase):
        if ale.lives() != lives[-1][2]:
            lives.append([step, phase, ale.lives()])

    checkpoints = [checkpoint(0, True)]
    action, hold = 0, 0
    for step in range(1, steps + 1):
        if step == reseed_step:
            env.reset(seed=reseed)
            fold()
            note_lives(step, 0)
        if hold == 0:
            action = int(policy.integers(n))
            hold = int(policy.integers(1, 9))
        hold -= 1
        _, reward, terminated, truncated, info = env.step(action)
        actions.append(action)
        if reward != 0:
            rewards.append([step, reward])
        note_lives(step, 1)
        fold()
        if terminated or truncated:
            ends.append([step, bool(terminated), bool(truncated)])
            env.reset()
            fold()
            note_lives(step, 2)
        if step % CHECKPOINT == 0 or step == steps:
            checkpoints.append(checkpoint(step, step % RAM_EVERY == 0 or step == steps))
    env.close()
    return {
        "seed": seed,
        "kwargs": trace["kwargs"],
        "steps": steps,
        "reseed": [reseed_step, reseed],
        "actions": "".join("0123456789abcdefgh"[a] for a in actions),
        "rewards": rewards,
        "lives": lives,
        "ends": ends,
        "checkpoints": checkpoints,
    }


def main():
    gym.register_envs(ale_py)
    games = sys.argv[1:] or GAMES
    for game in games:
        data = {
            "generator": "tests/golden/atari/generate.py",
            "env": f"ALE/{game}-v5",
            "ale_py": ale_py.__version__,
            "game": game,
            "checkpoint_every": CHECKPOINT,
            "traces": [record(game, t) for t in TRACES],
        }
        path = os.path.join(OUT_DIR, f"{game}.json.gz")
        raw = json.dumps(data, separators=(",", ":")).encode()
        with open(path, "wb") as f:
            # mtime=0 keeps the file byte-identical across runs.
            f.write(gzip.compress(raw, compresslevel=9, mtime=0))
        print(f"{game}: {os.path.getsize(path)} bytes", flush=True)


if __name__ == "__main__":
    main()
