"""ale-py's side of the Atari speed comparison (`cargo run --release -p playbench-tests
--bin atari_speed`, which runs this with the virtual environment of generate.py):

    .cache/venv-atari/bin/python tests/golden/atari/speed.py SECONDS ROUNDS GAME...

The workloads of tests/src/atari/speed.rs, for each game, best of ROUNDS runs of about
SECONDS each, random actions of the minimal set from the same LCG, sticky actions on,
episode ends reset inside the timed loop:

* emulation: ALE's `act` called directly, one frame per call (no Gymnasium wrapper, so
  almost no Python per frame: this is the C++ core's speed);
* v5: `gym.make("ALE/<Game>-v5")` steps (frame skip 4) with the RGB observation.

Prints one JSON object per line: {"game", "workload", "frames_per_s"}.
"""

import json
import sys
import time

import ale_py
import gymnasium as gym

MASK = (1 << 64) - 1


class Picker:
    def __init__(self, seed):
        self.x = seed

    def next(self, n):
        self.x = (self.x * 6364136223846793005 + 1442695040888963407) & MASK
        return (self.x >> 33) % n


def emulation(game, seconds):
    env = gym.make(f"ALE/{game}-v5", frameskip=1)
    env.reset(seed=1)
    ale = env.unwrapped.ale
    actions = ale.getMinimalActionSet()
    picker = Picker(1)
    frames = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        for _ in range(32):
            ale.act(actions[picker.next(len(actions))])
            frames += 1
            if ale.game_over():
                ale.reset_game()
        elapsed = time.perf_counter() - start
    env.close()
    return frames / elapsed


def v5(game, seconds):
    env = gym.make(f"ALE/{game}-v5")
    env.reset(seed=1)
    n = env.action_space.n
    picker = Picker(1)
    steps = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        for _ in range(32):
            _, _, terminated, truncated, _ = env.step(picker.next(n))
            steps += 1
            if terminated or truncated:
                env.reset()
        elapsed = time.perf_counter() - start
    env.close()
    return 4 * steps / elapsed


def main():
    seconds, rounds = float(sys.argv[1]), int(sys.argv[2])
    gym.register_envs(ale_py)
    for game in sys.argv[3:]:
        for name, run in (("emulation", emulation), ("v5", v5)):
            best = max(run(game, seconds) for _ in range(rounds))
            print(json.dumps({"game": game, "workload": name, "frames_per_s": best}), flush=True)


if __name__ == "__main__":
    main()
