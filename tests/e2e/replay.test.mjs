// End-to-end checks of sharing and replaying episodes in headless Chromium:
//   node --test tests/e2e/replay.test.mjs
// after `trunk build --config trunk.toml --release` (the site in dist/, or PLAYBENCH_DIST).
// A task is played on /task/play, shared as a link, and the link re-verified in a fresh
// browser; damaged links, the timeline, side by side, files and forks are exercised.
// Every page must load without a console error, an uncaught exception or a failed request.

import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { expectText, launchBrowser, openPage, pageHarness } from './support.mjs';

// FrozenLake 4x4 (SFFF/FHFH/FFFH/HFFG), not slippery, seed 0: the oracle's six moves.
const LAKE_TASK = 'frozenlake-4x4-det-s0';
const LAKE_KEYS = ['ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowRight'];
const LAKE_ACTIONS = ['Down', 'Down', 'Right', 'Right', 'Down', 'Right'];

const TIMEOUT = 90_000;
const harness = pageHarness({ before, after, afterEach });
const open = harness.open;

/** Plays the task by keyboard on /task/play until it ends; returns the share link. */
async function playAndShare(page, keys) {
  await expectText(page.getByTestId('decision'), '1');
  for (const [i, key] of keys.entries()) {
    await page.keyboard.press(key);
    await expectText(page.getByTestId('decisions-used'), String(i + 1));
  }
  await page.getByTestId('result').waitFor();
  const field = page.getByTestId('share-link');
  await field.waitFor();
  assert.equal(await field.getAttribute('readonly'), '');
  return field.inputValue();
}

/** The episode file inside a share link (`…#e=pb1.<base64url(crc32 ‖ deflate(json))>`). */
function decodeLink(link) {
  const payload = link.split('#e=pb1.')[1];
  const bytes = Buffer.from(payload, 'base64url');
  return JSON.parse(zlib.inflateRawSync(bytes.subarray(4)).toString('utf8'));
}

/** A link fragment (`e=pb1.…`) for an episode file, as the app writes them. */
function encodeLink(file) {
  const json = Buffer.from(JSON.stringify(file), 'utf8');
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE(zlib.crc32(json));
  const body = Buffer.concat([sum, zlib.deflateRawSync(json, { level: 9 })]);
  return `e=pb1.${body.toString('base64url')}`;
}

const fragment = (link) => link.slice(link.indexOf('#') + 1);

let winLink; // the share link of the six-move win, made by the first test

async function winningLink() {
  if (winLink) return winLink;
  const page = await open(`/task/play?id=${LAKE_TASK}`);
  winLink = await playAndShare(page, LAKE_KEYS);
  return winLink;
}

test('a played task shares a link that verifies in a new browser with the same score', { timeout: TIMEOUT }, async () => {
  const page = await open(`/task/play?id=${LAKE_TASK}`);
  const link = await playAndShare(page, LAKE_KEYS);
  winLink = link;
  await expectText(page.getByTestId('result').getByTestId('score'), '100');
  assert.match(link, new RegExp(`^${harness.url()}/episode#e=pb1\\.[A-Za-z0-9_-]+$`));
  const file = decodeLink(link);
  assert.equal(file.format, 'playbench-episode-file/1');
  assert.deepEqual(file.task, { suite: 'playbench-core', suite_version: file.task.suite_version, task: LAKE_TASK });
  assert.deepEqual(file.record.decisions.map((d) => d.action), LAKE_ACTIONS);

  // Copy link: copied, or (no clipboard permission) a message, never an error.
  await page.getByTestId('copy-link').click();
  await expectText(page.getByTestId('copy-status'), /^(Link copied\.|Could not copy)/);
  // The plain episode download is still there.
  await page.getByTestId('download-episode').waitFor();

  // A fresh browser (its own profile) opens the link and re-verifies it.
  const other = await launchBrowser();
  try {
    const { page: viewer, problems } = await openPage(other.context);
    await viewer.goto(link);
    await expectText(viewer.getByTestId('verdict'), 'Verified', 20_000);
    assert.equal(await viewer.getByTestId('verdict-box').getAttribute('data-verified'), 'true');
    await expectText(viewer.getByTestId('recomputed-score'), '100');
    await expectText(viewer.getByTestId('claimed'), 'passed, score 100');
    await expectText(viewer.getByTestId('recomputed'), 'passed, score 100');
    await expectText(viewer.getByTestId('replay-task'), LAKE_TASK);
    await expectText(viewer.getByTestId('replay-agent'), 'human');
    await viewer.close();
    assert.deepEqual(problems, [], 'the viewer logged errors');
  } finally {
    await other.close();
  }
});

