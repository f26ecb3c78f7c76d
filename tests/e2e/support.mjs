// Shared pieces of the end-to-end checks: a static server for Trunk's output with the
// single-page-app fallback, and headless Chromium driven by playwright-core.
//
// Environment:
//   PLAYBENCH_DIST   the built site (default: dist/ at the repository root)
//   CHROMIUM_PATH    the Chromium binary (default: /usr/bin/chromium, Debian's package)

import http from 'node:http';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const distDir = path.resolve(process.env.PLAYBENCH_DIST ?? path.join(repoRoot, 'dist'));
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** Fails early, with the command to run, when the site has not been built. */
export async function assertBuilt() {
  try {
    await fs.access(path.join(distDir, 'index.html'));
  } catch {
    throw new Error(
      `no built site at ${distDir}: build it first with ` +
        '`trunk build --config trunk.toml --release` (or set PLAYBENCH_DIST)',
    );
  }
}

/**
 * Serves `root` on a random free port of 127.0.0.1. Paths that name no file get
 * index.html (the app's router handles /play and the rest), like `trunk serve`.
 * With `cache`, the hashed assets may be cached as a static host would let them
 * (the page itself is asked for again each time); without it nothing is cached.
 */
export async function startServer(root = distDir, { cache = false } = {}) {
  const server = http.createServer(async (req, res) => {
    try {
      const { pathname } = new URL(req.url ?? '/', 'http://localhost');
      let file = path.resolve(root, '.' + decodeURIComponent(pathname));
      if (file !== root && !file.startsWith(root + path.sep)) {
        res.writeHead(403).end('forbidden');
        return;
      }
      const stat = await fs.stat(file).catch(() => null);
      if (!stat?.isFile()) {
        // A missing asset (a path with an extension) is a 404; any other path is the app.
        if (path.extname(pathname) !== '') {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
          return;
        }
        file = path.join(root, 'index.html');
      }
      const body = await fs.readFile(file);
      const asset = path.extname(file) !== '.html';
      res.writeHead(200, {
        'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
        'cache-control': cache && asset ? 'public, max-age=31536000, immutable' : 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Headless Chromium with a fresh profile directory, removed again by `close`;
 * `extraArgs` are added to the command line.
 */
export async function launchBrowser(extraArgs = []) {
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'playbench-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      ...extraArgs,
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      await fs.rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A new page that records every console error, uncaught exception and failed request,
 * so a test can require that there were none.
 */
export async function openPage(context) {
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`uncaught exception: ${err.message}`));
  page.on('requestfailed', (req) => {
    // Leaving a page while it downloads one of the app's builds (the home page starts the
    // full app for its previews, docs/app.md "First load") cancels the download, and the
    // JavaScript snippets wasm-bindgen splits out of the full app (app/src/browser/mujoco.rs).
    const { pathname } = new URL(req.url());
    const build =
      /^\/playbench-(app|first)-[0-9a-f]+(_bg\.wasm|\.js)$/.test(pathname) ||
      /^\/snippets\/playbench-app-[0-9a-f]+\/inline\d+\.js$/.test(pathname);
    if (build && req.failure()?.errorText === 'net::ERR_ABORTED') return;
    problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  return { page, problems };
}

/**
 * Opens a share `link` in a fresh browser (a new profile: nothing loaded, nothing stored)
 * and waits until it shows `task` and the verdict Verified, logging no problem. Returns
 * how many of its requests' URLs ended with `watch` (a file the episode needs fetched).
 */
export async function verifiedInFreshBrowser(link, task, watch) {
  const fresh = await launchBrowser();
  try {
    const { page, problems } = await openPage(fresh.context);
    const fetched = [];
    page.on('request', (r) => r.url().endsWith(watch) && fetched.push(r.url()));
    await page.goto(link);
    await expectText(page.getByTestId('replay-task'), task, 60_000);
    await expectText(page.getByTestId('verdict'), 'Verified', 60_000);
    assert.deepEqual(problems, [], 'the fresh browser logged errors');
    return fetched.length;
  } finally {
    await fresh.close();
  }
}

/**
 * The lifecycle every end-to-end file shares: one server and one browser per file, a
 * fresh page per test that must log no console error, exception or failed request.
 * Pass node:test's hooks; returns `open(path)` and the server's `url()`.
 */
export function pageHarness({ before, after, afterEach }) {
  let server;
  let browser;
  let current; // { page, problems } of the running test
  before(async () => {
    await assertBuilt();
    server = await startServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  afterEach(async () => {
    if (!current) return;
    const { page, problems, allowed } = current;
    current = undefined;
    await page.close();
    const unexpected = problems.filter((p) => !allowed.some((re) => re.test(p)));
    assert.deepEqual(unexpected, [], 'the page logged errors');
  });
  return {
    url: () => server.url,
    context: () => browser.context,
    /**
     * Problems matching `re` are expected in the running test (e.g. the HTTP 429 or the
     * CORS refusal a test provokes on purpose) and do not fail it.
     */
    allow(re) {
      current?.allowed.push(re);
    },
    /**
     * A fresh page at `pagePath`; `viewport` sizes it and `setup(page)` runs before it
     * loads (e.g. to route requests).
     */
    async open(pagePath, { viewport, setup } = {}) {
      current = { ...(await openPage(browser.context)), allowed: [] };
      if (viewport) await current.page.setViewportSize(viewport);
      await setup?.(current.page);
      await current.page.goto(server.url + pagePath);
      return current.page;
    },
  };
}

/**
 * Saves an endpoint profile on /models through `open` (a harness's) and returns the
 * page; `fields` override the defaults (`base` and `model` are required).
 */
export async function saveProfile(open, fields) {
  const f = { name: 'Scripted', provider: 'openai', timeout: '10', key: '', remember: false, ...fields };
  const page = await open('/models');
  await page.getByTestId('profile-name').fill(f.name);
  await page.getByTestId('profile-provider').selectOption(f.provider);
  await page.getByTestId('profile-base-url').fill(f.base);
  await page.getByTestId('profile-model').fill(f.model);
  await page.getByTestId('profile-timeout').fill(f.timeout);
  await page.getByTestId('profile-key').fill(f.key);
  await page.getByTestId('profile-remember').setChecked(f.remember);
  if (f.priceIn) await page.getByTestId('profile-price-in').fill(f.priceIn);
  await page.getByTestId('profile-save').click();
  await page.getByTestId('profile-status').getByText(`Saved “${f.name}”.`).waitFor();
  return page;
}

/** Clicks the element `testid` and returns the text of the download it starts. */
export async function downloaded(page, testid) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  return fs.readFile(await dl.path(), 'utf8');
}

/** Waits until the first element of `locator` has `expected` as its trimmed text (or
 *  matches a RegExp), and returns the text; fails with what it had after `timeout` ms. */
export async function expectText(locator, expected, timeout = 10_000) {
  await locator.first().waitFor({ state: 'attached', timeout });
  const deadline = Date.now() + timeout;
  let got;
  for (;;) {
    got = (await locator.first().textContent())?.trim();
    const ok = expected instanceof RegExp ? expected.test(got) : got === expected;
    if (ok) return got;
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`expected ${expected}, got ${JSON.stringify(got)}`);
}

/** Frame pixel (x, y) as a viewport point, whatever the frame's display scale. */
export async function framePoint(page, [x, y]) {
  const frame = page.getByTestId('frame');
  await frame.scrollIntoViewIfNeeded();
  const g = await frame.evaluate((c) => {
    const r = c.getBoundingClientRect();
    return { left: r.left + c.clientLeft, top: r.top + c.clientTop, w: c.clientWidth, h: c.clientHeight, fw: c.width, fh: c.height };
  });
  return [g.left + (x * g.w) / g.fw, g.top + (y * g.h) / g.fh];
}
