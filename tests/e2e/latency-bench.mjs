// Benchmark: suite runs from the browser against the scripted endpoint answering after
// a fixed delay. A run's wall time should be (turns × delay / concurrency) within 10%
// for concurrency 1, 4 and 16, and the app's own work per request (render, encode,
// build the request, parse the answer) under 5 ms for a 256×256 frame. Prints the
// figures and their ratios; exits 1 when a target is missed.
//   node tests/e2e/latency-bench.mjs    (after the Trunk release build; see support.mjs)

import { assertBuilt, launchBrowser, openPage, startServer } from './support.mjs';
import { startScripted } from './scripted.mjs';

// A second per answer: vision models answer in seconds; at much shorter delays the
// upload of the growing conversation (hundreds of KB of images per request) and the
// test server's own JSON parsing show in the ratio (BENCH_DELAY_MS=200 to see them).
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 1000);
// Two FrozenLake 4x4 tasks (256×256 frames) on which "Left" never ends an episode
// early: every episode uses its whole budget (16 and 13 decisions).
const TASKS = 'frozenlake-4x4-det-s0';
// Each run takes about 29 turns × delay: one episode per task per worker.
const RUNS = [
  { concurrency: 1, episodes: 1 },
  { concurrency: 4, episodes: 4 },
  { concurrency: 16, episodes: 16 },
];

function profiles(base) {
  const profile = {
    name: 'bench', provider: 'open_ai', base_url: base, model: `delay:${DELAY_MS}:Left`,
    temperature: null, max_output_tokens: null, headers: [], timeout_s: 60,
    prices: { input_per_million: null, output_per_million: null }, remember_key: false,
  };
  return JSON.stringify({ list: [profile], selected: 0 });
}

async function suiteRun(page, { concurrency, episodes }) {
  // A saved run is discarded first (the page asks: confirm).
  const discard = page.getByTestId('suite-discard');
  await discard.waitFor();
  if (await discard.isEnabled()) {
    await discard.click();
    await page.getByTestId('suite-confirm-yes').click();
  }
  await page.getByTestId('sel-contains').fill(TASKS);
  await page.getByTestId('run-episodes').fill(String(episodes));
  await page.getByTestId('run-concurrency').fill(String(concurrency));
  const t0 = Date.now();
  await page.getByTestId('suite-start').click();
  await page.getByTestId('suite-phase').getByText('Complete').waitFor({ timeout: 600_000 });
  const wall = Date.now() - t0;
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  const results = JSON.parse(await (await import('node:fs/promises')).readFile(await dl.path(), 'utf8'));
  const turns = results.usage.requests;
  const ideal = (turns * DELAY_MS) / concurrency;
  const work = Number(await page.getByTestId('suite-work').textContent());
  const latency = results.usage.latency_ms / turns;
  return { concurrency, episodes: results.episodes.length, turns, wall, ideal, ratio: wall / ideal, work, latency };
}

async function perTurnWork(page) {
  await page.getByTestId('run-start').click();
  await page.getByTestId('run-result').waitFor({ timeout: 120_000 });
  const work = await page.getByTestId('turn').evaluateAll((els) => els.map((e) => Number(e.dataset.workMs)));
  const later = work.slice(1);
  const mean = later.reduce((a, b) => a + b, 0) / later.length;
  return { first: work[0], mean, max: Math.max(...later), turns: work.length };
}

await assertBuilt();
const server = await startServer();
// HTTP/2 over TLS: with HTTP/1.1 the browser keeps at most six requests per host in
// flight, which would cap concurrency 16 at 6 (hosted model APIs speak HTTP/2).
const scripted = await startScripted({ tls: true });
const browser = await launchBrowser(['--ignore-certificate-errors']);
let failed = false;
try {
  const { page } = await openPage(browser.context);
  await page.goto(`${server.url}/models`);
  await page.evaluate((p) => localStorage.setItem('playbench.endpoint-profiles', p), profiles(`${scripted.url}/v1`));
  await page.goto(`${server.url}/run/suite`);
  console.log(`suite runs, scripted endpoint answering after ${DELAY_MS} ms:`);
  for (const run of RUNS) {
    await scripted.reset();
    const r = await suiteRun(page, run);
    if (run.concurrency === 1) {
      // Sequential requests: the time from one answer to the next request is overhead.
      const log = await scripted.log();
      const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
      const gaps = log.slice(1).map((l, i) => l.arrived - log[i].at - DELAY_MS);
      const reading = log.map((l) => l.at - l.arrived);
      const kb = log.map((l) => l.bytes / 1024);
      console.log(
        `  (from an answer to the next request's arrival: median ${median(gaps)} ms; the server reading it: ` +
          `median ${median(reading)} ms; request size median ${median(kb).toFixed(0)} KB, max ${Math.max(...kb).toFixed(0)} KB)`,
      );
    }
    const ok = Math.abs(r.ratio - 1) <= 0.1;
    failed ||= !ok;
    console.log(
      `  concurrency ${String(r.concurrency).padStart(2)}: ${r.episodes} episodes, ${r.turns} turns, ` +
        `wall ${(r.wall / 1000).toFixed(2)} s vs turns×delay/concurrency ${(r.ideal / 1000).toFixed(2)} s: ` +
        `ratio ${r.ratio.toFixed(3)} ${ok ? '(within 10%)' : '(MISSED: target within 10%)'}; ` +
        `app work ${r.work.toFixed(2)} ms per request, mean latency ${r.latency.toFixed(1)} ms`,
    );
  }
  await page.goto(`${server.url}/run?task=${TASKS}`);
  const w = await perTurnWork(page);
  const ok = w.mean < 5 && w.max < 5;
  failed ||= !ok;
  console.log(
    `app work per request, 256×256 frame (${w.turns} requests): later turns mean ${w.mean.toFixed(2)} ms, ` +
      `max ${w.max.toFixed(2)} ms ${ok ? '(under 5 ms)' : '(MISSED: target under 5 ms)'}; ` +
      `first turn (all demonstration frames) ${w.first.toFixed(1)} ms`,
  );
} finally {
  await browser.close();
  await scripted.close();
  await server.close();
}
process.exit(failed ? 1 : 0);
