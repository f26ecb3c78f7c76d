#!/usr/bin/env python3
"""GameVerse's memory agent on Maze, 2048 and Snake, from the reference code: every request.

The reference is the public GameVerse repository (THUSI-Lab/GameVerse) at commit 7cbb423.
Its own memory agent (`agent_client.base_agent.BaselineAgent`, agent type `memory_agent`:
`history_review_reasoning`, `long_term_memory_retrieval`, `action_inference_with_memory`,
`update_short_term_history`, with `agent_servers.memory.GenericMemory`) plays each game in
the loop of conversation.py (whose harness this imports) against a scripted model.
Ours are the stand-ins around it, as in conversation.py, plus two:
- the reference ships memory-agent templates only for its closed games, so Playbench's
  templates for Maze, 2048 and Snake (envs/src/gameverse/<game>/prompts/memory_*.txt) are
  dropped into a prompt package at run time as its template modules;
- the vector store (Chroma over an embedding endpoint) is replaced by LexicalStore, the
  Python twin of Playbench's lexical distance (bench/src/protocol/gameverse/memory/
  lexical.rs): a text is the counts of its ASCII-alphanumeric words, lower-cased, and the
  distance of two texts is 2 - 2*cos of those counts (Chroma's squared L2 between unit
  vectors), brute force over the stored texts, ties oldest first. The agent's own code
  applies the thresholds (0.4 retrieval, 0.8 duplicate) and top-k = min(3, stored).
Each observation's text is the game's own `obs.to_text()`; its screenshot is a marker
naming the step (`step N`: after N actions). Snake is stepped as conversation.py steps it
(discrete mode, the key pressed and the game's events processed); its observation is the
reference's `SnakeObs` with the number of steps taken, as its `step` makes it.

Set up as generate.py says, then from the repository root:
    SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy .cache/venv-gameverse/bin/python \
        tests/golden/gameverse/memory_conversation.py .cache/gameverse-ref

Output: memory_conversation.json.gz: per run the environment id, kwargs, seed, step cap,
the script, and per step every request of the step in order (as conversation.py writes
one), the text handed to the game, its state after it and the long-term memories stored
after the step. Replayed by tests/tests/gameverse_memory_conversation.rs.
"""
import gzip
import json
import math
import os
import sys
import tempfile
import types
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, HERE)

import conversation as cv  # noqa: E402  (sets up the reference and the stand-ins)
import agent_servers.memory as reference_memory  # noqa: E402
from game_servers.snake.game.snake_env import SnakeObs  # noqa: E402


def words(text):
    out, cur = [], []
    for ch in text:
        if ch.isascii() and ch.isalnum():
            cur.append(ch.lower())
        elif cur:
            out.append("".join(cur))
            cur = []
    if cur:
        out.append("".join(cur))
    return Counter(out)


def distance(a, b):
    norms = float(sum(v * v for v in a.values())) * float(sum(v * v for v in b.values()))
    if norms == 0.0:
        return 2.0
    dot = sum(c * b[w] for w, c in a.items() if w in b)
    return 2.0 - 2.0 * (float(dot) / math.sqrt(norms))


class LexicalStore:
    """Chroma's part in GenericMemory: add_texts, similarity_search_with_score, count."""

    def __init__(self, *a, **k):
        self.texts = []
        self._collection = types.SimpleNamespace(count=lambda: len(self.texts))

    def add_texts(self, texts, ids=None, metadatas=None):
        self.texts.extend(texts)

    def similarity_search_with_score(self, query, k=4):
        q = words(query)
        scored = [(types.SimpleNamespace(page_content=t), distance(q, words(t))) for t in self.texts]
        scored.sort(key=lambda p: p[1])  # stable: ties oldest first
        return scored[:k]


reference_memory.Chroma = LexicalStore

PROMPT_ROOT = tempfile.mkdtemp(prefix="gv-memory-prompts-")
sys.path.insert(0, PROMPT_ROOT)
FILES = {"history_review_reasoning_system": "memory_review_system",
         "history_review_reasoning_user": "memory_review_user",
         "action_inference_with_memory_system": "memory_action_system",
         "action_inference_with_memory_user": "memory_action_user"}
GAME_DIRS = {"GameVerse/Maze": "maze", "GameVerse/2048": "twenty_forty_eight", "GameVerse/Snake": "snake"}


