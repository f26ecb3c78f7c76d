#!/usr/bin/env node
// Browser half of the MuJoCo evaluation (docs/physics-engine.md).
//
//   node scripts/mujoco-eval/browser.mjs [--task reach|pick] [--runs 2] [--repeats 3] [--no-node]
//                                        [--usethread-false] [--native FILE] [--out FILE]
//                                        [--package @mujoco/mujoco@3.14.0]
//
// Run from the repository root. Installs the npm package (@mujoco/mujoco) into
// .cache/mujoco-npm when missing, runs native.py first when its JSON (.cache/mujoco-eval/native-<task>.json)
// is missing, serves the wasm module, the gymnasium-robotics Fetch assets and the recorded
// episode from a local static server, replays the episode in headless Chromium (a fresh
// profile per run) and, unless --no-node, under Node with the same module, and compares
// every step's qpos+qvel with the native MuJoCo run. Prints a JSON summary and writes
// .cache/mujoco-eval/browser-<task>.json.
//
// --usethread-false adds usethread="false" to the top-level MJCF's <compiler> element when
// it is written into the module's virtual filesystem: the unscoped `mujoco@3.1.16` build
// cannot compile the Fetch MJCF in Chromium without it (it tries to start a thread pool);
// @mujoco/mujoco@3.14.0 loads the MJCF as shipped.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
// The official package (the MuJoCo repository's wasm/README names it), same release as
// native.py's PyPI mujoco. --package mujoco@3.1.16 measures the unscoped `mujoco` package.
const PACKAGE = opt('package', '@mujoco/mujoco@3.14.0');
const at = PACKAGE.lastIndexOf('@');
const NPM_NAME = PACKAGE.slice(0, at);
const NPM_VERSION = PACKAGE.slice(at + 1);
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const npmDir = path.join(root, '.cache', 'mujoco-npm');
const pkgDir = path.join(npmDir, 'node_modules', ...NPM_NAME.split('/'));
const outDir = path.join(root, '.cache', 'mujoco-eval');
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
let task = opt('task', 'reach');
// --native FILE: compare with that native.py output instead of native-<task>.json
const runs = Number(opt('runs', 2));
const repeats = Number(opt('repeats', 3));
const withNode = !args.includes('--no-node');
const log = (m) => process.stderr.write(`[browser] ${m}\n`);

function ensureNpmPackage() {
  const pj = path.join(pkgDir, 'package.json');
  if (fs.existsSync(pj) && JSON.parse(fs.readFileSync(pj, 'utf8')).version === NPM_VERSION) return;
  log(`installing npm ${PACKAGE} into .cache/mujoco-npm`);
  fs.mkdirSync(npmDir, { recursive: true });
  execFileSync('npm', ['install', '--prefix', npmDir, '--no-audit', '--no-fund', '--loglevel=error',
    PACKAGE], { stdio: 'inherit' });
}

