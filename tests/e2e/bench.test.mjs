// End-to-end checks of the benchmark pages (suite, task, task play) in headless Chromium:
//   node --test tests/e2e/
// after `trunk build --config trunk.toml --release` (the site in dist/, or PLAYBENCH_DIST).
// They run on the built-in suite `playbench-core`; every page must load without a console
// error, an uncaught exception or a failed request.

import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { expectText, pageHarness } from './support.mjs';

// FrozenLake 4x4 (SFFF/FHFH/FFFH/HFFG), not slippery, seed 0: Down, Down, Right, Right,
// Down, Right is a shortest route (the oracle's 6 decisions, so a score of 100).
const LAKE_TASK = 'frozenlake-4x4-det-s0';
const LAKE_KEYS = ['ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowRight'];

const TIMEOUT = 60_000;
const harness = pageHarness({ before, after, afterEach });
const open = harness.open;

const query = (page) => new URL(page.url()).searchParams;

/** The body of a `data:application/json` download link, parsed. */
async function dataLinkJson(link) {
  const href = await link.getAttribute('href');
  const prefix = 'data:application/json;charset=utf-8,';
  assert.ok(href.startsWith(prefix), `not a JSON data link: ${href.slice(0, 60)}`);
  return JSON.parse(decodeURIComponent(href.slice(prefix.length)));
}

/** The frame number shown by a demo's counter ("Frame 3 of 8" → [3, 8]). */
async function demoFrame(demo) {
  const text = await demo.getByTestId('demo-counter').textContent();
  const m = /^Frame (\d+) of (\d+)$/.exec(text.trim());
  assert.ok(m, `bad counter ${JSON.stringify(text)}`);
  return [Number(m[1]), Number(m[2])];
}

/** Moves a range input as a person dragging it would (an `input` event). */
const scrubTo = (slider, value) =>
  slider.evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);

test('the suite lists tasks by environment, and the dynamics filter keeps only dynamic tasks', { timeout: TIMEOUT }, async () => {
  const page = await open('/');
  // The home page and the navigation lead to the suite.
  await page.getByTestId('nav-suite').click();
  await page.waitForURL((url) => url.pathname === '/suite');
  const cards = page.getByTestId('task-card');
  await cards.first().waitFor({ state: 'attached' });
  assert.equal(await page.getByTestId('nav-suite').getAttribute('aria-current'), 'page');

  const total = await cards.count();
  assert.ok(total > 0, 'no task listed');
  const ids = await cards.evaluateAll((cs) => cs.map((c) => c.dataset.taskId));
  assert.equal(new Set(ids).size, ids.length, 'a task is listed twice');
  assert.ok(ids.includes(LAKE_TASK), `${LAKE_TASK} is not listed`);
  await expectText(page.getByTestId('task-count'), `Showing all ${total} tasks.`);
  // Every group is one environment; each task shows its budget, pass and score in words.
  const groups = page.getByTestId('env-group');
  assert.ok((await groups.count()) > 1);
  const lake = page.locator(`[data-task-id="${LAKE_TASK}"]`);
  assert.equal(await lake.locator('xpath=ancestor::section[1]').getAttribute('data-env'), 'FrozenLake-v1');
  await expectText(lake.getByTestId('task-pass'), 'Reach the goal');
  await expectText(lake.getByTestId('task-score'), /^70 \+ 30 × efficiency vs\. the oracle's \d+ decisions? \(this task's seed\); partial credit by distance closed/);
  await expectText(lake.getByTestId('task-budget'), /^\d+ decisions, no frame skip$/);

  // Filter by dynamics: only dynamic tasks remain, and the URL says so.
  await page.getByTestId('filter-dynamics').selectOption('dynamic');
  await page.waitForURL((url) => url.searchParams.get('dynamics') === 'dynamic');
  await expectText(page.getByTestId('task-count'), /^Showing \d+ of \d+ tasks \(dynamics: dynamic\)\.$/);
  const dynamics = await cards.evaluateAll((cs) => cs.map((c) => c.dataset.dynamics));
  assert.ok(dynamics.length > 0, 'no dynamic task');
  assert.ok(dynamics.length < total, 'the filter kept everything');
  assert.deepEqual([...new Set(dynamics)], ['dynamic']);
  assert.equal(await page.locator(`[data-task-id="${LAKE_TASK}"]`).count(), 0);

  // A reload keeps the filter; adding a second one narrows further; clearing restores all.
  await page.reload();
  await cards.first().waitFor({ state: 'attached' });
  assert.equal(await page.getByTestId('filter-dynamics').inputValue(), 'dynamic');
  assert.equal(await cards.count(), dynamics.length);
  await page.getByTestId('filter-memory').selectOption('single');
  await page.waitForURL((url) => url.searchParams.get('memory') === 'single');
  const both = await page
    .locator('[data-testid="task-card"]')
    .evaluateAll((cs) => cs.map((c) => [c.dataset.memory, c.dataset.dynamics]));
  for (const [m, d] of both) assert.deepEqual([m, d], ['single', 'dynamic']);
  // Cleared filters keep the suite's id (links carry the suite).
  await page.getByTestId('clear-filters').click();
  await page.waitForURL((url) => url.search === '?suite=playbench-core');
  await expectText(page.getByTestId('task-count'), `Showing all ${total} tasks.`);

  // The family filter.
  await page.getByTestId('filter-family').selectOption('FrozenLake');
  await page.waitForURL((url) => url.searchParams.get('family') === 'FrozenLake');
  const families = await cards.evaluateAll((cs) => cs.map((c) => c.dataset.family));
  assert.ok(families.length > 0);
  assert.deepEqual([...new Set(families)], ['FrozenLake']);
});

