#!/usr/bin/env python3
"""Golden episodes of GameVerse's Tic-Tac-Toe, from the reference code.

The reference is the public GameVerse repository (THUSI-Lab/GameVerse) at commit 7cbb423
("Update README.md"). This script imports its Tic-Tac-Toe environment from a checkout of
that commit; nothing of it is copied here. Our harness builds the environment as the
benchmark does (minimax opponent, semantic actions), hands it action texts (what a model
writes under `### Actions`: cells in every accepted form, occupied cells, unreadable
text) and records what the reference makes of them.

Set up (pinned versions):
    python3 -m venv .cache/venv-gameverse
    .cache/venv-gameverse/bin/pip install numpy==2.2.6 pillow==11.3.0 omegaconf==2.3.0 \
        gymnasium==1.1.1
    mkdir -p .cache/gameverse-ref && git -C <GameVerse repository> archive 7cbb423 src \
        | tar -x -C .cache/gameverse-ref
Run (from the repository root):
    .cache/venv-gameverse/bin/python tests/golden/gameverse/tic_tac_toe.py .cache/gameverse-ref
(or set GAMEVERSE_REF to the checkout).

Output: tic_tac_toe.json.gz, in the generic golden format `playbench-golden/1` (see
`docs/golden-data.md`): per episode the kwargs, the state after reset and, per step, the
action text, the driver's state (`board`, `agent_mark`, `result`, `agent_marks`), the
reward (the change of the reference's `evaluate()` score) and the flags.
"""
import gzip
import json
import logging
import os
import random
import sys
import tempfile
import types

HERE = os.path.dirname(os.path.abspath(__file__))
PINNED_COMMIT = "7cbb423"
ENV_ID = "GameVerse/TicTacToe"
STEP_CAP = 20  # GameVerse's runner cap for Tic-Tac-Toe

REF = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("GAMEVERSE_REF")
if not REF:
    sys.exit("usage: tic_tac_toe.py <GameVerse checkout at 7cbb423>")
sys.path.insert(0, os.path.join(os.path.abspath(REF), "src"))

# The reference shows a tkinter window beside the game; it changes no state.
_ui = types.ModuleType("game_servers.tic_tac_toe.game.tic_tac_toe_ui")
_ui.TicTacToeUIManager = None
_ui.TicTacToeUI = None
sys.modules["game_servers.tic_tac_toe.game.tic_tac_toe_ui"] = _ui
from PIL import Image  # noqa: E402

Image.Image.save = lambda self, *a, **k: None  # the env saves every screenshot

import game_servers.tic_tac_toe.game.tic_tac_toe_env as ttt  # noqa: E402


class NoUI:
    def __init__(self, *a, **k):
        raise RuntimeError("no window here")


ttt.TicTacToeUIManager = NoUI


def make(mark):
    log = tempfile.mkdtemp(prefix="ttt-golden-")
    return ttt.TicTacToeEnv(
        {"task": "golden", "log_path": log, "ai_opponent": "minimax",
         "player_mark": mark, "action_mode": "semantic"}
    )


def state(env):
    g = env.game
    board = [c if c in ("X", "O") else "" for c in g.board]
    if g.is_finished:
        result = "win" if g.winner == env.player_mark else (
            "loss" if g.winner == env.ai_mark else "draw")
    else:
        result = "ongoing"
    return {"board": board, "agent_mark": env.player_mark, "result": result,
            "agent_marks": sum(1 for c in g.board if c == env.player_mark)}


def cell_text(rng, i):
    """One of the ways a model may name cell i (0-8)."""
    r, c = divmod(i, 3)
    name = "ABC"[r] + "123"[c]
    return rng.choice([
        name, name.lower(), f"I will play {name}.", f"### Actions\n{name}",
        f"({r}, {c})", f"({r},{c})", str(i + 1), f"cell {i + 1} please",
        f"{name} (not {'ABC'[(r + 1) % 3]}{c + 1}!)",
    ])


def bad_text(rng):
    return rng.choice([
        "", "pass", "D4", "(3, 3)", "(0, 5) maybe", "ten", "A4 B0", "0", "x5y",
        "I am not sure.", "( 1,1)", "C22", "row b column 3",
    ])


def episode(rng, mark, style):
    env = make(mark)
    env.initial_obs()
    ep = {"kwargs": {"player_mark": mark}, "seed": None, "reset": state(env), "steps": []}
    before = 0.0
    for n in range(1, STEP_CAP + 1):
        free = [i for i, c in enumerate(env.game.board) if c not in ("X", "O")]
        taken = [i for i, c in enumerate(env.game.board) if c in ("X", "O")]
        roll = rng.random()
        if style == "expert" and roll < 0.9:
            # The reference's own minimax, playing the agent's side, makes drawn games.
            best = ttt.MinimaxAI(bot=env.player_mark, opponent=env.ai_mark).find_best_move(env.game)
            text = cell_text(rng, best) if best is not None else bad_text(rng)
        elif style in ("careful", "expert") or roll < 0.8 or not (taken or style == "sloppy"):
            text = cell_text(rng, rng.choice(free)) if free else bad_text(rng)
        elif taken and roll < 0.9:
            text = cell_text(rng, rng.choice(taken))
        else:
            text = bad_text(rng)
        obs, _r, terminated, _t, _i = env.step(env.parse_action(text))
        score, _done = env.evaluate(obs)
        ep["steps"].append({"action": text, "state": state(env), "reward": score - before,
                            "terminated": bool(terminated), "truncated": n == STEP_CAP and not terminated})
        before = score
        if terminated:
            break
    return ep


def main():
    logging.disable(logging.CRITICAL)
    rng = random.Random(20261201)
    episodes = []
    for mark in ("X", "O"):
        for style in ("expert", "careful", "mixed", "sloppy"):
            for _ in range(40):
                episodes.append(episode(rng, mark, style))
    doc = {"format": "playbench-golden/1", "generator": "tests/golden/gameverse/tic_tac_toe.py",
           "reference": {"repository": "THUSI-Lab/GameVerse", "commit": PINNED_COMMIT},
           "env": ENV_ID, "episodes": episodes}
    path = os.path.join(HERE, "tic_tac_toe.json.gz")
    raw = json.dumps(doc, separators=(",", ":"), sort_keys=True).encode()
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        f.write(raw)
    ends = {}
    for e in episodes:
        r = e["steps"][-1]["state"]["result"]
        ends[r] = ends.get(r, 0) + 1
    print(f"{path}: {len(episodes)} episodes, {sum(len(e['steps']) for e in episodes)} steps, "
          f"{ends}, {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
