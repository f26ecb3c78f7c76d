"""What the benchmark's reference scripts share (`tests/golden/speed.py`,
`tests/golden/visgym/speed.py`, `tests/golden/gameverse/speed.py`): the timing loop and
the report, one JSON line per case, that `cargo run -p playbench-tests --bin bench`
reads."""

import json
import sys
import time


def steps_per_second(step, seconds):
    """Calls `step()` (one step, with whatever reset it needs) until `seconds` have
    passed. The clock is read after every step until 64 steps are known to take well
    under the time given (a highway-env step takes a good part of a second), then
    every 64, as ours does."""
    steps, block = 0, 1
    start = time.perf_counter()
    while True:
        for _ in range(block):
            step()
            steps += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed
        if block == 1 and steps >= 64 and 64 * elapsed / steps < seconds / 8:
            block = 64


def report(cases, measure):
    """Prints {"env": name, "steps_per_s", "frames_per_s"} for each case, `measure(case)`
    giving the two rates; a case that fails is said on standard error and skipped, so
    that one broken case does not hide the others."""
    for case in cases:
        try:
            steps, frames = measure(case)
        except Exception as e:  # noqa: BLE001
            print(f"{case['name']}: {type(e).__name__}: {e}", file=sys.stderr)
            continue
        print(json.dumps({"env": case["name"], "steps_per_s": steps, "frames_per_s": frames}), flush=True)