test('the suite shows the baselines and reports filters it does not understand', { timeout: TIMEOUT }, async () => {
  const page = await open('/suite?dynamics=fast');
  const alert = page.getByRole('alert').filter({ hasText: 'dynamics="fast"' });
  await alert.waitFor();
  await alert.getByRole('link', { name: 'Show all tasks' }).waitFor();
  // The bad filter is ignored: every task is listed.
  await expectText(page.getByTestId('task-count'), /^Showing all \d+ tasks\.$/);
  // The baselines: a table of both agents, or a note that there are none yet.
  await page.locator('[data-testid="baseline-table"], [data-testid="no-baselines"]').first().waitFor();
  if ((await page.getByTestId('baseline-table').count()) > 0) {
    const heads = await page.locator('.baseline-table thead th').allTextContents();
    assert.ok(heads.includes('Random policy') && heads.includes('Oracle'), heads.join('|'));
    const overall = await page.locator('.baseline-table tr.overall td').allTextContents();
    assert.equal(overall.length, 4);
  }
});

test('a demo plays from "Start State" at the chosen speed and scrubs to its outcome', { timeout: TIMEOUT }, async () => {
  const page = await open(`/task?id=${LAKE_TASK}`);
  await expectText(page.getByTestId('task-id'), LAKE_TASK);
  await expectText(page.getByTestId('task-pass'), 'Reach the goal');
  const demo = page.getByTestId('demo').first();
  await demo.waitFor();
  const caption = demo.getByTestId('demo-caption');
  await expectText(caption, 'Start State');
  const [first, len] = await demoFrame(demo);
  assert.equal(first, 1);
  assert.ok(len >= 4, `a demo of ${len} frames`);
  // The canvas holds the captioned frame: the picture plus a 40-pixel strip.
  const size = await demo.getByTestId('demo-frame').evaluate((c) => [c.width, c.height]);
  assert.deepEqual(size, [256, 296]);
  assert.equal(await demo.getByTestId('demo-speed').inputValue(), '1');

  // Play at 4 FPS: about four frames a second.
  await demo.getByTestId('demo-speed').selectOption('4');
  await demo.getByTestId('demo-play').click();
  assert.equal(await demo.getByTestId('demo-play').getAttribute('aria-pressed'), 'true');
  const t0 = Date.now();
  await page.waitForFunction(
    () => /^Frame [2-9]/.test(document.querySelector('[data-testid="demo-counter"]').textContent),
    null,
    { timeout: 5_000 },
  );
  await page.waitForTimeout(Math.max(0, 1_000 - (Date.now() - t0)));
  const [after1s] = await demoFrame(demo);
  assert.ok(after1s >= 3 && after1s <= 7, `frame ${after1s} after one second at 4 FPS`);
  await expectText(caption, /^Step \d+: Action: (Left|Down|Right|Up)$|^Victory$/);

  // Pause with the button; step with the keys; Space plays again.
  await demo.getByTestId('demo-play').click();
  assert.equal(await demo.getByTestId('demo-play').getAttribute('aria-pressed'), 'false');
  const [paused] = await demoFrame(demo);
  await page.waitForTimeout(600);
  assert.equal((await demoFrame(demo))[0], paused, 'a paused demo moved');
  await page.getByTestId('demo-frame').first().focus();
  await page.keyboard.press('Home');
  await expectText(caption, 'Start State');
  await page.keyboard.press('ArrowRight');
  await expectText(demo.getByTestId('demo-counter'), `Frame 2 of ${len}`);
  await expectText(caption, /^Step 1: Action: /);
  await page.keyboard.press('ArrowLeft');
  await expectText(demo.getByTestId('demo-counter'), `Frame 1 of ${len}`);
  await page.keyboard.press('Space');
  await page.waitForFunction(
    () => !/^Frame 1 /.test(document.querySelector('[data-testid="demo-counter"]').textContent),
    null,
    { timeout: 5_000 },
  );
  await demo.getByTestId('demo-play').click();

  // Scrub to the end: the outcome caption.
  await scrubTo(demo.getByTestId('demo-scrub'), len - 1);
  await expectText(demo.getByTestId('demo-counter'), `Frame ${len} of ${len}`);
  await expectText(caption, 'Victory');
  await scrubTo(demo.getByTestId('demo-scrub'), 0);
  await expectText(caption, 'Start State');

  // The way to play it.
  await page.getByTestId('play-task').click();
  await page.waitForURL((url) => url.pathname === '/task/play' && url.searchParams.get('id') === LAKE_TASK);
  await expectText(page.getByTestId('decision'), '1');
});

