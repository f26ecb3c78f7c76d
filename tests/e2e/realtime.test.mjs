// End-to-end checks of real-time play of the `vical` suite's games in headless Chromium:
//   node --test tests/e2e/realtime.test.mjs
// after `trunk build --config trunk.toml --release` (the site in dist/, or PLAYBENCH_DIST).
//
// A person plays a Tetris, a FlappyBird and a Highway task on /task/play by keyboard,
// in real time on the environment's clock (one tick per decision: the frame skip's
// steps at the environment's rate, docs/app.md "Real-time play"), pauses once, finishes
// the episode, and the share link verifies in a fresh browser.

import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { expectText, launchBrowser, openPage, pageHarness } from './support.mjs';

const harness = pageHarness({ before, after, afterEach });
const open = harness.open;

async function used(page) {
  return Number(await page.getByTestId('decisions-used').textContent());
}

async function virtualMs(page) {
  return Number((await page.getByTestId('virtual-time').textContent()).replace(' s', '')) * 1000;
}

const isOver = (page) => page.getByTestId('result').count().then((n) => n > 0);

/**
 * Opens the task, checks it waits paused for the first key, plays `opening` (key,
 * wait ms) pairs, pauses once (nothing moves while paused), resumes, then presses
 * `finishKey` (or nothing) every `finishEvery` ms until the episode ends. Returns the
 * episode file the page offers and its share link.
 */
