"""Checks Playbench's WebM encoder (`docs/video.md`, "Proof") with an independent
demuxer and decoder: FFmpeg's, through PyAV.

    python3 -m venv .cache/venv-webm && .cache/venv-webm/bin/pip install av==16.0.1
    cargo run -p playbench-tests --bin webm_sample -- .cache/webm-sample
    .cache/venv-webm/bin/python scripts/check_webm.py .cache/webm-sample

For each NAME.webm beside NAME.json and NAME.rgb (the source frames) it checks the
container (WebM), the codec (VP8), the size, the frame count, every frame's timestamp
(i * 1000 / fps ms) and key-frame flag, and the decoded frames against the source: the
luma plane against the source's BT.601 luma (the codec's fidelity, at least 40 dB) and
RGB after FFmpeg's own YUV-to-RGB conversion (which adds 4:2:0's loss of colour detail
on thin coloured lines, at least 30 dB). Prints the figures; exit status 1 on any
failure.
"""

import json
import math
import sys
from pathlib import Path

import av

MIN_LUMA_PSNR_DB = 40.0
MIN_RGB_PSNR_DB = 30.0


def psnr(a: bytes, b: bytes) -> float:
    se = sum((x - y) * (x - y) for x, y in zip(a, b))
    if se == 0:
        return 99.0
    return 10 * math.log10(255 * 255 * len(a) / se)


def rows(plane, width: int, height: int) -> bytes:
    data = bytes(plane)
    return b"".join(data[y * plane.line_size : y * plane.line_size + width] for y in range(height))


def luma(rgb: bytes) -> bytes:
    """BT.601 limited-range luma, the integer formula the encoder uses."""
    return bytes(
        ((66 * rgb[i] + 129 * rgb[i + 1] + 25 * rgb[i + 2] + 128) >> 8) + 16 for i in range(0, len(rgb), 3)
    )


def check(webm: Path) -> list[str]:
    meta = json.loads(webm.with_suffix(".json").read_text())
    source = webm.with_suffix(".rgb").read_bytes()
    w, h, n, fps = meta["width"], meta["height"], meta["frames"], meta["fps"]
    problems = []
    with av.open(str(webm)) as container:
        if "webm" not in container.format.name:
            problems.append(f"container {container.format.name}")
        stream = container.streams.video[0]
        if stream.codec_context.name != "vp8":
            problems.append(f"codec {stream.codec_context.name}")
        if (stream.codec_context.width, stream.codec_context.height) != (w, h):
            problems.append(f"size {stream.codec_context.width}x{stream.codec_context.height}")
        duration_ms = container.duration / 1000 if container.duration else None
        values = []
        lumas = []
        count = 0
        for i, packet in enumerate(p for p in container.demux(stream) if p.size):
            want = round(i * 1000 / fps)
            got = int(packet.pts * packet.time_base * 1000)
            if got != want:
                problems.append(f"frame {i}: at {got} ms, not {want}")
            if not packet.is_keyframe:
                problems.append(f"frame {i}: not a key frame")
            for frame in packet.decode():
                src = source[count * w * h * 3 : (count + 1) * w * h * 3]
                lumas.append(psnr(rows(frame.reformat(format="yuv420p").planes[0], w, h), luma(src)))
                values.append(psnr(rows(frame.reformat(format="rgb24").planes[0], 3 * w, h), src))
                count += 1
        if count != n:
            problems.append(f"{count} frames decoded, {n} written")
        for what, got, least in [("luma", lumas, MIN_LUMA_PSNR_DB), ("RGB", values, MIN_RGB_PSNR_DB)]:
            low = [f"{v:.1f}" for v in got if v < least]
            if low:
                problems.append(f"{what} PSNR under {least} dB: {low}")
        print(
            f"{webm.name}: {container.format.name}, {stream.codec_context.name} {w}x{h}, "
            f"{count} frames at {fps} fps, duration {duration_ms} ms, "
            f"{webm.stat().st_size} bytes, PSNR luma min {min(lumas):.1f} mean "
            f"{sum(lumas) / len(lumas):.1f} dB, RGB min {min(values):.1f} mean "
            f"{sum(values) / len(values):.1f} dB (PyAV {av.__version__})"
        )
    return problems


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    files = sorted(Path(sys.argv[1]).glob("*.webm"))
    if not files:
        print(f"no .webm files in {sys.argv[1]}")
        return 1
    failed = False
    for f in files:
        for p in check(f):
            print(f"  FAIL {f.name}: {p}")
            failed = True
    print("FAILED" if failed else "ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