def prompt_package(game):
    pkg = os.path.join(PROMPT_ROOT, "pbmemory", game)
    os.makedirs(pkg, exist_ok=True)
    for d in (os.path.dirname(pkg), pkg):
        open(os.path.join(d, "__init__.py"), "w").close()
    for module, name in FILES.items():
        with open(os.path.join(ROOT, "envs", "src", "gameverse", game, "prompts", f"{name}.txt"), encoding="utf-8") as f:
            text = f.read()
        with open(os.path.join(pkg, f"{module}.py"), "w", encoding="utf-8") as f:
            f.write(f"PROMPT = {text!r}\n")
    return f"pbmemory.{game}"


def make_agent(game, replies):
    llm = cv.ScriptedLLM(replies)
    cv.base_agent.load_model = lambda *a, **k: {
        "model_name": "scripted", "ctx_manager": types.SimpleNamespace(total_cost=0.0),
        "llm": llm, "tokenizer": None}
    cfg = {"llm_name": "scripted", "agent_type": "memory_agent", "prompt_path": prompt_package(game),
           "log_path": tempfile.mkdtemp(prefix="gv-memory-")}
    return cv.base_agent.BaselineAgent(cfg), llm


def run(name, env_id, seed, cap, replies):
    game = cv.Game(env_id, {}, seed)
    agent, llm = make_agent(GAME_DIRS[env_id], replies)
    runner = cv.BaseRunner({"max_steps": cap})
    runner.set_env(game.env)
    runner.set_agent(agent)
    snake = env_id == "GameVerse/Snake"
    obs = None if snake else game.env.initial_obs()
    steps = []
    for i in range(cap):
        if not llm.replies:
            break
        before = len(llm.requests)
        text_obs = SnakeObs(image=None, step_count=i).to_text() if snake else obs.to_text()
        shown = types.SimpleNamespace(image=cv.Shot(i), to_text=lambda t=text_obs: t)
        text = agent(shown, game.env.get_game_info())
        if snake:
            game.play(text)
        else:
            action = game.env.parse_action(text)
            obs, _r, terminated, truncated, _info = game.env.step(action)
            _score, done = game.env.evaluate(obs)
            game.over = bool(terminated or truncated or done)
        steps.append({"requests": [cv.request_form(m) for m in llm.requests[before:]], "text": text,
                      "observation": text_obs, "state": game.state(), "terminated": game.over,
                      "memories": list(agent.memory.vectordb.texts)})
        if game.over:
            break
    print(name, "replies left:", len(llm.replies), "over:", game.over)
    return {"name": name, "env": env_id, "kwargs": {}, "seed": seed, "max_steps": cap,
            "script": replies, "steps": steps}


def review(summary, reasoning, plan="Keep going."):
    out = ""
    if summary is not None:
        out += f"### History_summary\n{summary}\n"
    if reasoning is not None:
        out += f"### Reasoning\n{reasoning}\n"
    if plan is not None:
        out += f"### Plan\n{plan}\n"
    return out


def act(action, memory="None", save="No", reasoning="From the screenshot."):
    return f"### Reasoning\n{reasoning}\n### Actions\n{action}\n### New_memory\n{memory}\n### Should_save\n{save}"


# Memories by theme; a summary and reasoning on a theme make a query that hits it.
WALL = "wall blocks the corridor left of the start"
WALL_AGAIN = "The corridor left of the start: wall blocks the"
GOAL = "target flag sits near the bottom right corner"
LOOP = "moving up then down loops without progress"
EDGE = "east edge has an open column going down"

