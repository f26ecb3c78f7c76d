#!/usr/bin/env python3
"""GameVerse's two reflection requests and its experience cuts, from the reference code.

The reference is the public GameVerse repository (THUSI-Lab/GameVerse) at commit 7cbb423.
This script loads its reflection module (`src/agent_servers/video_reflection.py`) and
reflection store (`src/agent_servers/reflection_manager.py`) from a checkout of that commit;
nothing of them is copied here. A stub model records each request and answers with a
scripted reply; the path is the one for models that take images only (the module's
`gpt4o` type). Frames are plain coloured pictures: only their number and order matter.

Set up (pinned versions):
    python3 -m venv .cache/venv-reflect
    .cache/venv-reflect/bin/pip install pillow==11.3.0 numpy==2.2.6 imageio==2.37.0 \
        imageio-ffmpeg==0.6.0
    mkdir -p .cache/gameverse-ref && git -C <GameVerse repo> archive 7cbb423 src \
        | tar -x -C .cache/gameverse-ref
Run (from the repository root):
    .cache/venv-reflect/bin/python tests/golden/gameverse/reflection.py .cache/gameverse-ref

Writes tests/golden/gameverse/reflection.json.gz: for each case the messages as sent (system
text; user items in order, text verbatim, an image as {"image": n} where n is the frame's
number in its video), the reply, what the module returned, and what the store saved.
"""

import gzip
import importlib.util
import json
import os
import sys
import tempfile

import imageio
import numpy as np
from PIL import Image

REF = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("GAMEVERSE_REF", "")
HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, rel):
    spec = importlib.util.spec_from_file_location(name, os.path.join(REF, rel))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


reflection = load("video_reflection", "src/agent_servers/video_reflection.py")
manager_module = load("reflection_manager", "src/agent_servers/reflection_manager.py")


def frame(n):
    """A 64×64 picture showing n in binary as eight black or white stripes (lossy video
    keeps them apart), so the order frames were sent in can be read back."""
    img = np.zeros((64, 64, 3), dtype=np.uint8)
    for bit in range(8):
        if n >> bit & 1:
            img[:, bit * 8:(bit + 1) * 8] = 255
    return img


def frame_number(data_url):
    import base64
    from io import BytesIO

    img = Image.open(BytesIO(base64.b64decode(data_url.split(",", 1)[1]))).convert("L")
    return sum(1 << bit for bit in range(8) if img.getpixel((bit * 8 + 4, 32)) > 128)


class StubModel:
    """Records the messages of each call and answers with the next scripted reply."""

    def __init__(self, replies):
        self.replies = list(replies)
        self.calls = []

    def __call__(self, messages):
        sent = []
        for m in messages:
            if isinstance(m["content"], str):
                sent.append({"role": m["role"], "text": m["content"]})
                continue
            items = []
            for item in m["content"]:
                if item["type"] == "text":
                    items.append({"text": item["text"]})
                else:
                    items.append({"image": frame_number(item["image_url"]["url"])})
            sent.append({"role": m["role"], "items": items})
        self.calls.append(sent)
        return self.replies.pop(0)


def long_reply(words, sep):
    return sep.join(f"tip{i}" for i in range(words))


def case(name, failure_frames, expert_frames, expert_fps, replies, with_expert=True):
    tmp = tempfile.mkdtemp()
    obs = os.path.join(tmp, "obs_images")
    os.makedirs(obs)
    # The runner names step screenshots step_1.png, step_2.png, … (unpadded).
    for i in range(failure_frames):
        Image.fromarray(frame(i)).save(os.path.join(obs, f"step_{i + 1}.png"))
    expert = None
    if with_expert:
        expert = os.path.join(tmp, "expert.mp4")
        writer = imageio.get_writer(expert, fps=expert_fps, codec="libx264", quality=10,
                                    macro_block_size=16)
        for i in range(expert_frames):
            writer.append_data(frame(i))
        writer.close()
    model = StubModel(replies)
    returned = reflection.reflect_from_videos(
        llm=model,
        model_name="gpt-4o-mini",
        game_name="Maze",
        failure_video_path=None,
        expert_video_path=expert,
        obs_images_dir=obs,
        max_length=1000,
    )
    store = manager_module.ReflectionManager(base_path=os.path.join(tmp, "reflections"))
    store.save_reflection(game_name="Maze", reflection_text=returned, max_length=1000)
    loaded, _ = store.load_reflection(game_name="Maze")
    return {
        "name": name,
        "failure_frames": failure_frames,
        "expert_frames": expert_frames if with_expert else 0,
        "expert_fps": expert_fps,
        "calls": model.calls,
        "replies": replies,
        "returned": returned,
        "experience": loaded,
    }


def expert_frame_numbers(call):
    return [item["image"] for item in call[1]["items"] if "image" in item]


def main():
    if not REF:
        sys.exit("usage: reflection.py <GameVerse checkout at 7cbb423>")
    cases = [
        case("both", 12, 9, 0.5, ["  - Pressed up into the wall.\n", "Go down first.\nThen right.\n"]),
        case("long experience", 3, 4, 0.5, ["- Walls.", long_reply(1200, "\n")]),
        case("short experience", 3, 4, 0.5, ["- Walls.", " " + long_reply(1000, " ") + " "]),
        case("failure only", 21, 0, 0.5, ["\n" + long_reply(1005, "  ") + "\n"], with_expert=False),
        case("expert at 2 fps", 2, 10, 2.0, ["- A.", "B."]),
    ]
    text = json.dumps({"reference": "THUSI-Lab/GameVerse@7cbb423", "cases": cases},
                      ensure_ascii=False, separators=(",", ":"))
    out = os.path.join(HERE, "reflection.json.gz")
    with open(out, "wb") as f:
        # mtime 0: regenerating gives the same bytes.
        with gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as gz:
            gz.write(text.encode("utf-8"))
    for c in cases:
        print(c["name"], [len(call[1]["items"]) for call in c["calls"]],
              [expert_frame_numbers(call) for call in c["calls"]][-1][:12])


if __name__ == "__main__":
    main()
