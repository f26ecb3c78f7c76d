// End-to-end check of reflect-and-retry in the browser (docs/gameverse.md, "Reflect and
// retry") against the scripted endpoint (tests/servers/scripted-openai.mjs, a `file:`
// script): a three-attempt `both` run on the gameverse suite's maze-s1 from its task
// page; both reflection requests go out after each failed attempt with the failure's
// 20 frames and the texts word for word; the run survives a reload; its share link
// verifies on /attempts in a fresh browser and an edited link does not; /compare shows
// the gain of the imported run.
//   node --test tests/e2e/reflect.test.mjs   (after the Trunk build; see support.mjs)

import { after, afterEach, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { downloaded, expectText, launchBrowser, openPage, pageHarness, saveProfile } from './support.mjs';
import { startScripted } from './scripted.mjs';

const TIMEOUT = 240_000;

// /reflect plays the attempts with GameVerse's harness: replies in its `### Reasoning`
// / `### Actions` format, the experience in the next attempt's system message.
const PLAY = '### Reasoning\nUp.\n### Actions\nup';
const STEPS = 20; // maze-s1's step cap: every attempt presses up into the wall to the end

const ANALYSIS_1 = '- I pressed up into the wall.';
const EXPERIENCE_1 = 'Go down, then right.';
// Model replies are hostile input: markup must show as text.
const ANALYSIS_2 = '- The wall again. <b id="injected">bold</b>';
const EXPERIENCE_2 = 'Go down first.';

// GameVerse's reflection requests, word for word (bench/src/reflect/prompts.rs holds
// them as data, checked against the reference's reflection module).
const FAILURE_SYSTEM = 'You are a game strategy analysis expert. Your task is to analyze failure scenarios and reasons from failed game videos.\n\n    Requirements:\n    1. Carefully observe the game process in the video\n    2. Identify key errors and issues that led to failure\n    3. Summarize failure scenarios and reasons, be specific and clear\n    4. Output format: Plain text, list failure scenarios and reasons in bullet points\n    ';
const FAILURE_USER = 'Game name: Maze\n\nPlease analyze this failure video and summarize the failure scenarios and reasons.\n';
const FAILURE_LEAD = '\nAll frames from the failure video:';
const TUTORIAL_SYSTEM = 'You are a game strategy analysis expert. You have analyzed the failure video and understood the failure scenarios and reasons. Now please watch the expert video, learn successful strategies, and summarize experiences that can help avoid the previous failures.\n\nRequirements:\n1. Combine the previously analyzed failure scenarios and reasons\n2. Observe successful strategies in the expert video\n3. Summarize experiences that can avoid failures and improve game performance (no more than 1000 words or tokens)\n4. Experiences should be specific and actionable, avoid vague suggestions\n5. Sort by importance, put the most important experiences first\n6. **IMPORTANT: Keep your response within 1000 words or tokens. Be concise and focus on the most critical insights.**\n\nOutput format: Plain text, one experience per line, described in concise language.';
const tutorialUser = (analysis) => [
  'Game name: Maze\n\n',
  `### Previously analyzed failure scenarios and reasons:\n${analysis}\n\n`,
  '### Expert video:\nPlease watch the following expert video, learn successful strategies, and summarize experiences that can help avoid the previous failures.\n',
  '\nKey frames from the expert video (1 frame per 2 seconds):',
];

const harness = pageHarness({ before, after, afterEach });
const open = harness.open;
let scripted;
let dir;
before(async () => {
  scripted = await startScripted();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'playbench-reflect-'));
});
after(async () => {
  await scripted?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await scripted.reset();
});

const play = Array(STEPS).fill(PLAY);
const SCRIPT = [...play, ANALYSIS_1, EXPERIENCE_1, ...play, ANALYSIS_2, EXPERIENCE_2, ...play];

const system = (entry) => {
  const c = entry.body?.messages?.[0];
  return c?.role === 'system' ? (typeof c.content === 'string' ? c.content : c.content.map((p) => p.text ?? '').join('')) : '';
};
const userTexts = (entry) => {
  const u = entry.body.messages.find((m) => m.role === 'user');
  return (Array.isArray(u.content) ? u.content : [{ type: 'text', text: u.content }]).filter((p) => p.type === 'text').map((p) => p.text);
};

// The attempts link's codec (bench/src/link_codec.rs): base64url of the JSON's CRC-32
// (big-endian) and its raw deflate.
function crc32(bytes) {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}
function editLink(link, edit) {
  const [base, payload] = link.split('#a=pa1.');
  const json = zlib.inflateRawSync(Buffer.from(payload, 'base64url').subarray(4)).toString('utf8');
  const run = JSON.parse(json);
  edit(run);
  const text = Buffer.from(JSON.stringify(run), 'utf8');
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE(crc32(text));
  return `${base}#a=pa1.${Buffer.concat([sum, zlib.deflateRawSync(text)]).toString('base64url')}`;
}