test('a task is played to a pass by keyboard and scored as for an agent', { timeout: TIMEOUT }, async () => {
  const page = await open(`/task/play?id=${LAKE_TASK}`);
  await expectText(page.getByTestId('task-title'), /Frozen Lake/);
  await expectText(page.getByTestId('decision'), '1');
  await expectText(page.getByTestId('decision-text'), /^Decision 1 of \d+$/);
  await expectText(page.getByTestId('task-reward'), 'hidden');
  const buttons = await page
    .locator('ul.actions button')
    .evaluateAll((bs) => bs.map((b) => [b.querySelector('.action-name').textContent, b.querySelector('.action-keys').textContent]));
  assert.deepEqual(buttons, [
    ['Left', '←'],
    ['Down', '↓'],
    ['Right', '→'],
    ['Up', '↑'],
  ]);
  assert.equal(await page.getByTestId('result').count(), 0);

  for (const [i, key] of LAKE_KEYS.entries()) {
    await page.keyboard.press(key);
    await expectText(page.getByTestId('decisions-used'), String(i + 1));
    if (i < LAKE_KEYS.length - 1) await expectText(page.getByTestId('task-reward'), 'hidden');
  }
  const result = page.getByTestId('result');
  await expectText(result.getByTestId('verdict'), 'passed');
  await expectText(result.getByTestId('score'), '100');
  await expectText(result.getByTestId('failure'), 'none');
  await expectText(result.getByTestId('result-decisions'), /^6 of \d+$/);
  assert.equal(await result.getAttribute('data-passed'), 'true');
  await expectText(page.getByTestId('task-reward'), '1');

  // Keys after the end change nothing; the action buttons are disabled.
  assert.equal(await page.getByTestId('action-0').isDisabled(), true);
  await page.keyboard.press('ArrowLeft');
  await page.waitForTimeout(100);
  await expectText(page.getByTestId('decisions-used'), '6');

  // The episode file, its record as an agent's would be.
  const link = page.getByTestId('download-episode');
  assert.equal(await link.getAttribute('download'), `${LAKE_TASK}-episode.json`);
  const file = await dataLinkJson(link);
  assert.equal(file.format, 'playbench-episode-file/1');
  assert.equal(file.task.task, LAKE_TASK);
  const record = file.record;
  assert.equal(record.format, 'playbench-episode/1');
  assert.equal(record.task, LAKE_TASK);
  assert.equal(record.agent, 'human');
  assert.equal(record.passed, true);
  assert.equal(record.score, 100);
  assert.equal(record.failure, null);
  assert.deepEqual(
    record.decisions.map((d) => d.action),
    ['Down', 'Down', 'Right', 'Right', 'Down', 'Right'],
  );
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  assert.equal(download.suggestedFilename(), `${LAKE_TASK}-episode.json`);
  // The downloaded file opens where a user would open it: the replay viewer.
  const viewer = await page.context().newPage();
  await viewer.goto(page.url().replace(/\/task\/play.*$/, '/episode'));
  await viewer.getByTestId('episode-file').setInputFiles(await download.path());
  await expectText(viewer.getByTestId('verdict'), 'Verified');
  await viewer.close();

  // Play again: a fresh episode.
  await page.getByTestId('play-again').click();
  await expectText(page.getByTestId('decision'), '1');
  assert.equal(await page.getByTestId('result').count(), 0);
  await expectText(page.getByTestId('task-reward'), 'hidden');
  assert.equal(await page.getByTestId('action-0').isDisabled(), false);

  // Falling into a hole fails, with the failure mode named.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await expectText(result.getByTestId('verdict'), 'failed');
  assert.equal(await result.getAttribute('data-failure'), 'early_termination');
  await expectText(result.getByTestId('failure'), /^early termination/);
});

