#!/usr/bin/env bash
# Runs every check and test: formatting, lints, the no-web-deps rule for envs and bench, native
# unit/golden/driver/CLI tests, the suite regeneration check, the golden and suite tests
# as wasm in headless Chromium, the release app build and the Playwright end-to-end
# tests. Installs missing tools first.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/tools.sh
ensure_test_tools

step() { printf '\n==> %s\n' "$*"; }

step "format"
cargo fmt --all --check
# `cargo fmt` reaches a module only through a plain `mod` item: the environment families,
# declared by envs' `families!` macro, are checked file by file.
git ls-files -z '*.rs' | xargs -0 rustfmt --edition 2021 --check

step "envs and bench have no web dependency in their wasm32 builds"
for crate in playbench-envs playbench-bench; do
  web=$(cargo tree -p "$crate" --target wasm32-unknown-unknown -e normal --prefix none |
    grep -E -o '^(wasm-bindgen|web-sys|js-sys|gloo[a-z-]*|leptos[a-z_-]*) ' | sort -u || true)
  if [[ -n $web ]]; then
    echo "$crate must stay free of web crates, found: $web" >&2
    exit 1
  fi
done

step "lints (native workspace, then the app for wasm32)"
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy -p playbench-app -p playbench-web --target wasm32-unknown-unknown -- -D warnings

step "native tests"
if cargo nextest --version >/dev/null 2>&1; then
  cargo nextest run --workspace --no-fail-fast
else
  cargo test --workspace --no-fail-fast
fi

step "envs without every-family (the app's first-load build) lists every family, makes three"
cargo test -q -p playbench-envs --no-default-features --lib registry

step "the committed suite is exactly what the generator builds"
# In the dev profile the native tests have already built it (a release build of the
# workspace would take minutes; envs and bench are optimised in dev, Cargo.toml).
# The vical suite's Atari tasks play on the ROMs the native tests took from the ale-py
# wheel (tests/src/atari/roms.rs).
cargo run -q --bin playbench -- --roms "${ATARI_ROMS_DIR:-.cache/atari-roms}" suite --check

step "golden, suite and RNG tests as wasm in headless Chromium"
# The runner's default of 20 s per test binary is too short for the suite and golden
# sweeps on a two-core machine. Without debug info the test modules (which embed the
# golden data) shrink from ~90 MB, so Chromium loads them well inside ChromeDriver's
# 30 s wait for the page.
WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-600} CARGO_PROFILE_DEV_DEBUG=false \
  cargo test --target wasm32-unknown-unknown -p playbench-tests --tests

step "release build of the app"
cargo fetch --locked >/dev/null
trunk build --config trunk.toml --release --offline --locked

step "native tools the end-to-end tests call"
# The Breakout test turns a scripted episode into a link with this binary; built here
# with every core, its own `cargo run -j 1` finds it fresh instead of compiling inside
# the test's time limit.
cargo build -q -p playbench-tests --bin atari_episode

step "end-to-end tests in headless Chromium"
# The judge test compares the page with the CLI: the dev build the native tests made
# (its default, `cargo run --release -p playbench-cli`, would compile another build).
target_dir=${CARGO_TARGET_DIR:-target}
[[ $target_dir == /* ]] || target_dir="$PWD/$target_dir"
export PLAYBENCH_BIN="$target_dir/debug/playbench"
# Two files at a time: much of a test is waiting (on real-time play, retries, timeouts),
# so a second Chromium halves the step's wall time on two cores.
node --test --test-concurrency=2 tests/e2e/
