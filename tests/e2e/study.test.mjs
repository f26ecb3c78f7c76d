// End-to-end checks of human studies: an organiser builds a study link, a scripted
// participant completes it across a reload, the results download and reach a test
// collector (another origin, CORS); a failing collector is reported and the download
// still works.
//   node --test tests/e2e/study.test.mjs   (after a trunk build; see support.mjs)

import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { launchBrowser, openPage, pageHarness } from './support.mjs';
import { startCollector } from '../servers/collector.mjs';

// FrozenLake 4x4, not slippery: the oracle's route from the start, and from the
// mid-route start of the `-mid` variant (its first three moves are the prefix).
const LAKE = 'frozenlake-4x4-det-s0';
const LAKE_KEYS = ['ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowDown', 'ArrowRight', 'ArrowRight'];
const LAKE_MID = 'frozenlake-4x4-det-s0-mid';
const LAKE_MID_KEYS = ['ArrowDown', 'ArrowRight', 'ArrowRight'];
const TIMEOUT = 90_000;

const harness = pageHarness({ before, after, afterEach });
let collector;
before(async () => {
  collector = await startCollector();
});
after(async () => {
  await collector?.close();
});

const text = (page, testid) => page.getByTestId(testid).innerText();

async function waitText(page, testid, re) {
  await page.getByTestId(testid).waitFor();
  await page.waitForFunction(
    ([id, src]) => new RegExp(src).test(document.querySelector(`[data-testid="${id}"]`)?.textContent ?? ''),
    [testid, re.source],
    { timeout: 15_000 },
  ).catch(async () => assert.fail(`[data-testid=${testid}] is ${JSON.stringify(await text(page, testid).catch(() => '(missing)'))}, expected ${re}`));
}

/** Builds a study in the builder and returns its participant link. */
async function buildStudy(page, { title, id, tasks, demos, collectUrl }) {
  await page.getByTestId('study-title').fill(title);
  await page.getByTestId('study-id').fill(id);
  await page.getByTestId('study-instructions').fill(`Instructions for ${title}: reach the goal.`);
  await page.getByTestId('study-filter-family').selectOption('FrozenLake');
  for (const t of tasks) await page.getByTestId(`study-task-${t}`).check();
  const demosBox = page.getByTestId('study-show-demos');
  if ((await demosBox.isChecked()) !== demos) await demosBox.click();
  await page.getByTestId('study-collect-url').fill(collectUrl);
  const link = page.getByTestId('study-link');
  await link.waitFor();
  return link.inputValue();
}

async function playTask(page, keys) {
  await page.getByTestId('frame').waitFor();
  for (const k of keys) await page.keyboard.press(k);
  await page.getByTestId('study-task-done').waitFor();
}

async function download(page) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('study-download').click()]);
  return JSON.parse(await fs.readFile(await dl.path(), 'utf8'));
}