test('tampered, truncated and foreign links show clear errors', { timeout: TIMEOUT }, async () => {
  const link = await winningLink();
  const frag = fragment(link);

  // One character of the checksum changed: refused as altered.
  const i = 'e=pb1.'.length + 2;
  const flipped = frag.slice(0, i) + (frag[i] === 'A' ? 'B' : 'A') + frag.slice(i + 1);
  const page = await open(`/episode#${flipped}`);
  const error = page.getByTestId('replay-error');
  await expectText(error.locator('h2'), 'This episode was altered or damaged');
  await expectText(page.getByTestId('replay-error-message'), /altered or damaged/);

  // Cut off: refused as truncated.
  await page.goto(`${harness.url()}/episode#${frag.slice(0, frag.length - 9)}`);
  await expectText(page.getByTestId('replay-error').locator('h2'), 'This episode link is cut off');
  await expectText(page.getByTestId('replay-error-message'), /truncated/);

  // Not a link at all.
  await page.goto(`${harness.url()}/episode#hello`);
  await expectText(page.getByTestId('replay-error').locator('h2'), 'This is not a Playbench episode');

  // A claim changed with a valid checksum: opens, and says where it diverges.
  const file = decodeLink(link);
  file.record.decisions[2].reward = 1;
  await page.goto(`${harness.url()}/episode#${encodeLink(file)}`);
  await expectText(page.getByTestId('verdict'), 'Diverged at step 3: reward expected 1.0, got 0.0');
  assert.equal(await page.getByTestId('verdict-box').getAttribute('data-verified'), 'false');
  await expectText(page.getByTestId('divergence-step'), '3');
  await expectText(page.getByTestId('divergence-field'), 'reward');

  // A stored key with nothing behind it.
  await page.goto(`${harness.url()}/episode?stored=nothing-here`);
  await expectText(page.getByTestId('replay-error').locator('h2'), 'No stored episode');
});