async function playInRealTime({ id, tickMs, opening, finishKey, finishEvery, finishWithin }) {
  const page = await open(`/task/play?id=${id}&suite=vical`);
  await page.getByTestId('decision-text').waitFor();
  await expectText(page.getByTestId('virtual-time'), '0.0 s');
  assert.equal(await page.getByTestId('pause').getAttribute('aria-pressed'), 'true', 'starts paused');
  await page.waitForTimeout(Math.min(3 * tickMs, 1500));
  assert.equal(await used(page), 0, 'nothing moves before the first key');

  for (const [key, wait] of opening) {
    await page.keyboard.press(key);
    await page.waitForTimeout(wait);
  }
  assert.equal(await page.getByTestId('pause').getAttribute('aria-pressed'), 'false', 'the first key starts the clock');
  assert.ok(await used(page) >= 1, 'the clock played decisions');
  assert.ok(!(await isOver(page)), 'the opening did not end the episode');

  // P pauses: neither decisions nor virtual time move.
  await page.keyboard.press('p');
  await expectText(page.getByTestId('realtime-note'), /Paused/);
  const frozen = [await used(page), await page.getByTestId('virtual-time').textContent()];
  await page.waitForTimeout(Math.max(2 * tickMs, 400));
  assert.deepEqual([await used(page), await page.getByTestId('virtual-time').textContent()], frozen);
  // One decision per tick: the clock played a decision for every whole tick of virtual
  // time (the time shown also counts the part of a tick before the pause, and is shown
  // to a tenth of a second).
  const ticks = (await virtualMs(page)) / tickMs;
  const shownTo = 100 / tickMs + 0.05;
  const played = await used(page);
  assert.ok(
    played <= ticks + shownTo && played >= ticks - 1 - shownTo,
    `${played} decisions in ${ticks} ticks of ${tickMs} ms`,
  );
  // A click on Resume resumes, and gives the keys back to the game: the button does not
  // keep the focus, where Space would press it again rather than reach the game.
  await page.getByTestId('pause').click();
  assert.equal(await page.getByTestId('pause').getAttribute('aria-pressed'), 'false', 'resumed');
  assert.notEqual(await page.evaluate(() => document.activeElement?.dataset?.testid), 'pause');

  const deadline = Date.now() + finishWithin;
  while (!(await isOver(page)) && Date.now() < deadline) {
    if (finishKey) await page.keyboard.press(finishKey);
    await page.waitForTimeout(finishEvery);
  }
  await page.getByTestId('result').waitFor({ timeout: 10_000 });
  const shownUsed = await page.getByTestId('result-decisions').textContent();
  const href = await page.getByTestId('download-episode').getAttribute('href');
  const file = JSON.parse(decodeURIComponent(href.slice(href.indexOf(',') + 1)));
  // The decisions used count the idle ticks too (each used a decision of the budget).
  assert.match(shownUsed.trim(), new RegExp(`^${file.record.progress.decisions} of \\d+$`));
  const link = await page.getByTestId('share-link').inputValue();
  assert.match(link, /\/episode#e=pb1\./);
  // The page verifies its own episode too.
  await page.goto(link);
  await expectText(page.getByTestId('verdict'), 'Verified', 30_000);
  return { file, link };
}

/** A fresh browser (no storage, nothing shared) opens the link: it verifies. */
async function verifiesElsewhere(link) {
  const other = await launchBrowser();
  try {
    const { page, problems } = await openPage(other.context);
    await page.goto(link);
    await expectText(page.getByTestId('verdict'), 'Verified', 30_000);
    assert.deepEqual(problems, [], 'the fresh browser logged errors');
  } finally {
    await other.close();
  }
}

/** What the record says about real-time play: idle ticks and the keys' actions. */
function checkRecord(file, { task, actions }) {
  const { record } = file;
  assert.equal(file.task.suite, 'vical');
  assert.equal(record.task, task);
  assert.equal(record.agent, 'human');
  const played = new Set(record.decisions.map((d) => d.action));
  for (const a of actions) assert.ok(played.has(a), `${a} was played: ${[...played]}`);
  assert.ok(
    record.decisions.some((d) => (d.idle_before ?? 0) > 0),
    'idle ticks between key presses are recorded',
  );
  // Every tick used a decision of the budget, pressed or not.
  const idle = record.decisions.reduce((n, d) => n + (d.idle_before ?? 0), 0);
  assert.equal(record.progress.decisions, record.decisions.length + idle);
  return record;
}

test('Tetris (vical): a piece moved, turned and dropped by keyboard until the stack tops out; the link verifies', { timeout: 180_000 }, async () => {
  // A decision is 3 steps at one step a second.
  const { file, link } = await playInRealTime({
    id: 'tetris-s1',
    tickMs: 3000,
    opening: [
      ['ArrowLeft', 3200],
      ['ArrowUp', 3200],
      ['Space', 3200],
    ],
    // A drop every 4 s: some ticks pass without a key, and the piece falls on its own.
    finishKey: 'Space',
    finishEvery: 4000,
    finishWithin: 120_000,
  });
  const record = checkRecord(file, { task: 'tetris-s1', actions: ['move_left', 'rotate_counterclockwise', 'hard_drop'] });
  assert.equal(record.failure, 'early_termination', 'the stack reached the top');
  await verifiesElsewhere(link);
});

test('FlappyBird (vical): flaps by keyboard at 99 ms a decision, then a fall; the link verifies', { timeout: 120_000 }, async () => {
  // A decision is 3 steps of 33 ms.
  const { file, link } = await playInRealTime({
    id: 'flappybird-s1',
    tickMs: 99,
    opening: [
      ['Space', 350],
      ['Space', 350],
      ['ArrowUp', 350],
    ],
    finishKey: null,
    finishEvery: 200,
    finishWithin: 20_000,
  });
  const record = checkRecord(file, { task: 'flappybird-s1', actions: ['FLAP', 'IDLE'] });
  assert.equal(record.failure, 'early_termination', 'the bird fell');
  await verifiesElsewhere(link);
});

test('Highway (vical): speeds up and changes lanes by keyboard at one decision a second to the end of the budget; the link verifies', { timeout: 150_000 }, async () => {
  const { file, link } = await playInRealTime({
    id: 'highway-s1',
    tickMs: 1000,
    opening: [
      ['ArrowRight', 1200],
      ['ArrowUp', 1200],
      ['ArrowLeft', 1200],
    ],
    finishKey: null,
    finishEvery: 500,
    finishWithin: 60_000,
  });
  const record = checkRecord(file, { task: 'highway-s1', actions: ['FASTER', 'LANE_LEFT', 'SLOWER'] });
  // The budget of 30 decisions ran out, or a crash ended the drive first.
  assert.ok(record.progress.decisions === 30 || record.failure === 'early_termination', JSON.stringify(record.progress));
  await verifiesElsewhere(link);
});
