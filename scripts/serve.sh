#!/usr/bin/env bash
# Builds the app in release mode and serves it on http://127.0.0.1:8080 (rebuilding on
# changes). Installs missing tools first.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/tools.sh
ensure_build_tools
cargo fetch --locked >/dev/null
exec trunk serve --config trunk.toml --release --offline --locked "$@"