MAZE = [
    act("down", WALL, "Yes"),                                   # 1: saved
    review(f"{WALL}. {WALL}.", f"{WALL}."),                     # 2: retrieval hits WALL
    act("down", WALL_AGAIN, "yes"),                             # 2: duplicate, skipped
    review("Summary {with braces}.", "Unrelated thoughts entirely.", None),  # 3: miss, no plan
    act("right", GOAL, "TRUE"),                                 # 3: saved
    review(None, f"{GOAL} {GOAL}"),                             # 4: no summary; hits GOAL
    "### Reasoning\nNo headers for the action.\n",              # 4: no Actions: the history dump
    review(f"{LOOP} {LOOP}", f"{LOOP}"),                        # 5: miss (nothing on loops)
    act("**Right** {x}", LOOP, "1"),                            # 5: saved
    review("Back on track.", "Plan the path.", "Go right."),    # 6
    act("right", "None", "Yes"),                                # 6: "None" is not saved
    review(f"{EDGE} {EDGE}", f"{EDGE}"),                        # 7
    act("### Actions: down", EDGE, "Yes"),                      # 7: the header line's text dropped
    review(f"{EDGE} {EDGE}", f"{EDGE} {EDGE}"),                 # 8: hits EDGE among 4 stored
    act("down", "", "Yes"),                                     # 8: empty memory
    review(f"{WALL} {GOAL}", "mixed"),                          # 9: two themes, both near
    act("up", "The ball is stuck {again}", "No"),               # 9: not saved
    review("s", "r", "p"),                                      # 10
    act("left"),
] + [reply for k in range(11, 21) for reply in (
    review(f"Step {k}: {LOOP}" if k % 2 else f"Step {k}.", f"{WALL} {WALL}" if k % 3 == 0 else "Look again."),
    act(["up", "down", "left", "right"][k % 4], f"Lesson {k}: {EDGE} near row {k}", "yes" if k % 3 else "no"),
)]

MERGE = "keep the largest tile in the top left corner"
MERGE_AGAIN = "Largest tile: keep in the corner top left the"
IGNORED = "pressing up on a full top row changes nothing"
CHAIN = "build a chain of fours along the left column"
SCORE = "score grows fastest when merging pairs early"

T2048 = [
    act("left", MERGE, "Yes"),
    review(f"{MERGE} {MERGE}", MERGE),
    act("up", MERGE_AGAIN, "Yes"),
    review("Board is filling {fast}.", "Think about rows."),
    act("left", IGNORED, "Yes"),
    review(f"{IGNORED} {IGNORED}", IGNORED, "Avoid up."),
    act("### Actions: left", CHAIN, "yes"),
    review(f"{CHAIN}", f"{CHAIN} {CHAIN}"),
    "just words, no headers",
    review(f"{SCORE} {SCORE}", SCORE),
    act("down", SCORE, "true"),
    review(f"{SCORE} {MERGE}", f"{MERGE} {MERGE} {MERGE}"),
    act("right", "Nothing new", "No"),
    review("", "", ""),
    act("left", "NONE", "yes"),
    review(f"{CHAIN} {CHAIN} {CHAIN}", CHAIN),
    act("up"),
    review("end", "end"),
    act("down"),
]

FOOD = "food appears along the top row and lasts a few turns"
TRAP = "turning down next to the body nearly trapped the snake"

SNAKE = [
    act("L", FOOD, "Yes"),
    review(f"{FOOD} {FOOD}", FOOD),
    act("U", "Food appears along the top row, lasts a few turns", "yes"),
    review("Heading up {fast}.", "Plan the turn."),
    act("U\nU", TRAP, "Yes"),
    review(f"{TRAP}", f"{TRAP} {TRAP}", None),
    "### Reasoning\nNo move given.",
    review("s", "r", "p"),
    act("R"),
    review(f"{FOOD} {TRAP}", "mixed"),
    act("### Actions: D"),
    review("", "", ""),
    act("**R**", "none", "yes"),
    review(f"{FOOD} {FOOD} {FOOD}", FOOD),
    act("D"),
    review("end", "end"),
    act("Wait"),
]

RUNS = [
    ("maze_memory", "GameVerse/Maze", 1, 20, MAZE),
    ("2048_memory", "GameVerse/2048", 1, 1000, T2048),
    ("snake_memory", "GameVerse/Snake", 42, 100, SNAKE),
]


def main():
    runs = [run(*r) for r in RUNS]
    data = {"commit": cv.gv.PINNED_COMMIT, "runs": runs}
    raw = json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()
    path = os.path.join(HERE, "memory_conversation.json.gz")
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        f.write(raw)
    for r in runs:
        print(r["name"], len(r["steps"]), "steps", sum(len(s["requests"]) for s in r["steps"]), "requests",
              "memories", r["steps"][-1]["memories"])
        for i, s in enumerate(r["steps"]):
            print("  ", i, repr(s["text"][:80]), "| retrieved:",
                  [p["text"].split("### Retrieved Long-term Memory\n")[1][:60] for q in s["requests"] for p in q["user"]
                   if "text" in p and "### Retrieved Long-term Memory\n" in p["text"]])
    print(f"memory_conversation.json.gz: {len(raw)} bytes JSON, {os.path.getsize(path)} gz")


if __name__ == "__main__":
    main()
