#!/usr/bin/env bash
# Makes the self-signed certificate the scripted endpoint serves HTTP/2 with
# (`scripted-openai.mjs --tls`), for 127.0.0.1, valid 100 years. Test use only: the
# browser in the latency benchmark is told to ignore certificate errors.
set -euo pipefail
cd "$(dirname "$0")"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
  -keyout test-key.pem -out test-cert.pem -days 36500 \
  -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1
