#!/usr/bin/env bash
# Installs what building and testing Playbench needs, skipping whatever is present.
# Pinned versions (see README, "Toolchain"): trunk 0.22
# needs a newer rustc than this machine's, and the wasm-bindgen CLI must equal the
# lockfile's wasm-bindgen crate, so both are pinned here.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TRUNK_VERSION=0.21.14

log() { printf '[tools] %s\n' "$*" >&2; }

lock_version() { # version of a crate in Cargo.lock
  awk -v n="$1" '$0=="name = \""n"\"" {getline; gsub(/version = |"/,""); print; exit}' "$root/Cargo.lock"
}

ensure_wasm_target() {
  rustup target list --installed | grep -qx wasm32-unknown-unknown && return
  log "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
}

ensure_trunk() {
  if trunk --version 2>/dev/null | grep -q " $TRUNK_VERSION"; then return; fi
  log "installing trunk $TRUNK_VERSION (a few minutes, once)"
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    cargo install trunk --version "$TRUNK_VERSION" --locked
}

ensure_wasm_bindgen() {
  local want; want=$(lock_version wasm-bindgen)
  [[ -n $want ]] || { log "wasm-bindgen not in Cargo.lock"; exit 1; }
  if wasm-bindgen --version 2>/dev/null | grep -q " $want\$" &&
     wasm-bindgen-test-runner --version 2>/dev/null | grep -q " $want\$"; then return; fi
  log "installing wasm-bindgen-cli $want (a few minutes, once)"
  # --locked fails for this release (its lockfile wants a yanked webpki-roots).
  cargo install wasm-bindgen-cli --version "$want" --force
}

ensure_chromium() {
  if [[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]]; then return; fi
  log "installing Debian chromium and chromium-driver"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver >/dev/null
}

ensure_node_modules() { # npm binaryen (wasm-opt) and playwright-core, from package-lock.json
  local stamp="$root/node_modules/.lock-stamp"
  if [[ -f $stamp ]] && cmp -s "$stamp" "$root/package-lock.json"; then return; fi
  log "npm ci (binaryen wasm-opt, playwright-core)"
  (cd "$root" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$root/package-lock.json" "$stamp"
}

ensure_build_tools() {
  ensure_wasm_target
  ensure_node_modules
  ensure_wasm_bindgen
  ensure_trunk
}

ensure_pip() { # tests take assets we may not ship from PyPI wheels (pip download)
  if python3 -m pip --version >/dev/null 2>&1; then return; fi
  log "installing Debian python3-pip"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq python3-pip >/dev/null
}

ensure_browser_tools() { # what the wasm tests and `bench`'s browser half need
  ensure_wasm_target
  ensure_wasm_bindgen
  ensure_chromium
}

ensure_test_tools() {
  ensure_build_tools
  ensure_chromium
  ensure_pip
}

tool_env() {
  export PATH="$root/node_modules/.bin:$HOME/.cargo/bin:$PATH"
  export TRUNK_SKIP_VERSION_CHECK=true
  export CHROMEDRIVER=/usr/bin/chromedriver
}
tool_env