test('reflect and retry: three attempts with both reflections, a link that verifies in a fresh browser, the gain on /compare', { timeout: TIMEOUT }, async () => {
  const scriptPath = path.join(dir, 'script.json');
  await fs.writeFile(scriptPath, JSON.stringify(SCRIPT));
  await saveProfile(open, { base: `${scripted.url}/v1`, model: `file:${scriptPath}` });

  // From the task page of a GameVerse game.
  let page = await open('/task?id=maze-s1&suite=gameverse');
  await page.getByTestId('reflect-task').click();
  await page.waitForURL((url) => url.pathname === '/reflect');
  assert.equal(await page.getByTestId('condition-both').isChecked(), true);
  assert.equal(await page.getByTestId('reflect-attempts').inputValue(), '3');
  await page.getByTestId('reflect-start').click();
  await page.locator('[data-testid=reflect-phase][data-phase=finished]').waitFor({ timeout: 200_000 });
  assert.equal(await page.getByTestId('reflect-score').count(), 3);
  await expectText(page.getByTestId('reflect-score'), 'Attempt 1: not passed · score 0');
  await expectText(page.getByTestId('reflect-usage'), /^64 requests/);

  // The requests: attempt, failure analysis, experience, attempt, both again, attempt.
  const log = await scripted.log();
  assert.equal(log.length, 3 * STEPS + 4);
  for (const [i, analysis] of [[STEPS, ANALYSIS_1], [2 * STEPS + 2, ANALYSIS_2]]) {
    const failure = log[i];
    assert.equal(system(failure), FAILURE_SYSTEM);
    assert.equal(failure.images, 20, 'the failed attempt’s 20 frames');
    assert.deepEqual(userTexts(failure).slice(0, 2), [FAILURE_USER, FAILURE_LEAD]);
    const experience = log[i + 1];
    assert.equal(system(experience), TUTORIAL_SYSTEM);
    assert.ok(experience.images > 0, 'the tutorial’s frames');
    assert.deepEqual(userTexts(experience).slice(0, 4), tutorialUser(analysis));
  }
  // Attempt 1 had no experience; every request of attempt 2 carries the first one.
  assert.ok(log.slice(0, STEPS).every((e) => !system(e).includes(EXPERIENCE_1)));
  const attempt2 = log.slice(STEPS + 2, 2 * STEPS + 2);
  assert.ok(attempt2.every((e) => system(e).includes(EXPERIENCE_1)), 'attempt 2 carries the experience in its system message');

  const file = JSON.parse(await downloaded(page, 'reflect-download'));
  assert.equal(file.format, 'playbench-attempts/1');
  assert.equal(file.condition, 'both');
  assert.deepEqual(file.attempts.map((a) => a.carried_in), ['', EXPERIENCE_1, EXPERIENCE_2]);
  assert.equal(file.settings.model, `file:${scriptPath}`, 'the run records its settings');
  assert.equal(file.settings.protocol, 'gameverse');
  const link = await page.getByTestId('reflect-share-link').inputValue();
  assert.match(link, /\/attempts#a=pa1\./);

  // A reload keeps the finished run.
  await page.reload();
  await page.locator('[data-testid=reflect-result][data-finished=true]').waitFor();
  assert.equal(await page.getByTestId('reflect-share-link').inputValue(), link);

  // The link verifies in a fresh browser; an edited link does not.
  const other = await launchBrowser();
  try {
    const { page: fresh, problems } = await openPage(other.context);
    await fresh.goto(link);
    await fresh.locator('[data-testid=attempts-verdict][data-verified=true]').waitFor({ timeout: 60_000 });
    await expectText(fresh.getByTestId('attempts-verdict'), /^Verified: all 3 attempts/);
    assert.equal(await fresh.getByTestId('attempt').count(), 3);
    await expectText(fresh.getByTestId('attempt-carried').nth(1), EXPERIENCE_1);
    const replies = fresh.getByTestId('turn-reply');
    assert.deepEqual(await replies.allTextContents(), [ANALYSIS_1, EXPERIENCE_1, ANALYSIS_2, EXPERIENCE_2]);
    assert.equal(await fresh.locator('#injected').count(), 0, 'replies are text, never markup');
    assert.equal((await fresh.getByTestId('turn-frames').first().textContent()).split(':')[0], '20 frames');

    await fresh.goto(editLink(link, (run) => { run.attempts[2].carried_in = 'Go up.'; }));
    await fresh.reload();
    await fresh.locator('[data-testid=attempts-verdict][data-verified=false]').waitFor({ timeout: 60_000 });
    await expectText(fresh.getByTestId('attempts-verdict'), /^Not verified: attempt 3 diverged at the start/);

    // An attempt opens in the replay viewer, verified.
    await fresh.goto(link);
    await fresh.reload();
    await fresh.locator('[data-testid=attempts-verdict][data-verified=true]').waitFor({ timeout: 60_000 });
    await fresh.getByTestId('attempt-replay').nth(1).click();
    await fresh.waitForURL((url) => url.pathname === '/episode');
    await fresh.getByTestId('verdict').getByText('Verified').waitFor();
    assert.deepEqual(problems, []);
  } finally {
    await other.close();
  }

  // /compare takes the run's link and shows its gain.
  page = await open('/compare');
  await page.getByTestId('compare-link').fill(link);
  await page.getByTestId('compare-add-link').click();
  const row = page.locator('[data-testid=gain-row][data-condition=both]');
  await row.waitFor();
  await expectText(row.getByTestId('gain-runs'), '1');
  await expectText(row.getByTestId('gain-value'), '+0.0 (one run: no interval)');
  await expectText(row.getByTestId('gain-by-attempt'), '1: 0.0 · 2: 0.0 · 3: 0.0');
  await expectText(page.getByTestId('imported-run'), /maze-s1 · .* · 3 attempts · condition Self \(both\)/);
});