test('a participant completes a study across a reload; results download and are collected', { timeout: TIMEOUT }, async () => {
  const page = await harness.open('/study');
  const link = await buildStudy(page, {
    title: 'E2E lakes',
    id: 'e2e-lakes',
    tasks: [LAKE, LAKE_MID],
    demos: true,
    collectUrl: `${collector.url}/collect`,
  });
  assert.match(link, /\/study\/take#s=ps1\.[A-Za-z0-9_-]+$/);
  assert.deepEqual(
    (await text(page, 'study-chosen')).split('\n').map((l) => l.trim()),
    [LAKE, LAKE_MID], // numbered once, by the list
  );

  // The builder keeps its draft across a reload.
  await page.reload();
  assert.equal(await page.getByTestId('study-title').inputValue(), 'E2E lakes');
  assert.equal(await page.getByTestId('study-link').inputValue(), link);

  // The participant.
  await page.goto(link);
  assert.equal(await text(page, 'study-title'), 'E2E lakes');
  await page.getByTestId('study-code-submit').click();
  await page.getByRole('alert').filter({ hasText: 'participant code' }).waitFor();
  await page.getByTestId('study-code').fill('P-01');
  await page.getByTestId('study-code-submit').click();
  assert.match(await text(page, 'study-instructions'), /Instructions for E2E lakes/);
  await page.getByTestId('study-begin').click();
  await waitText(page, 'study-progress', /^Task 1 of 2$/);
  assert.ok((await page.getByTestId('demo').count()) >= 1, 'the demos are shown');
  await page.getByTestId('study-start-task').click();
  await waitText(page, 'decision-text', /^Decision 1 of 16$/);
  await playTask(page, LAKE_KEYS);
  assert.equal(await text(page, 'study-task-score'), '100');
  // A pass is shown as a success, not in the error colours.
  const done = page.getByTestId('study-task-done');
  assert.equal(await done.getAttribute('data-passed'), 'true');
  assert.match(await done.getAttribute('class'), /\bpassed\b/);

  // A reload resumes at task 2, as the same participant.
  await page.reload();
  await waitText(page, 'study-progress', /^Task 2 of 2$/);
  assert.equal(await text(page, 'study-participant'), 'P-01');
  await page.getByTestId('study-start-task').click();
  // Half a play, then a reload: the task starts over from its start.
  await page.getByTestId('frame').waitFor();
  await page.keyboard.press('ArrowDown');
  await waitText(page, 'decision-text', /^Decision 2 of/);
  await page.reload();
  await page.getByTestId('study-start-task').click();
  await waitText(page, 'decision-text', /^Decision 1 of 13$/);
  await playTask(page, LAKE_MID_KEYS);
  await page.getByTestId('study-next').click();

  await waitText(page, 'study-summary', /^2 of 2 tasks passed/);
  await page.locator('[data-testid="study-post"][data-state="sent"]').waitFor();
  const results = await download(page);
  assert.equal(results.format, 'playbench-results/1');
  assert.equal(results.kind, 'human');
  assert.equal(results.label, 'Study E2E lakes · participant P-01');
  assert.deepEqual(results.episodes.map((e) => e.record.task), [LAKE, LAKE_MID]);
  assert.ok(results.episodes.every((e) => e.record.passed && e.record.agent === 'human'));
  assert.equal(results.config.study_id, 'e2e-lakes');
  assert.equal(results.config.participant, 'P-01');
  assert.equal(results.config.demos_shown, true);
  assert.equal(results.report.overall.pass_rate, 1);
  assert.equal(collector.received.length, 1, 'the collector got the results once');
  assert.deepEqual(collector.received[0], results);

  // Reloading the results page does not send them twice; the download stays.
  await page.reload();
  await page.locator('[data-testid="study-post"][data-state="sent-earlier"]').waitFor();
  assert.deepEqual(await download(page), results);
  assert.equal(collector.received.length, 1);
});

test('a failing collector is reported and the download still works', { timeout: TIMEOUT }, async () => {
  // The failed POST makes Chromium log the 500 as a console error: this test uses its
  // own page and allows exactly the problems of that request.
  const browser = await launchBrowser();
  try {
    const { page, problems } = await openPage(browser.context);
    await page.goto(`${harness.url()}/study`);
    const link = await buildStudy(page, {
      title: 'E2E failing collector',
      id: 'e2e-fail',
      tasks: [LAKE_MID],
      demos: false,
      collectUrl: `${collector.url}/fail`,
    });
    await page.goto(link);
    await page.getByTestId('study-code').fill('P-02');
    await page.getByTestId('study-code-submit').click();
    await page.getByTestId('study-begin').click();
    await waitText(page, 'study-progress', /^Task 1 of 1$/);
    assert.equal(await page.getByTestId('demo').count(), 0, 'no demos in this study');
    await playTask(page, LAKE_MID_KEYS);
    await page.getByTestId('study-next').click();
    const failed = page.locator('[data-testid="study-post"][data-state="failed"]');
    await failed.waitFor();
    assert.match(await failed.innerText(), /HTTP 500.*told to fail/s);
    const results = await download(page);
    assert.equal(results.kind, 'human');
    assert.equal(results.config.participant, 'P-02');
    assert.equal(results.episodes.length, 1);
    assert.ok(problems.length > 0, 'the failed POST was seen');
    const unexpected = problems.filter((p) => !p.includes('/fail') && !/status of 500/.test(p));
    assert.deepEqual(unexpected, [], 'only the failing collector request is a problem');
    await page.close();
  } finally {
    await browser.close();
  }
});

test('a damaged study link is refused with a reason', { timeout: TIMEOUT }, async () => {
  const page = await harness.open('/study/take#s=ps1.AAAA');
  await page.getByTestId('error').waitFor();
  assert.match(await text(page, 'error'), /truncated|damaged/);
});