test('the timeline scrubs by keyboard with captions, replies and revealed rewards', { timeout: TIMEOUT }, async () => {
  const file = decodeLink(await winningLink());
  // A model's episode: replies at each step (they do not change verification).
  file.agent = 'endpoint:test-model';
  file.record.agent = 'endpoint:test-model';
  file.record.decisions.forEach((d, i) => {
    d.raw = `I will go ${d.action.toLowerCase()}. [Action: ${d.action}]`;
    if (i === 1) d.rejected = ['maybe down?'];
  });
  file.settings = { model: 'test-model', temperature: 0 };
  const page = await open(`/episode#${encodeLink(file)}`);
  await expectText(page.getByTestId('verdict'), 'Verified');
  await expectText(page.getByTestId('replay-caption'), 'Start State');
  await expectText(page.getByTestId('replay-counter'), 'Start (0 of 6)');
  await expectText(page.getByTestId('replay-reply'), /start state/);

  await page.keyboard.press('ArrowRight');
  await expectText(page.getByTestId('replay-caption'), 'Step 1: Action: Down');
  await expectText(page.getByTestId('replay-reply'), 'I will go down. [Action: Down]');
  await page.keyboard.press('ArrowRight');
  await expectText(page.getByTestId('replay-counter'), 'Step 2 of 6');
  await expectText(page.getByTestId('replay-rejected'), 'maybe down?');
  await page.keyboard.press('End');
  await expectText(page.getByTestId('replay-caption'), 'Step 6: Action: Right');
  // The goal's reward, hidden from the agent, is revealed here.
  await expectText(page.getByTestId('replay-reward'), '1');
  await expectText(page.getByTestId('replay-terminated'), 'true');
  assert.equal(await page.getByTestId('replay-scrub').inputValue(), '6');
  await page.keyboard.press('ArrowLeft');
  await expectText(page.getByTestId('replay-caption'), 'Step 5: Action: Down');
  await page.keyboard.press('Home');
  await expectText(page.getByTestId('replay-caption'), 'Start State');

  // Buttons with labels, and the range input, do the same.
  await page.getByRole('button', { name: 'Step forward' }).click();
  await expectText(page.getByTestId('replay-caption'), 'Step 1: Action: Down');
  await page.getByRole('button', { name: 'Last step' }).click();
  await expectText(page.getByTestId('replay-counter'), 'Step 6 of 6');
  await page.getByTestId('replay-scrub').evaluate((el) => {
    el.value = '3';
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await expectText(page.getByTestId('replay-caption'), 'Step 3: Action: Right');
  await expectText(page.getByTestId('settings'), /test-model/);
  const canvas = await page.getByTestId('replay-frame').evaluate((c) => [c.width, c.height]);
  assert.deepEqual(canvas, [256, 296], 'the frame with its caption strip');
});

test('two episodes of a task play side by side; other tasks are refused', { timeout: TIMEOUT }, async () => {
  const win = fragment(await winningLink());
  const page = await open(`/task/play?id=${LAKE_TASK}`);
  const holeLink = await playAndShare(page, ['ArrowRight', 'ArrowDown']);
  const hole = fragment(holeLink).replace(/^e=/, '');

  await page.goto(`${harness.url()}/episode#${win}&e2=${hole}`);
  await page.getByTestId('replay-pair').waitFor();
  const sides = page.getByTestId('replay-side');
  assert.equal(await sides.count(), 2);
  await expectText(page.getByTestId('first-difference'), /first differ at step 1\./);
  await expectText(sides.nth(0).getByTestId('verdict'), 'Verified');
  await expectText(sides.nth(1).getByTestId('verdict'), 'Verified');
  await page.keyboard.press('ArrowRight');
  await expectText(sides.nth(0).getByTestId('replay-caption'), 'Step 1: Action: Down');
  await expectText(sides.nth(1).getByTestId('replay-caption'), 'Step 1: Action: Right');
  await page.keyboard.press('End');
  await expectText(page.getByTestId('replay-counter'), 'Step 6 of 6');
  await expectText(sides.nth(0).getByTestId('replay-caption'), 'Step 6: Action: Right');
  await expectText(sides.nth(1).getByTestId('replay-caption'), 'Step 2: Action: Down');
  await sides.nth(1).getByTestId('replay-ended').waitFor();

  // Another task: refused with a clear message; the first episode is still shown.
  const other = decodeLink(holeLink);
  other.task.task = 'frozenlake-4x4-s1';
  other.record.task = 'frozenlake-4x4-s1';
  await page.goto(`${harness.url()}/episode#${win}&e2=${encodeLink(other).replace(/^e=/, '')}`);
  await expectText(page.getByTestId('compare-error'), /different tasks/);
  await expectText(page.getByTestId('verdict'), 'Verified');
});

test('episode files open from the file input and by drag-and-drop', { timeout: TIMEOUT }, async () => {
  const file = decodeLink(await winningLink());
  const json = JSON.stringify(file, null, 2);
  const page = await open('/episode');
  await page.getByTestId('replay-empty').waitFor();
  await page.getByTestId('drop-zone').waitFor();

  await page.getByTestId('episode-file').setInputFiles({
    name: 'win.json',
    mimeType: 'application/json',
    buffer: Buffer.from(json),
  });
  await expectText(page.getByTestId('verdict'), 'Verified');

  // A broken file is reported by name.
  await page.getByTestId('episode-file').setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from(json.slice(0, 200)),
  });
  await expectText(page.getByTestId('replay-error-message'), /^Could not open the file "broken\.json": bad episode file/);

  // Dropped anywhere on the page: the episode opens.
  const dropFile = async (selector, name, text) => {
    const transfer = await page.evaluateHandle(
      ([name, text]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], name, { type: 'application/json' }));
        return dt;
      },
      [name, text],
    );
    await page.dispatchEvent(selector, 'dragover', { dataTransfer: transfer });
    await page.dispatchEvent(selector, 'drop', { dataTransfer: transfer });
  };
  await dropFile('h1', 'dropped.json', json);
  await expectText(page.getByTestId('verdict'), 'Verified');
  await expectText(page.getByTestId('replay-task'), LAKE_TASK);

  // The stored-episode contract: localStorage["playbench.episode." + KEY], /episode?stored=KEY.
  await page.evaluate(([k, v]) => localStorage.setItem(k, v), ['playbench.episode.e2e-win', json]);
  await page.goto(`${harness.url()}/episode?stored=e2e-win`);
  await expectText(page.getByTestId('verdict'), 'Verified');
  await expectText(page.getByTestId('replay-agent'), 'human');

  // Dropped on "compare with…": side by side with itself.
  await dropFile('[data-testid="compare-zone"]', 'again.json', json);
  await page.getByTestId('replay-pair').waitFor();
  await expectText(page.getByTestId('first-difference'), /same actions throughout/);
});

