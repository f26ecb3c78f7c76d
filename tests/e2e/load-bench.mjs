// Benchmark: the first load. For each page, the bytes it downloads before its first
// frame is drawn (gzipped at level 6, as static hosts commonly serve them) and the time
// from navigation to that first frame (the app's `playbench:first-frame` performance
// mark, app/src/browser/time.rs), with a cold cache (a fresh browser profile) and a warm
// one (the same page opened again, assets from the HTTP cache). Prints the figures with
// the target (the first load at most 600 KB gzipped) and exits 1 when it is missed.
//   node tests/e2e/load-bench.mjs    (after the Trunk release build; see support.mjs)
// Run by `cargo run --release -p playbench-tests --bin bench -- --first-load`.

import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { assertBuilt, distDir, launchBrowser, openPage, startServer } from './support.mjs';

const PAGES = ['/play?env=Taxi-v3', '/play?env=MiniGrid-DoorKey-8x8-v0', '/'];
const REPETITIONS = Number(process.env.LOAD_BENCH_REPS ?? 3);
const TARGET_KB = 600;
const MARK = 'playbench:first-frame';

const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];

/** Opens `url` in `context`: the ms from navigation to the first frame, and the files fetched before it. */
async function load(context, url) {
  const { page, problems } = await openPage(context);
  await page.goto(url);
  const ms = await page.waitForFunction(
    (mark) => performance.getEntriesByName(mark)[0]?.startTime,
    MARK,
    { timeout: 60_000 },
  );
  const firstFrame = await ms.jsonValue();
  // What reached the page before the mark (later requests are not part of the first load).
  const before = await page.evaluate((t) =>
    performance.getEntriesByType('resource').filter((r) => r.responseEnd <= t).map((r) => ({
      path: new URL(r.name).pathname,
    })), firstFrame);
  await page.close();
  if (problems.length) throw new Error(`${url}: ${problems.join('; ')}`);
  return { firstFrame, before };
}

/** The gzipped size of a file of the built site (level 6). */
async function gzippedBytes(urlPath) {
  const file = urlPath.endsWith('/') || path.extname(urlPath) === '' ? 'index.html' : urlPath.slice(1);
  const body = await fs.readFile(path.join(distDir, file));
  return { raw: body.length, gzipped: zlib.gzipSync(body, { level: 6 }).length };
}

await assertBuilt();
const server = await startServer(distDir, { cache: true });
let failed = false;
try {
  console.log(`first load, median of ${REPETITIONS} (cold: a fresh browser profile; warm: the page opened again):`);
  for (const pagePath of PAGES) {
    const url = server.url + pagePath;
    const cold = [];
    const warm = [];
    let files = [];
    for (let i = 0; i < REPETITIONS; i++) {
      const browser = await launchBrowser();
      try {
        const first = await load(browser.context, url);
        cold.push(first.firstFrame);
        files = ['/', ...first.before.map((r) => r.path)];
        const again = await load(browser.context, url);
        warm.push(again.firstFrame);
      } finally {
        await browser.close();
      }
    }
    const sizes = await Promise.all([...new Set(files)].map(gzippedBytes));
    const kb = sizes.reduce((a, s) => a + s.gzipped, 0) / 1024;
    const rawKb = sizes.reduce((a, s) => a + s.raw, 0) / 1024;
    const ok = kb <= TARGET_KB;
    failed ||= !ok;
    console.log(
      `  ${pagePath.padEnd(36)} ${String(sizes.length).padStart(2)} files, ${kb.toFixed(0)} KB gzipped ` +
        `(${rawKb.toFixed(0)} KB raw) ${ok ? `(at most ${TARGET_KB} KB)` : `(MISSED: target at most ${TARGET_KB} KB)`}; ` +
        `first frame cold ${median(cold).toFixed(0)} ms, warm ${median(warm).toFixed(0)} ms`,
    );
  }
} finally {
  await server.close();
}
process.exit(failed ? 1 : 0);