test('record-a-demo turns the played actions into a clip', { timeout: TIMEOUT }, async () => {
  const page = await open(`/task/play?id=${LAKE_TASK}&record=1`);
  await expectText(page.getByTestId('decision'), '1');
  assert.equal(await page.getByTestId('record-toggle').isChecked(), true);
  await page.getByTestId('demo-empty').waitFor();

  await page.getByTestId('frame').focus();
  for (const key of ['ArrowDown', 'ArrowDown', 'ArrowRight']) await page.keyboard.press(key);
  await expectText(page.getByTestId('decisions-used'), '3');
  const clip = JSON.parse(await page.getByTestId('demo-json').textContent());
  assert.deepEqual(clip.actions, ['Down', 'Down', 'Right']);
  assert.equal(clip.seed, 0);
  assert.deepEqual(clip.prefix, []);
  assert.equal(clip.label, 'a person playing');

  // The label is editable (typing in it plays nothing), and the download matches.
  await page.getByTestId('demo-label').fill('down twice then right');
  await expectText(page.getByTestId('decisions-used'), '3');
  await expectText(page.getByTestId('demo-json'), /"label": "down twice then right"/);
  const link = page.getByTestId('download-demo');
  assert.equal(await link.getAttribute('download'), `${LAKE_TASK}-demo.json`);
  const downloaded = await dataLinkJson(link);
  assert.deepEqual(downloaded, { ...clip, label: 'down twice then right' });

  // Recording off: the clip goes, the URL loses record=1; on again, it is back.
  await page.getByTestId('record-toggle').uncheck();
  await page.waitForURL((url) => !url.searchParams.has('record'));
  assert.equal(await page.getByTestId('recorder').count(), 0);
  await page.getByTestId('record-toggle').check();
  await page.waitForURL((url) => url.searchParams.get('record') === '1');
  await expectText(page.getByTestId('decisions-used'), '3');
  const again = JSON.parse(await page.getByTestId('demo-json').textContent());
  assert.deepEqual(again.actions, ['Down', 'Down', 'Right']);
});