test('a fork at a step continues as a person from that state, and can be finished', { timeout: TIMEOUT }, async () => {
  const link = await winningLink();
  const page = await open(`/episode#${fragment(link)}&t=2`);
  await expectText(page.getByTestId('replay-caption'), 'Step 2: Action: Down');
  const human = page.getByTestId('fork-human');
  assert.equal(await human.getAttribute('href'), `/task/play?fork=2#${fragment(link)}`);
  assert.equal(
    await page.getByTestId('fork-model').getAttribute('href'),
    `/run?fork=2#${fragment(link)}`,
  );
  // At the last step there is nothing left to continue.
  await page.keyboard.press('End');
  await expectText(page.getByTestId('fork-unavailable'), /Cannot continue from decision 6/);
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expectText(page.getByTestId('replay-counter'), 'Step 2 of 6');

  await page.getByTestId('fork-human').click();
  await page.waitForURL((url) => url.pathname === '/task/play' && url.searchParams.get('fork') === '2');
  await expectText(page.getByTestId('fork-banner'), /continued from decision 2 of 6 of an episode of frozenlake-4x4-det-s0 played by human/);
  await expectText(page.getByTestId('decision-text'), /^Decision 1 of \d+$/);
  assert.equal(await page.getByTestId('fork-source').getAttribute('href'), `/episode#${fragment(link)}&t=2`);
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link');
  // The crumbs lead to the original task in its own suite (links carry the suite).
  assert.equal(await crumbs.getAttribute('href'), `/task?id=${LAKE_TASK}&suite=playbench-core`);
  const shareLink = await playAndShare(page, LAKE_KEYS.slice(2));
  await expectText(page.getByTestId('result').getByTestId('verdict'), 'passed');
  const forked = decodeLink(shareLink);
  assert.equal(forked.task.id, `${LAKE_TASK}~fork2`);
  assert.deepEqual(forked.task.prefix, ['Down', 'Down']);
  assert.deepEqual(forked.settings.forked_from, { task: LAKE_TASK, agent: 'human', step: 2 });

  // The forked episode verifies too.
  await page.goto(shareLink);
  await expectText(page.getByTestId('verdict'), 'Verified');
  await expectText(page.getByTestId('replay-task'), `${LAKE_TASK}~fork2`);

  // A fork of a stored episode (the route for episodes too large for a link).
  await page.evaluate(([k, v]) => localStorage.setItem(k, v), [
    'playbench.episode.e2e-fork',
    JSON.stringify(decodeLink(link)),
  ]);
  await page.goto(`${harness.url()}/task/play?fork=3&stored=e2e-fork`);
  await expectText(page.getByTestId('fork-banner'), /continued from decision 3 of 6/);
  await expectText(page.getByTestId('decision-text'), /^Decision 1 of 13$/);
  // Its way back opens the stored episode at the fork's step.
  await page.getByTestId('fork-source').click();
  await page.waitForURL((url) => url.pathname === '/episode' && url.searchParams.get('stored') === 'e2e-fork');
  await expectText(page.getByTestId('replay-counter'), 'Step 3 of 6');
  await expectText(page.getByTestId('verdict'), 'Verified');

  // An episode too large for a link: the viewer offers its file, and forks hand it over
  // through localStorage.
  const big = decodeLink(link);
  big.record.decisions[0].raw = crypto.randomBytes(30_000).toString('base64');
  await page.goto(`${harness.url()}/episode`);
  await page.getByTestId('episode-file').setInputFiles({
    name: 'big.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(big)),
  });
  await expectText(page.getByTestId('verdict'), 'Verified');
  await expectText(page.getByTestId('share-too-large'), /too large for a link/);
  await page.getByTestId('download-episode-file').waitFor();
  await page.keyboard.press('ArrowRight');
  await expectText(page.getByTestId('replay-counter'), 'Step 1 of 6');
  await page.getByTestId('fork-human').click();
  await page.waitForURL((url) => url.searchParams.get('fork') === '1' && /^ep-[0-9a-f]{8}$/.test(url.searchParams.get('stored')));
  await expectText(page.getByTestId('fork-banner'), /continued from decision 1 of 6/);

  // A fork past the episode's end is refused clearly.
  await page.goto(`${harness.url()}/task/play?fork=9#${fragment(link)}`);
  await expectText(page.getByTestId('error'), /Cannot continue from decision 9/);
});
