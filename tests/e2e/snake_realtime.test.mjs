// End-to-end checks of people playing GameVerse Snake in real time (latency "normal":
// the snake moves on by itself after 10 s without a key), in headless Chromium:
//   node --test tests/e2e/snake_realtime.test.mjs
// after `trunk build --config trunk.toml --release` (the site in dist/, or PLAYBENCH_DIST).
//
// On /play a person presses a key and waits past the timeout: the snake moves on its own.
// The gameverse suite has no real-time Snake task, so the shared episode is played on
// /task/play on the suite's Snake task with `latency: "normal"`, opened as a fork from the
// start of a stored episode that carries the task inline (the route for tasks no suite
// holds): a key, then the virtual clock's auto-moves run the snake into the wall; the
// episode's link verifies in a fresh browser, idle steps included, and the key's game
// time is in the record (the 1200 s end itself is checked natively,
// app/src/task_session.rs).
//
// A model plays the same task on /run (fork route) against the scripted endpoint: the
// page shows the latency mode and the thinking-time distribution (`LatencyStats`, the
// figures `playbench run` prints) while it runs, beside the score when it is done, and
// on the episode page of its link.

import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { downloaded, expectText, launchBrowser, openPage, pageHarness, saveProfile } from './support.mjs';
import { startScripted } from './scripted.mjs';

const harness = pageHarness({ before, after, afterEach });
const open = harness.open;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TIMEOUT_MS = 10_000;
let scripted;
before(async () => {
  scripted = await startScripted();
});
after(async () => {
  await scripted?.close();
});

/** The gameverse suite's Snake task in the Normal latency mode (inline, id `snake-normal`). */
function normalSnakeTask() {
  const suite = JSON.parse(fs.readFileSync(path.join(ROOT, 'bench/suites/gameverse/v1.json'), 'utf8'));
  const task = suite.tasks.find((t) => t.id === 'snake');
  assert.ok(task, 'the gameverse suite has its Snake task');
  return { ...task, id: 'snake-normal', kwargs: { ...task.kwargs, latency: 'normal' } };
}

/** A stored episode file of that task with no decisions yet: a fork from its start. */
function emptyEpisodeOf(task) {
  return {
    format: 'playbench-episode-file/1',
    task,
    envs_version: '0',
    agent: 'human',
    record: {
      format: 'playbench-episode/1',
      task: task.id,
      env: task.env,
      seed: task.seed,
      agent: 'human',
      decisions: [],
      failure: 'timeout',
      passed: false,
      score: 0,
      progress: {
        decisions: 0, env_steps: 0, total_reward: 0, success: false, terminated: false,
        steps_survived: 0, picked_up: false, events: [], best_progress: 0,
      },
    },
  };
}

/** Stores an empty episode of the Normal-mode Snake task under `key` (for `?fork=0&stored=`). */
async function storeEmptyEpisode(key) {
  const page = await open('/');
  await page.evaluate(([k, v]) => localStorage.setItem(k, v), [
    `playbench.episode.${key}`,
    JSON.stringify(emptyEpisodeOf(normalSnakeTask())),
  ]);
  return page;
}

/** `LatencyStats::summary` of the latencies, as bench/src/latency.rs writes it. */
function latencySummary(latencies) {
  const l = [...latencies].sort((a, b) => a - b);
  const n = l.length;
  const median = n % 2 ? l[(n - 1) / 2] : Math.floor((l[n / 2 - 1] + l[n / 2]) / 2);
  // Rust's `{:.1}`: to tenths, an exact half to the even tenth.
  const s = (ms) => {
    const [q, r] = [Math.floor(ms / 100), ms % 100];
    const t = r > 50 || (r === 50 && q % 2 === 1) ? q + 1 : q;
    return `${Math.floor(t / 10)}.${t % 10} s`;
  };
  return `latency min ${s(l[0])} · median ${s(median)} · max ${s(l[n - 1])} (${n} replies)`;
}

test('/play: Snake in Normal latency moves on its own after 10 s without a key', { timeout: 90_000 }, async () => {
  const kwargs = encodeURIComponent(JSON.stringify({ latency: 'normal' }));
  const page = await open(`/play?env=GameVerse/Snake&kwargs=${kwargs}&seed=42`);
  await expectText(page.getByTestId('status'), /the snake moved on its own 0 times/);
  // Nothing moves before the first key.
  await page.waitForTimeout(TIMEOUT_MS + 1500);
  await expectText(page.getByTestId('status'), /the snake moved on its own 0 times/);
  await page.keyboard.press('ArrowUp');
  // Past the timeout on the virtual clock: one move without a key.
  await expectText(page.getByTestId('status'), /the snake moved on its own 1 times/, TIMEOUT_MS + 5000);
});

