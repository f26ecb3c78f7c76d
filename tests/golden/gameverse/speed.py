#!/usr/bin/env python3
"""Steps and frames per second of GameVerse's own 2048, Maze, Snake and Tic-Tac-Toe, for
`cargo run --release -p playbench-tests --bin bench -- --reference`, which runs this in
the same run as ours.

The reference and its virtual environment are the ones of generate.py in this folder (see
its header: commit 7cbb423, pinned packages). Usage:
    SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy .cache/venv-gameverse/bin/python \
        tests/golden/gameverse/speed.py .cache/gameverse-ref < job.json

The job is the benchmark's: {"seconds": S, "cases": [{"name", "env", "actions"}, ...]},
with `env` a GameVerse id and `actions` the reply texts of our presets for it. Prints a
JSON line of versions, then one per case: {"env": name, "steps_per_s", "frames_per_s"}.

One step is what GameVerse's runner does per reply, minus what only waits or writes
files: `parse_action(text)`, `step(action)` (which renders the window and captures the
observation: the frame is part of every reference step, so its frames are its steps,
timed again) and `evaluate(obs)`; the environments' sleeps (Snake's 30 fps frame limiter
among them), PNG writes and log output are switched off. Snake plays its discrete (Stop)
mode through its key events, as the golden harness does, and captures the window
surface; Tic-Tac-Toe plays X against the minimax opponent, as ours does by default.
Replies are random presets drawn from a seeded generator; a finished game (or one at the
runner's step cap) is replaced outside the timing, where ours resets inside it.
"""
import json
import logging
import os
import random
import sys
import tempfile
import time
import types

REF = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("GAMEVERSE_REF")
if not REF:
    sys.exit("usage: speed.py <GameVerse checkout at 7cbb423> < job.json")
sys.path.insert(0, os.path.join(os.path.abspath(REF), "src"))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

_gui = types.ModuleType("game_servers.GUI.GUI_manager")
_gui.GUIManager = object
sys.modules["game_servers.GUI.GUI_manager"] = _gui
# Tic-Tac-Toe shows a tkinter window beside the game; it changes no state.
_ui = types.ModuleType("game_servers.tic_tac_toe.game.tic_tac_toe_ui")
_ui.TicTacToeUIManager = None
_ui.TicTacToeUI = None
sys.modules["game_servers.tic_tac_toe.game.tic_tac_toe_ui"] = _ui
time.sleep = lambda _s: None
logging.disable(logging.CRITICAL)
from PIL import Image  # noqa: E402

Image.Image.save = lambda self, *a, **k: None

import pygame  # noqa: E402
from game_servers.twenty_fourty_eight.game.twenty_fourty_eight_env import TwentyFourtyEightEnv  # noqa: E402
from game_servers.maze.game.maze_env import MazeEnv  # noqa: E402
from game_servers.snake.game.game import SnakeGame  # noqa: E402
from game_servers.snake.game.snake_env import SnakeEnv  # noqa: E402
import game_servers.tic_tac_toe.game.tic_tac_toe_env as ttt  # noqa: E402

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from speed_job import report  # noqa: E402

TMP = tempfile.mkdtemp(prefix="gameverse-speed-")
clock = time.perf_counter


def rate(new_episode, replies, seconds):
    """Steps per second of random `replies` until `seconds` of stepping have passed."""
    rng = random.Random(0)
    step, done = new_episode(), False
    steps, spent = 0, 0.0
    while spent < seconds:
        if done:
            step, done = new_episode(), False
        text = rng.choice(replies)
        t0 = clock()
        done = step(text)
        spent += clock() - t0
        steps += 1
    return steps / spent


def new_2048():
    env = TwentyFourtyEightEnv({"log_path": os.path.join(TMP, "2048"), "target_tile": 2048, "task": "t", "action_mode": "semantic"})
    env.initial_obs()
    count = [0]

    def step(text):
        obs, *_ = env.step(env.parse_action(text))
        _score, done = env.evaluate(obs)
        count[0] += 1
        return done or env.game.terminated or count[0] >= 1000

    return step


def new_maze():
    env = MazeEnv({"log_path": os.path.join(TMP, "maze"), "task": "t", "action_mode": "semantic", "show_graphic": False, "size": 4})
    env.initial_obs()
    count = [0]

    def step(text):
        obs, _r, terminated, *_ = env.step(env.parse_action(text))
        _score, done = env.evaluate(obs)
        count[0] += 1
        return terminated or done or count[0] >= 20

    return step


def new_snake():
    game = SnakeGame(board_size=9, mode="discrete", seed=42, num_obstacles=0)
    game.start(window_title="Snake Game")
    game.clock = None  # its render waits for a 30 fps frame rate: a sleep too
    env = SnakeEnv.__new__(SnakeEnv)
    env.cfg = types.SimpleNamespace(game_mode="discrete", action_mode="semantic", coor_trans=False)
    env.action_mode = "semantic"
    env.game = game
    count = [0]

    def step(text):
        env._execute_action(env.parse_action(text))
        game.process_events()
        surface = pygame.display.get_surface()
        Image.frombytes("RGB", surface.get_size(), pygame.image.tostring(surface, "RGB"))
        _score, done = env.evaluate(None)
        count[0] += 1
        return done or count[0] >= 100

    return step


def new_tic_tac_toe():
    env = ttt.TicTacToeEnv({"task": "t", "log_path": os.path.join(TMP, "ttt"), "ai_opponent": "minimax",
                            "player_mark": "X", "action_mode": "semantic", "coor_trans": False})
    env.initial_obs()
    count = [0]

    def step(text):
        obs, _r, terminated, *_ = env.step(env.parse_action(text))
        env.evaluate(obs)
        count[0] += 1
        return terminated or count[0] >= 20

    return step


class NoUI:
    def __init__(self, *a, **k):
        raise RuntimeError("no window here")


ttt.TicTacToeUIManager = NoUI
GAMES = {
    "GameVerse/2048": new_2048,
    "GameVerse/Maze": new_maze,
    "GameVerse/Snake": new_snake,
    "GameVerse/TicTacToe": new_tic_tac_toe,
}


def main():
    job = json.load(sys.stdin)
    print(json.dumps({"versions": {"python": sys.version.split()[0], "pygame": pygame.version.ver}}), flush=True)
    def measure(case):
        new_episode, replies = GAMES[case["env"]], case["actions"]
        rate(new_episode, replies, 0.05)  # untimed: first calls load fonts and caches
        return rate(new_episode, replies, job["seconds"]), rate(new_episode, replies, job["seconds"])

    report(job["cases"], measure)

if __name__ == "__main__":
    main()