test('suites by id: /suite lists the built-in suites, links carry the suite, an unknown one says so', { timeout: TIMEOUT }, async () => {
  const page = await open('/suite');
  await expectText(page.getByTestId('suite-id'), 'playbench-core');
  const entries = page.getByTestId('suite-entry');
  assert.ok((await entries.count()) >= 1);
  const core = page.locator('[data-testid=suite-entry][data-suite=playbench-core]');
  assert.equal(await core.getByRole('link').getAttribute('aria-current'), 'page');
  assert.equal(await core.getByRole('link').getAttribute('href'), '/suite?suite=playbench-core');
  // Every task link names the suite it is from.
  const hrefs = await page.locator('.task-list a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  assert.ok(hrefs.length > 10);
  for (const href of hrefs) assert.match(href, /[?&]suite=playbench-core(&|$)/, href);
  assert.equal(await page.getByTestId('suite-run-link').getAttribute('href'), '/run/suite?suite=playbench-core');
  assert.equal(await page.getByTestId('suite-study-link').getAttribute('href'), '/study?suite=playbench-core');

  // Another built-in suite by id: its own tasks, its links naming it.
  await page.goto(`${harness.url()}/suite?suite=gameverse`);
  await expectText(page.getByTestId('suite-id'), 'gameverse');
  const other = await page.locator('.task-list a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  assert.ok(other.length > 0);
  for (const href of other) assert.match(href, /[?&]suite=gameverse(&|$)/, href);
  assert.equal(await page.getByTestId('suite-run-link').getAttribute('href'), '/run/suite?suite=gameverse');

  // The same suite by id; its task page, play page and run page keep the suite.
  await page.goto(`${harness.url()}/task?id=${LAKE_TASK}&suite=playbench-core`);
  await expectText(page.getByTestId('task-title'), /Frozen Lake/);
  assert.equal(
    await page.getByTestId('play-task').getAttribute('href'),
    `/task/play?id=${LAKE_TASK}&suite=playbench-core`,
  );
  assert.equal(
    await page.getByTestId('run-task').getAttribute('href'),
    `/run?task=${LAKE_TASK}&suite=playbench-core`,
  );
  await page.getByTestId('play-task').click();
  await page.waitForURL((url) => url.pathname === '/task/play');
  for (const key of LAKE_KEYS) await page.keyboard.press(key);
  await expectText(page.getByTestId('result').getByTestId('verdict'), 'passed');
  // The shared episode names the task in its suite and version.
  const link = await page.getByTestId('share-link').inputValue();
  await page.goto(link);
  await expectText(page.getByTestId('replay-task'), LAKE_TASK);
  const title = page.locator('.replay-title a');
  assert.equal(await title.getAttribute('href'), `/task?id=${LAKE_TASK}&suite=playbench-core`);

  // An unknown suite is an error with the built-in ones named.
  await page.goto(`${harness.url()}/suite?suite=no-such-suite`);
  const alert = page.getByRole('alert').filter({ hasText: 'Unknown suite' });
  await alert.waitFor();
  assert.match(await alert.innerText(), /no-such-suite[\s\S]*playbench-core/);
  await page.goto(`${harness.url()}/task/play?id=${LAKE_TASK}&suite=no-such-suite`);
  await page.getByRole('alert').filter({ hasText: 'Unknown suite' }).waitFor();
});

test('unknown tasks and broken task links show an alert with a way back', { timeout: TIMEOUT }, async () => {
  const page = await open('/task?id=no-such-task');
  const alert = page.getByRole('alert').filter({ hasText: 'no-such-task' });
  await alert.waitFor();
  assert.match(await alert.innerText(), /Unknown task/);
  await alert.getByRole('link', { name: /benchmark suite/ }).click();
  await page.waitForURL((url) => url.pathname === '/suite');
  await page.getByTestId('task-count').waitFor();

  await page.goto(`${harness.url()}/task/play?id=frozenlake-4x4-det-s999`);
  const unknown = page.getByRole('alert').filter({ hasText: 'Unknown task' });
  await unknown.waitFor();
  // A close id is offered.
  await unknown.getByRole('link', { name: LAKE_TASK, exact: true }).waitFor();

  await page.goto(`${harness.url()}/task`);
  await page.getByRole('alert').filter({ hasText: 'No task chosen' }).waitFor();
  await page.goto(`${harness.url()}/task/play?id=`);
  await page.getByRole('alert').filter({ hasText: 'No task chosen' }).waitFor();
  await page.goto(`${harness.url()}/task/play?id=%E2%9C%97%20%22%3C`);
  await page.getByRole('alert').filter({ hasText: 'Unknown task' }).waitFor();
});