test('/task/play: a real-time Snake episode with auto-moves is shared and verifies in a fresh browser', { timeout: 180_000 }, async () => {
  const task = normalSnakeTask();
  const page = await storeEmptyEpisode('e2e-snake-normal');
  await page.goto(`${harness.url()}/task/play?fork=0&stored=e2e-snake-normal`);
  await page.getByTestId('decision-text').waitFor();
  await expectText(page.getByTestId('fork-banner'), /from the start of an episode of snake-normal/);
  // Up from (3, 3): the key moves the snake, then the timeout moves it on every 10 s
  // until it reaches the wall at the top (four more cells).
  await page.keyboard.press('ArrowUp');
  await page.waitForTimeout(TIMEOUT_MS + 1500);
  assert.equal(await page.getByTestId('result').count(), 0, 'one auto-move does not end the game');
  await page.getByTestId('result').waitFor({ timeout: 5 * TIMEOUT_MS });
  const href = await page.getByTestId('download-episode').getAttribute('href');
  const file = JSON.parse(decodeURIComponent(href.slice(href.indexOf(',') + 1)));
  const { record } = file;
  assert.equal(record.task, 'snake-normal');
  assert.equal(record.agent, 'human');
  assert.equal(record.failure, 'early_termination', 'the snake hit the wall');
  assert.equal(record.decisions[0].action, 'U');
  // The key's game time is kept (it started the game's clock), so the replay tells the
  // environment the same time and ends the game at max_duration where play did; the
  // clock's own moves carry none.
  assert.equal(record.decisions[0].at_ms, 0);
  assert.ok(record.decisions.slice(1).every((d) => d.at_ms === undefined), JSON.stringify(record.decisions));
  // The auto-moves are idle steps; the one that ended the game is the last decision.
  const idle = record.decisions.reduce((n, d) => n + (d.idle_before ?? 0), 0);
  assert.equal(idle, 3, JSON.stringify(record.decisions));
  assert.equal(record.decisions.at(-1).action, '(timeout)');
  assert.ok(record.decisions.at(-1).terminated);
  const link = await page.getByTestId('share-link').inputValue();
  assert.match(link, /\/episode#e=pb1\./);

  const other = await launchBrowser();
  try {
    const fresh = await openPage(other.context);
    await fresh.page.goto(link);
    await expectText(fresh.page.getByTestId('verdict'), 'Verified', 30_000);
    assert.deepEqual(fresh.problems, [], 'the fresh browser logged errors');
  } finally {
    await other.close();
  }
});

test("/run: a model's real-time Snake run shows its latency mode and thinking times, live, with the score and on the episode page", { timeout: 180_000 }, async () => {
  await scripted.reset();
  // Every reply 1.5 s after its request: up until the snake meets the wall.
  await saveProfile(open, { base: `${scripted.url}/v1`, model: 'delay:1500:U' });
  const page = await storeEmptyEpisode('e2e-snake-run');
  await page.goto(`${harness.url()}/run?fork=0&stored=e2e-snake-run`);
  const mode = 'Latency mode normal: the game moves on by itself after 10.0 s without an action; thinking time measured';
  await page.getByTestId('run-start').click();
  await expectText(page.getByTestId('run-latency-mode'), mode);
  // Live: the distribution of the replies so far, while the run goes on.
  await expectText(page.getByTestId('run-latency'), /^latency min \d+\.\d s · median \d+\.\d s · max \d+\.\d s \(1 replies\)$/, 20_000);
  assert.equal(await page.getByTestId('run-result').count(), 0, 'still running');
  await page.getByTestId('run-result').waitFor({ timeout: 120_000 });
  const file = JSON.parse(await downloaded(page, 'run-download'));
  const latencies = file.record.decisions.map((d) => d.latency_ms);
  assert.ok(latencies.length >= 2 && latencies.every((l) => l >= 1500), JSON.stringify(latencies));
  const summary = latencySummary(latencies);
  await expectText(page.getByTestId('run-result-latency-mode'), mode);
  await expectText(page.getByTestId('run-result-latency'), summary);
  await expectText(page.getByTestId('run-latency'), summary);

  // The episode page of its link: the mode (the record does not say where its times
  // came from) and the same figures.
  await page.goto(await page.getByTestId('share-link').inputValue());
  await expectText(page.getByTestId('verdict'), 'Verified', 30_000);
  await expectText(page.getByTestId('replay-latency-mode'), 'Latency mode normal: the game moves on by itself after 10.0 s without an action');
  await expectText(page.getByTestId('replay-latency'), summary);
});
