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
// episode's link verifies in a fresh browser, idle steps included.

import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expectText, launchBrowser, openPage, pageHarness } from './support.mjs';

const harness = pageHarness({ before, after, afterEach });
const open = harness.open;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TIMEOUT_MS = 10_000;

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
  const page = await open('/');
  await page.evaluate(([k, v]) => localStorage.setItem(k, v), [
    'playbench.episode.e2e-snake-normal',
    JSON.stringify(emptyEpisodeOf(task)),
  ]);
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