function ensureNative() {
  const given = opt('native');
  if (given) return JSON.parse(fs.readFileSync(path.resolve(given), 'utf8'));
  const file = path.join(outDir, `native-${task}.json`);
  if (!fs.existsSync(file)) {
    log(`no ${path.relative(root, file)}: running native.py first`);
    execFileSync('python3', [path.join(here, 'native.py'), '--task', task], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

async function loadPlaywright() {
  try {
    return (await import('playwright-core')).chromium;
  } catch {
    log('playwright-core missing: npm ci (scripts/tools.sh ensure_node_modules)');
    execFileSync('bash', ['-c', `source "${root}/scripts/tools.sh" && ensure_node_modules`], { stdio: 'inherit' });
    return (await import('playwright-core')).chromium;
  }
}

function sizes() {
  const out = {};
  for (const rel of ['mujoco.wasm', 'mujoco.js', 'mujoco.d.ts']) {
    const buf = fs.readFileSync(path.join(pkgDir, rel));
    out[rel] = {
      raw: buf.length,
      gzip9: zlib.gzipSync(buf, { level: 9 }).length,
      brotli: zlib.brotliCompressSync(buf).length,
    };
  }
  return out;
}

function assetSizes(native) {
  let raw = 0;
  let gzip = 0;
  for (const rel of native.asset_files) {
    const buf = fs.readFileSync(path.join(native.assets_dir, rel));
    raw += buf.length;
    gzip += zlib.gzipSync(buf, { level: 9 }).length;
  }
  return { files: native.asset_files.length, raw, gzip9: gzip };
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.json': 'application/json' };

function serve(native, input) {
  const routes = (url) => {
    if (url === '/' || url === '/index.html') return path.join(here, 'page.html');
    if (url === '/episode.mjs') return path.join(here, 'episode.mjs');
    if (url.startsWith('/mujoco/')) return path.join(pkgDir, url.slice('/mujoco/'.length));
    if (url.startsWith('/assets/')) return path.join(native.assets_dir, decodeURIComponent(url.slice('/assets/'.length)));
    return null;
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x').pathname;
    if (url === '/input.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      return res.end(input);
    }
    const file = routes(url);
    if (!file || file.includes('..') || !fs.existsSync(file)) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function chromiumRun(chromium, base) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'mujoco-eval-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const t0 = Date.now();
    await page.goto(`${base}/index.html`);
    await page.waitForFunction(() => window.evalResult !== undefined, null, { timeout: 600_000 });
    const result = await page.evaluate(() => window.evalResult);
    result.page_total_ms = Date.now() - t0;
    result.browser = context.browser()?.version() ?? (await page.evaluate(() => navigator.userAgent));
    if (errors.length) result.page_errors = errors;
    return result;
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

async function nodeRun(native, input) {
  const { runEpisode } = await import(pathToFileURL(path.join(here, 'episode.mjs')).href);
  // A fresh module instance per run: import the factory under a distinct query string.
  const mod = await import(`${pathToFileURL(path.join(pkgDir, 'mujoco.js')).href}?run=${Math.random()}`);
  const readAsset = async (rel) => new Uint8Array(fs.readFileSync(path.join(native.assets_dir, rel)));
  const result = await runEpisode({ createModule: mod.default, readAsset, input: JSON.parse(input), repeats });
  result.node = process.version;
  return result;
}

function compare(reference, run) {
  const n = Math.min(reference.direct_hashes.length, run.hashes.length);
  let first = null;
  let maxAll = 0;
  for (let i = 0; i < n; i++) {
    if (first === null && reference.direct_hashes[i] !== run.hashes[i]) first = i;
    const a = reference.direct_states[i];
    const b = run.states[i];
    for (let k = 0; k < a.length; k++) maxAll = Math.max(maxAll, Math.abs(a[k] - b[k]));
  }
  const a = reference.direct_states[n - 1];
  const b = run.states[n - 1];
  let maxFinal = 0;
  for (let k = 0; k < a.length; k++) maxFinal = Math.max(maxFinal, Math.abs(a[k] - b[k]));
  const qacc = reference.reset_qacc && run.reset_qacc
    ? Math.max(...reference.reset_qacc.map((x, k) => Math.abs(x - run.reset_qacc[k]))) : null;
  return {
    reset_qacc_max_abs_diff: qacc, // after one mj_forward on the same state
    steps_compared: n,
    identical: first === null && n === reference.direct_hashes.length,
    first_divergent_step: first, // 0-based env step index
    max_abs_diff_final: maxFinal,
    max_abs_diff_any_step: maxAll,
  };
}

function fingerprintDiff(a, b) {
  return Object.keys(a).filter((k) => a[k] !== b[k]);
}

ensureNpmPackage();
const native = ensureNative();
task = native.task;
const input = JSON.stringify({
  xml: native.xml, asset_files: native.asset_files, init: native.init, actions: native.actions,
  n_substeps: native.n_substeps, block_gripper: native.block_gripper, repeats,
  compiler_usethread_false: args.includes('--usethread-false'),
});
const out = {
  task,
  npm_package: `${NPM_NAME}@${JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version}`,
  native_versions: native.versions,
  load_size: sizes(),
  fetch_assets: assetSizes(native),
  chromium: [],
  node: [],
};
const server = await serve(native, input);
const base = `http://127.0.0.1:${server.address().port}`;
try {
  const chromium = await loadPlaywright();
  for (let r = 0; r < runs; r++) {
    log(`chromium run ${r + 1}/${runs}`);
    out.chromium.push(await chromiumRun(chromium, base));
  }
  if (withNode) {
    for (let r = 0; r < runs; r++) {
      log(`node run ${r + 1}/${runs}`);
      out.node.push(await nodeRun(native, input));
    }
  }
} finally {
  server.close();
}

const summarize = (res) => res.error ? { error: res.error } : {
  mj_versionString: res.mj_versionString,
  instantiate_ms: res.instantiate_ms,
  write_files_ms: res.write_files_ms,
  load_model_ms: res.load_model_ms,
  page_total_ms: res.page_total_ms,
  timing_runs: res.timing_runs,
  model_fingerprint_differs_from_native: fingerprintDiff(native.model_fingerprint, res.model_fingerprint),
  vs_native: compare(native, res),
};
const summary = {
  task,
  compiler_usethread_false: JSON.parse(input).compiler_usethread_false,
  npm_package: out.npm_package,
  native_mujoco: native.versions.mujoco,
  native_timing_runs: native.timing_runs,
  load_size: out.load_size,
  fetch_assets: out.fetch_assets,
  chromium: out.chromium.map(summarize),
  node: out.node.map(summarize),
};
const ok = (r) => !r.error;
const [c0] = out.chromium.filter(ok);
const [n0] = out.node.filter(ok);
if (c0 && out.chromium.filter(ok).length > 1) {
  summary.chromium_run_vs_run_identical = out.chromium.filter(ok).every((r) => r.hashes.join() === c0.hashes.join());
}
if (c0 && n0) {
  summary.chromium_vs_node_identical = c0.hashes.join() === n0.hashes.join();
}
fs.mkdirSync(outDir, { recursive: true });
const outFile = path.resolve(opt('out', path.join(outDir, `browser-${task}.json`)));
fs.writeFileSync(outFile, JSON.stringify({ ...out, summary }));
log(`wrote ${path.relative(root, outFile)}`);
console.log(JSON.stringify(summary, null, 1));
