// End-to-end checks of model runs from the browser against the scripted endpoint of
// tests/servers/scripted-openai.mjs, served on another origin (so CORS preflights
// really happen): endpoint profiles and "test connection", one task watched turn by
// turn for every scripted behaviour and provider shape, clear errors, the key never
// leaking, and a suite run with concurrency 4 that survives a reload.
//   node --test tests/e2e/run.test.mjs   (after the Trunk build; see support.mjs)

import { after, afterEach, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { downloaded, openPage, pageHarness, saveProfile } from './support.mjs';
import { startScripted } from './scripted.mjs';

const LAKE_TASK = 'frozenlake-4x4-det-s0';
const LAKE_ROUTE = 'seq:Right,Right,Down,Down,Down,Right';
const KEY = 'sk-LEAK-canary-5521-do-not-store';
const TIMEOUT = 90_000;

const harness = pageHarness({ before, after, afterEach });
const open = harness.open;
let scripted;
before(async () => {
  scripted = await startScripted();
});
after(async () => {
  await scripted?.close();
});
beforeEach(async () => {
  await scripted.reset();
});

/** Saves the profile `name` on /models and returns the page. */
const profile = (fields) => saveProfile(open, fields);

const base = (provider = 'openai') => `${scripted.url}/${provider === 'gemini' ? 'v1beta' : 'v1'}`;

/**
 * Opens /run for `task` with the saved profile and starts it; problems matching
 * `allow` (errors the test provokes) do not fail the test.
 */
async function startRun(task = LAKE_TASK, key = '', allow = null) {
  const page = await open(`/run?task=${task}`);
  if (allow) harness.allow(allow);
  if (key) await page.getByTestId('run-key').fill(key);
  await page.getByTestId('run-start').click();
  return page;
}

async function finished(page) {
  await page.getByTestId('run-result').waitFor({ timeout: TIMEOUT });
  return {
    verdict: (await page.getByTestId('run-verdict').textContent()).trim(),
    score: (await page.getByTestId('run-score').textContent()).trim(),
    // Absent when the episode passed (no waiting for it).
    failure: (await page.getByTestId('run-failure').count()) ? (await page.getByTestId('run-failure').textContent()).trim() : '',
  };
}

/** Discards the saved suite run, if any, confirming in the page. */
async function discardSaved(page) {
  const discard = page.getByTestId('suite-discard');
  await discard.waitFor();
  if (!(await discard.isEnabled())) return;
  await discard.click();
  await page.getByTestId('suite-confirm-yes').click();
  await page.getByTestId('suite-confirm').waitFor({ state: 'detached' });
}

test('test connection checks reachability, the key, one image and several', { timeout: TIMEOUT }, async () => {
  const page = await profile({ base: base(), model: 'valid:ok', key: KEY });
  await page.getByTestId('profile-test').click();
  const report = page.getByTestId('connection-report');
  await report.getByText('Connection works').waitFor({ timeout: 20_000 });
  assert.equal(await report.locator('.check-ok').count(), 4);
  const log = await scripted.log();
  assert.deepEqual(log.map((r) => r.images), [1, 2]);
  assert.ok(log.every((r) => r.key === KEY), 'the key went to the endpoint');
});

test('connection problems get specific messages', { timeout: TIMEOUT }, async () => {
  const cases = [
    [{ base: `${scripted.url}/nocors/v1`, model: 'valid:ok' }, 'Reachable', /CORS.*OLLAMA_ORIGINS=http:\/\/127\.0\.0\.1:\d+ ollama serve.*vLLM.*LM Studio.*llama\.cpp/s],
    [{ base: 'http://127.0.0.1:9/v1', model: 'valid:ok' }, 'Reachable', /Nothing answered at http:\/\/127\.0\.0\.1:9\/v1/],
    [{ base: base(), model: '401', key: KEY }, 'Key accepted', /authentication failed.*\*\*\*.*Check the API key/s],
    [{ base: base(), model: 'no-such-model' }, 'Takes an image', /unknown model.*Check the model name/s],
    [{ base: base(), model: 'noimages' }, 'Takes an image', /does not accept images.*vision model/s],
    [{ base: base(), model: 'notjson' }, 'Takes an image', /not JSON.*web page/s],
  ];
  for (const [fields, check, message] of cases) {
    const page = await profile(fields);
    harness.allow(/./); // the refusals are the point here
    await page.getByTestId('profile-test').click();
    const report = page.getByTestId('connection-report');
    await report.getByText('Connection problems').waitFor({ timeout: 20_000 });
    const line = report.locator(`[data-check="${check}"]`);
    assert.equal(await line.getAttribute('class'), 'check-failed', `${fields.model} at ${fields.base}`);
    const text = await line.textContent();
    assert.match(text, message);
    assert.ok(!(await page.content()).includes(KEY), 'the key is shown nowhere');
    await page.close();
  }
});

test('a missing or refused key is named, in the same words on /models, /run and /run/suite; CORS advice only for CORS', { timeout: 120_000 }, async () => {
  // A proxy that wants a key and answers 500 without CORS headers when none is sent: the
  // browser hides the reply, and the page says what it can (the key), not CORS.
  const hidden = `${scripted.url}/hidecors/v1`;
  const page = await profile({ base: hidden, model: 'key:sk-good' });
  harness.allow(/./); // the refusals are the point here
  await page.getByTestId('profile-test').click();
  const report = page.getByTestId('connection-report');
  await report.getByText('Connection problems').waitFor({ timeout: 20_000 });
  assert.equal(await report.locator('[data-check="Reachable"]').getAttribute('class'), 'check-ok');
  const keyLine = report.locator('[data-check="Key accepted"]');
  assert.equal(await keyLine.getAttribute('class'), 'check-failed');
  const said = await keyLine.textContent();
  assert.match(said, /No API key was sent/);
  assert.doesNotMatch(said, /Ollama|OLLAMA_ORIGINS|vLLM/);
  assert.ok((await scripted.log()).every((l) => !l.auth), 'an empty key is not sent');
  const sentence = 'No API key was sent: the profile has none.';

  const run = await startRun(LAKE_TASK, '', /./);
  assert.match((await finished(run)).failure, /api/i);
  const runError = await run.getByTestId('run-error').textContent();
  assert.ok(runError.includes(sentence), runError);
  assert.doesNotMatch(runError, /Ollama/);

  const suite = await open('/run/suite');
  harness.allow(/./);
  await discardSaved(suite);
  await suite.getByTestId('sel-contains').fill('frozenlake-4x4-det-s0');
  await suite.getByTestId('suite-start').click();
  const suiteError = suite.getByTestId('suite-error');
  await suiteError.waitFor({ timeout: 30_000 });
  assert.ok((await suiteError.textContent()).includes(sentence), await suiteError.textContent());
  await suite.getByTestId('suite-phase').getByText('Complete').waitFor({ timeout: 60_000 });
  await discardSaved(suite);

  // A wrong key, refused with a 400 by the proxy: named as the key.
  await scripted.reset();
  const wrong = await profile({ base: base(), model: 'key:sk-good', key: 'sk-wrong' });
  harness.allow(/./);
  await wrong.getByTestId('profile-test').click();
  const line = wrong.getByTestId('connection-report').locator('[data-check="Key accepted"]');
  await line.waitFor({ timeout: 20_000 });
  assert.equal(await line.getAttribute('class'), 'check-failed');
  assert.match(await line.textContent(), /400.*Check the API key: the endpoint refused it/s);
  assert.ok((await scripted.log()).every((l) => l.key === 'sk-wrong'));
  await profile({ base: base(), model: 'key:sk-good', key: '', remember: false });
});

test('a model plays a task to the goal, every turn shown, and shares it', { timeout: TIMEOUT }, async () => {
  await profile({ base: base(), model: LAKE_ROUTE, priceIn: '2' });
  const page = await startRun();
  const r = await finished(page);
  assert.deepEqual([r.verdict, r.score], ['Passed', '100']);
  const turns = page.getByTestId('turn');
  assert.equal(await turns.count(), 6);
  assert.match(await turns.nth(0).textContent(), /First turn.*\d+ image\(s\).*ms.*in \/ 5 out tokens/s);
  assert.match(await page.getByTestId('reply').nth(2).textContent(), /^\[Action: Down\]\nI follow the plan \(step 3\)\./);
  assert.equal((await page.getByTestId('turn-action').nth(5).textContent()).trim(), 'Action: Right');
  assert.match(await page.getByTestId('run-usage').textContent(), /^6 requests · \d+ in \/ 30 out tokens · \$0\.\d{4}/);
  assert.match(await page.getByTestId('run-steps').textContent(), /Decision 6 of \d+/);
  const work = Number(await page.getByTestId('work-mean').textContent());
  assert.ok(work > 0, 'the app measured its own work');
  // Demonstrations as images, in order, and all six requests preflighted from this origin.
  const log = await scripted.log();
  assert.equal(log.length, 6);
  assert.ok(log[0].images > 1 && log[1].images === log[0].images + 1, JSON.stringify(log.map((l) => l.images)));
  const file = JSON.parse(await downloaded(page, 'run-download'));
  assert.equal(file.format, 'playbench-episode-file/1');
  assert.equal(file.record.agent, `endpoint:openai:${LAKE_ROUTE}`);
  assert.equal(file.settings.history, 'full');
  assert.equal(file.settings.image_format, 'image/png');
  assert.equal(file.record.decisions[0].raw, '[Action: Right]\nI follow the plan (step 1).');
  const share = await page.getByTestId('share-link').inputValue();
  assert.match(share, /^http:\/\/127\.0\.0\.1:\d+\/episode#e=pb1\./);
  // The link re-verifies in the replay viewer.
  const viewer = await open(share.replace(/^http:\/\/127\.0\.0\.1:\d+/, ''));
  await viewer.getByText('Verified').first().waitFor({ timeout: 20_000 });
  // Continue with a model from decision 2 (after Right, Right): Down x3, Right.
  await profile({ base: base(), model: 'seq:Down,Down,Down,Right' });
  const fork = await open(`/run?fork=2#${share.split('#')[1]}`);
  assert.match(await fork.getByTestId('fork-note').textContent(), /from decision 2 of 6/);
  await fork.getByTestId('run-start').click();
  const forked = await finished(fork);
  assert.equal(forked.verdict, 'Passed');
  assert.equal(await fork.getByTestId('turn').count(), 4);
  const forkFile = JSON.parse(await downloaded(fork, 'run-download'));
  assert.equal(forkFile.task.id, `${LAKE_TASK}~fork2`);
  assert.equal(forkFile.settings.forked_from.step, 2);
});

test('malformed replies are retried with the retry message and kept', { timeout: TIMEOUT }, async () => {
  await profile({ base: base(), model: 'malformed-then-valid:Left' });
  const page = await startRun();
  const r = await finished(page);
  assert.match(r.failure, /time out/);
  const first = page.getByTestId('turn').nth(0);
  assert.equal(await first.getAttribute('data-state'), 'rejected');
  assert.match(await first.getByTestId('turn-problem').textContent(), /does not start with \[Action: \.\.\.\]/);
  assert.match(await page.getByTestId('turn').nth(1).textContent(), /First turn · format retry 1 of 3/);
  const log = await scripted.log();
  // The retry carries the rejected reply and the retry message.
  assert.equal(log[1].messages, 3, JSON.stringify(log.map((l) => l.messages)));
  const file = JSON.parse(await downloaded(page, 'run-download'));
  assert.deepEqual(file.record.decisions[0].rejected, ['I think I should go down.']);
  assert.equal(file.record.decisions[0].action, 'Left');
});

test('rate limits and server errors are retried after a wait; hangs time out', { timeout: TIMEOUT }, async () => {
  const provoked = /HTTP (429|500)|status of (429|500)/;
  await profile({ base: base(), model: '429:Left' });
  let page = await startRun(LAKE_TASK, '', provoked);
  await page.getByText(/transport retry 1 of 3/).waitFor({ timeout: 20_000 });
  await page.getByTestId('turn-action').first().waitFor({ timeout: 20_000 });
  assert.match(await page.getByTestId('turn').nth(1).textContent(), /waited 1\.0 s before sending/);
  assert.match(await page.getByTestId('turn-problem').first().textContent(), /rate limited/);
  assert.match((await finished(page)).failure, /time out/);
  await page.close();

  await profile({ base: base(), model: '500:Left' });
  page = await startRun(LAKE_TASK, '', provoked);
  await page.getByText(/transport retry 2 of 3/).waitFor({ timeout: 20_000 });
  await page.getByTestId('turn-action').first().waitFor({ timeout: 20_000 });
  assert.match(await page.getByTestId('turn').nth(2).textContent(), /waited 2\.0 s/);
  assert.match((await finished(page)).failure, /time out/);
  await page.close();

  await profile({ base: base(), model: 'hang', timeout: '1' });
  page = await startRun(LAKE_TASK, '', /ERR_ABORTED|net::/); // the aborted requests
  const r = await finished(page);
  assert.equal(r.verdict, 'Not passed');
  assert.match(r.failure, /api/i);
  assert.match(await page.getByTestId('run-error').textContent(), /did not answer within 1 s/);
  assert.equal(await page.getByTestId('turn').count(), 4, 'the first try and three retries');
});

test('answers cut off mid-body, with truncated JSON or of 10 MB are retried, then named', { timeout: TIMEOUT }, async () => {
  for (const [model, said] of [
    ['drop', /broke off while the answer \(HTTP 200\) was arriving/],
    ['truncated', /broke off after 40 bytes/],
    ['huge:Left', /larger than 8 MB/],
  ]) {
    await profile({ base: base(), model });
    const page = await startRun(LAKE_TASK, '', /ERR_|net::/); // the cut connections
    await page.getByText(/transport retry 3 of 3/).waitFor({ timeout: 30_000 });
    const r = await finished(page);
    assert.equal(r.verdict, 'Not passed', model);
    assert.match(r.failure, /api/i, model);
    assert.match(await page.getByTestId('run-error').textContent(), said, model);
    await page.close();
  }
});

test('context overflow is token_overflow; Anthropic and Gemini shapes play through', { timeout: TIMEOUT }, async () => {
  await profile({ base: base(), model: 'overflow' });
  let page = await startRun(LAKE_TASK, '', /HTTP 400|status of 400/);
  let r = await finished(page);
  assert.match(r.failure, /context/i);
  const file = JSON.parse(await downloaded(page, 'run-download'));
  assert.equal(file.record.failure, 'token_overflow');
  await page.close();
  await scripted.reset();
  for (const provider of ['anthropic', 'gemini']) {
    await profile({ provider, base: base(provider), model: LAKE_ROUTE, key: KEY });
    page = await startRun(LAKE_TASK, KEY);
    r = await finished(page);
    assert.deepEqual([r.verdict, r.score], ['Passed', '100'], provider);
    const log = await scripted.log();
    assert.ok(log.every((l) => l.provider === provider && l.key === KEY), provider);
    await scripted.reset();
    await page.close();
  }
});

test('demonstrations go as WebM video to Gemini, as images to the others', { timeout: TIMEOUT }, async () => {
  await profile({ provider: 'gemini', base: base('gemini'), model: LAKE_ROUTE });
  let page = await open(`/run?task=${LAKE_TASK}`);
  await page.getByTestId('run-video').check();
  await page.getByTestId('run-video-fps').fill('10');
  await page.getByTestId('run-video-fps').blur();
  await page.getByTestId('run-start').click();
  const r = await finished(page);
  assert.equal(r.verdict, 'Passed');
  const log = await scripted.log();
  assert.deepEqual(log[0].mimes.sort(), ['image/png', 'video/webm']);
  let file = JSON.parse(await downloaded(page, 'run-download'));
  assert.equal(file.settings.demos, 'video (webm, 10 fps)');
  // The first turn names videos, not frames.
  assert.equal(log[0].images, 3, 'two clips and the initial state');
  // Encoded by bench::video (Playbench's muxer, VP8 key frames), not recorded by the
  // browser: WebM's EBML header, the VP8 track, our muxer's name.
  for (const data of log[0].videos) {
    const webm = Buffer.from(data, 'base64');
    assert.equal(webm.subarray(0, 4).toString('hex'), '1a45dfa3');
    assert.ok(webm.includes('V_VP8') && webm.includes('playbench'));
  }
  await page.close();
  await scripted.reset();
  await profile({ base: base(), model: LAKE_ROUTE });
  page = await startRun();
  await finished(page);
  assert.ok((await scripted.log()).every((l) => !l.mimes.includes('video/webm')));
  file = JSON.parse(await downloaded(page, 'run-download'));
  assert.equal(file.settings.demos, 'images (video asked for, but openai takes no video)');
  await page.getByTestId('run-video').uncheck();
});

test('JPEG images, a history window and text observations are sent as set', { timeout: TIMEOUT }, async () => {
  await profile({ base: base(), model: LAKE_ROUTE });
  const page = await open(`/run?task=${LAKE_TASK}`);
  await page.getByTestId('run-image-format').selectOption('jpeg');
  await page.getByTestId('run-history').fill('2');
  await page.getByTestId('run-history').blur();
  await page.getByTestId('run-observation').selectOption('both');
  await page.getByTestId('run-start').click();
  await finished(page);
  const log = await scripted.log();
  assert.ok(log.every((l) => l.mimes.length === 1 && l.mimes[0] === 'image/jpeg'));
  // First turn + its answer, then the last two turns: at most 5 messages.
  assert.ok(log.at(-1).messages <= 5, JSON.stringify(log.map((l) => l.messages)));
  const file = JSON.parse(await downloaded(page, 'run-download'));
  assert.equal(file.settings.image_format, 'image/jpeg');
  assert.equal(file.settings.history, 'last 2');
  assert.equal(file.settings.observation, 'both');
  // Put the defaults back for the other tests.
  await page.getByTestId('run-image-format').selectOption('png');
  await page.getByTestId('run-history').fill('');
  await page.getByTestId('run-history').blur();
  await page.getByTestId('run-observation').selectOption('image');
});

test('the key is never stored, exported or put in a link unless remembered', { timeout: TIMEOUT }, async () => {
  await profile({ base: base(), model: LAKE_ROUTE, key: KEY });
  const page = await startRun(LAKE_TASK, KEY);
  await finished(page);
  assert.ok((await scripted.log()).every((l) => l.key === KEY));
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  assert.ok(!storage.includes(KEY), 'the key is in storage');
  assert.ok(!page.url().includes(KEY));
  const file = await downloaded(page, 'run-download');
  assert.ok(!file.includes(KEY), 'the key is in the episode file');
  const share = await page.getByTestId('share-link').inputValue();
  assert.ok(!share.includes(KEY));
  const decoded = Buffer.from(share.split('pb1.')[1].replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  assert.ok(!decoded.includes(KEY));
  // A suite run with the key: its stored plan and episodes and its exports hold no key.
  const suite = await open('/run/suite');
  await discardSaved(suite);
  await suite.getByTestId('run-key').fill(KEY);
  await suite.getByTestId('sel-contains').fill('frozenlake-4x4-det-s0');
  await suite.getByTestId('suite-start').click();
  await suite.getByTestId('suite-phase').getByText('Complete').waitFor({ timeout: TIMEOUT });
  for (const exported of [await downloaded(suite, 'export-json'), await downloaded(suite, 'export-csv')]) {
    assert.ok(!exported.includes(KEY), 'the key is in an export');
  }
  const stored = await suite.evaluate(() => JSON.stringify({ ...localStorage }));
  assert.ok(!stored.includes(KEY), 'the key is in the stored run');
  assert.ok(stored.includes('playbench.suite-run'), 'the run was stored');
  await discardSaved(suite);
  // A reload forgets it.
  const models = await open('/models');
  assert.equal(await models.getByTestId('profile-key').inputValue(), '');
  // Remembered on request, under the keys entry only.
  await profile({ base: base(), model: LAKE_ROUTE, key: KEY, remember: true });
  const again = await open('/models');
  assert.equal(await again.getByTestId('profile-key').inputValue(), KEY);
  const entries = await again.evaluate(() => Object.entries(localStorage));
  const holding = entries.filter(([, v]) => v.includes(KEY)).map(([k]) => k);
  assert.deepEqual(holding, ['playbench.endpoint-keys']);
  await profile({ base: base(), model: LAKE_ROUTE, key: '', remember: false });
});

test('a suite run with concurrency 4 resumes after a reload without losing or repeating episodes', { timeout: 180_000 }, async () => {
  await profile({ base: base(), model: 'delay:40:Left' });
  const page = await open('/run/suite');
  await discardSaved(page);
  await page.getByTestId('sel-contains').fill('frozenlake-4x4');
  const selected = Number((await page.getByTestId('sel-count').textContent()).match(/\d+/)[0]);
  assert.ok(selected >= 4, `${selected} tasks`);
  await page.getByTestId('run-episodes').fill('2');
  assert.equal(await page.getByTestId('run-concurrency').inputValue(), '4');
  await page.getByTestId('suite-start').click();
  const total = selected * 2;
  assert.equal(Number(await page.getByTestId('suite-total').textContent()), total);
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="suite-done"]')?.textContent) >= 3, null, { timeout: 60_000 });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="suite-active"] li').length === 4);
  // Reload only once an episode in flight has been answered (its usage stored): a new
  // episode makes its first request after encoding its demonstration frames, so at a
  // given moment all four may have made none, and then no attempt is cut short.
  await page.waitForFunction(() => Object.entries(localStorage).some(([k, v]) =>
    /^playbench\.suite-run\..+\.unfinished$/.test(k) && Object.keys(JSON.parse(v).in_flight ?? {}).length > 0));
  const before = await page.evaluate(() => Object.fromEntries(Object.entries(localStorage).filter(([k]) => /^playbench\.suite-run\..+\.\d+$/.test(k))));
  assert.ok(Object.keys(before).length >= 3);
  harness.allow(/ERR_ABORTED/); // the requests in flight when the page goes away
  await page.reload();
  await page.getByTestId('resume-note').getByText('resumed').waitFor();
  await page.getByTestId('suite-phase').getByText('Complete').waitFor({ timeout: 150_000 });
  assert.equal(Number(await page.getByTestId('suite-done').textContent()), total);
  const afterRun = await page.evaluate(() => Object.fromEntries(Object.entries(localStorage).filter(([k]) => /^playbench\.suite-run\..+\.\d+$/.test(k))));
  assert.equal(Object.keys(afterRun).length, total);
  for (const [k, v] of Object.entries(before)) assert.equal(afterRun[k], v, `${k} was run again`);
  const results = JSON.parse(await downloaded(page, 'export-json'));
  assert.equal(results.format, 'playbench-results/1');
  assert.equal(results.episodes.length, total);
  const pairs = new Set(results.episodes.map((e) => `${e.record.task}#${e.repeat}`));
  assert.equal(pairs.size, total, 'an episode is missing or repeated');
  assert.equal(results.config.concurrency, 4);
  assert.ok(results.usage.requests >= total);
  // The requests of the episodes cut short by the reload are counted, not lost.
  const cut = results.config.unfinished_attempts;
  assert.ok(cut && cut.attempts >= 1 && cut.usage.requests >= cut.attempts, JSON.stringify(cut));
  assert.match(
    await page.getByTestId('suite-unfinished').textContent(),
    new RegExp(`^Also spent on ${cut.attempts} attempts? cut short by a reload or a stop and started again: ${cut.usage.requests} requests`),
  );
  const csv = await downloaded(page, 'export-csv');
  assert.match(csv, /^# label: /);
  assert.match(csv, /\nsection,name,tasks,episodes,score,pass_rate\noverall,overall,/);
  await page.getByTestId('results-table').waitFor();
  assert.ok((await page.getByTestId('env-chart').locator('li').count()) >= 1);
  assert.equal(await page.getByTestId('audit-link').getAttribute('href'), '/audit');
});

test('two tabs never run one suite run: the second waits, then goes on when the first closes', { timeout: 180_000 }, async () => {
  await profile({ base: base(), model: 'delay:40:Left' });
  const page = await open('/run/suite');
  await discardSaved(page);
  await page.getByTestId('sel-contains').fill('frozenlake-4x4');
  const selected = Number((await page.getByTestId('sel-count').textContent()).match(/\d+/)[0]);
  await page.getByTestId('run-episodes').fill('2');
  await page.getByTestId('suite-start').click();
  const total = selected * 2;
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="suite-done"]')?.textContent) >= 2, null, { timeout: 60_000 });

  const second = await openPage(harness.context());
  await second.page.goto(harness.url() + '/run/suite');
  const other = second.page;
  await other.getByTestId('resume-note').getByText('going on in another tab').waitFor();
  // It plays nothing while the first tab runs, and cannot replace the run.
  await other.waitForTimeout(1000);
  assert.equal(await other.getByTestId('suite-active').locator('li').count(), 0);
  const doneFirst = Number(await page.getByTestId('suite-done').textContent());
  assert.ok(doneFirst > 2, 'the first tab goes on');
  await other.getByTestId('suite-start').click();
  await other.getByText('stop it there (or close that tab) before starting another or discarding it').waitFor();
  assert.equal(await other.getByTestId('suite-confirm').count(), 0, 'no question: the run is not this tab\'s to replace');

  const before = await page.evaluate(() => Object.fromEntries(Object.entries(localStorage).filter(([k]) => /^playbench\.suite-run\..+\.\d+$/.test(k))));
  harness.allow(/ERR_ABORTED/); // the first tab's requests in flight when it closes
  await page.close();
  await other.getByTestId('resume-note').getByText('goes on here where it stopped').waitFor({ timeout: 20_000 });
  await other.getByTestId('suite-phase').getByText('Complete').waitFor({ timeout: 150_000 });
  assert.equal(Number(await other.getByTestId('suite-done').textContent()), total);
  const afterRun = await other.evaluate(() => Object.fromEntries(Object.entries(localStorage).filter(([k]) => /^playbench\.suite-run\..+\.\d+$/.test(k))));
  assert.equal(Object.keys(afterRun).length, total);
  for (const [k, v] of Object.entries(before)) assert.equal(afterRun[k], v, `${k} was run again`);
  const results = JSON.parse(await downloaded(other, 'export-json'));
  const pairs = new Set(results.episodes.map((e) => `${e.record.task}#${e.repeat}`));
  assert.equal(pairs.size, total, 'an episode is missing or repeated');
  const unexpected = second.problems.filter((p) => !/ERR_ABORTED/.test(p));
  await other.close();
  assert.deepEqual(unexpected, [], 'the second tab logged errors');
});

test('the built-in agents run the suite in the tab as baselines', { timeout: TIMEOUT }, async () => {
  const page = await open('/run/suite');
  await discardSaved(page);
  await page.getByTestId('run-agent').selectOption('random');
  await page.getByTestId('run-agent-seed').fill('0');
  await page.getByTestId('sel-contains').fill('frozenlake');
  await page.getByTestId('suite-start').click();
  await page.getByTestId('suite-phase').getByText('Complete').waitFor({ timeout: 60_000 });
  const results = JSON.parse(await downloaded(page, 'export-json'));
  assert.equal(results.kind, 'baseline');
  assert.equal(results.label, 'random (seed 0)');
  assert.equal(results.agent, 'random (seed 0)');
  assert.ok(results.episodes.length >= 4);
  assert.ok(results.episodes.every((e) => e.usage === undefined && e.record.agent.startsWith('random (seed ')));
  assert.equal((await scripted.log()).length, 0, 'no request was sent');
  await discardSaved(page);
});

test('a full storage is said, and the finished episodes stay in the tab for export', { timeout: TIMEOUT }, async () => {
  // The browser's quota runs out after the run's second stored episode.
  const page = await open('/run/suite', {
    setup: (p) => p.addInitScript(() => {
      const setItem = Storage.prototype.setItem;
      let stored = 0;
      Storage.prototype.setItem = function (key, value) {
        if (/^playbench\.suite-run\..+\.\d+$/.test(key) && ++stored > 2) {
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        }
        return setItem.call(this, key, value);
      };
    }),
  });
  await discardSaved(page);
  await page.getByTestId('run-agent').selectOption('random');
  await page.getByTestId('run-agent-seed').fill('0');
  await page.getByTestId('sel-contains').fill('frozenlake');
  await page.getByTestId('suite-start').click();
  await page.getByTestId('suite-phase').getByText('Complete').waitFor({ timeout: 60_000 });
  const alert = await page.getByTestId('suite-save-error').textContent();
  assert.match(alert, /may be full/);
  assert.match(alert, /kept here: export the results below before closing or reloading the tab/);
  const total = Number(await page.getByTestId('suite-total').textContent());
  const results = JSON.parse(await downloaded(page, 'export-json'));
  assert.equal(results.episodes.length, total, 'every finished episode is in the export');
  assert.equal(
    await page.evaluate(() => Object.keys(localStorage).filter((k) => /^playbench\.suite-run\..+\.\d+$/.test(k)).length),
    2,
  );
  await discardSaved(page);
});

test('a saved suite run is deleted only after asking, its results offered first; the form shows it after a reload', { timeout: TIMEOUT }, async () => {
  const page = await open('/run/suite');
  await discardSaved(page);
  await page.getByTestId('run-agent').selectOption('random');
  await page.getByTestId('run-agent-seed').fill('3');
  await page.getByTestId('sel-contains').fill('frozenlake-4x4');
  await page.getByTestId('run-episodes').fill('2');
  const count = await page.getByTestId('sel-count').textContent();
  await page.getByTestId('suite-start').click();
  await page.getByTestId('suite-phase').getByText('Complete').waitFor({ timeout: 60_000 });
  const done = await page.getByTestId('suite-done').textContent();

  // After a reload the form shows the saved run's choices, not the defaults.
  await page.reload();
  await page.getByTestId('suite-phase').getByText('Complete').waitFor();
  assert.equal(await page.getByTestId('sel-contains').inputValue(), 'frozenlake-4x4');
  assert.equal(await page.getByTestId('sel-count').textContent(), count);
  assert.equal(await page.getByTestId('run-agent').inputValue(), 'random');
  assert.equal(await page.getByTestId('run-agent-seed').inputValue(), '3');
  assert.equal(await page.getByTestId('run-episodes').inputValue(), '2');

  // Start a new run: the page asks, says what would be lost and offers the results.
  await page.getByTestId('suite-start').click();
  const confirm = page.getByTestId('suite-confirm');
  await confirm.waitFor();
  assert.match(await confirm.textContent(), new RegExp(`all ${done} of its episodes are finished.*Download its results`, 's'));
  const results = JSON.parse(await downloaded(page, 'suite-confirm-download'));
  assert.equal(results.format, 'playbench-results/1');
  assert.equal(results.episodes.length, Number(done));
  // Keeping it changes nothing.
  await page.getByTestId('suite-confirm-no').click();
  await confirm.waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('suite-done').textContent(), done);
  assert.ok(await page.evaluate(() => localStorage.getItem('playbench.suite-run') !== null));
  // Discarding asks too, and then deletes it; for a short while it can be undone.
  await page.getByTestId('suite-discard').click();
  await page.getByTestId('suite-confirm-yes').click();
  await page.getByTestId('suite-progress').waitFor({ state: 'detached' });
  assert.ok(await page.evaluate(() => localStorage.getItem('playbench.suite-run') === null));
  assert.equal(await page.getByTestId('suite-discard').isDisabled(), true);
  await page.getByTestId('suite-undo-button').click();
  await page.getByTestId('suite-phase').getByText('Complete').waitFor();
  assert.equal(await page.getByTestId('suite-done').textContent(), done);
  assert.equal(await page.getByTestId('sel-contains').inputValue(), 'frozenlake-4x4');
  await discardSaved(page);
  await page.getByTestId('suite-undo').waitFor();
});

test('the run page says what a run will send before it starts', { timeout: TIMEOUT }, async () => {
  await profile({ base: base(), model: LAKE_ROUTE });
  const page = await open(`/run?task=${LAKE_TASK}`);
  const estimate = page.getByTestId('run-estimate');
  await estimate.getByText(/^Before you start/).waitFor();
  assert.match(
    await estimate.textContent(),
    /played like the oracle, 6 requests, \d+ images, about \d+(\.\d)? (KB|MB) \(largest request \d+(\.\d)? (KB|MB)\); using the whole budget, up to \d+ requests/,
  );
  assert.match(await estimate.textContent(), /About [\d,]+ to [\d,]+ input tokens \(\d+ per \d+×\d+ image by OpenAI's rule/);
  assert.equal((await scripted.log()).length, 0, 'nothing was sent');

  // /run/suite estimates the selection on request, and says it again only for it.
  const suite = await open('/run/suite');
  await discardSaved(suite);
  await suite.getByTestId('sel-contains').fill('frozenlake-4x4');
  await suite.getByTestId('run-episodes').fill('2');
  await suite.getByTestId('suite-estimate-button').click();
  const tasks = Number((await suite.getByTestId('sel-count').textContent()).match(/\d+/)[0]);
  assert.match(
    await suite.getByTestId('suite-estimate').textContent(),
    new RegExp(`^For ${tasks * 2} episode\\(s\\): Played like the oracle, \\d+ requests, .* input tokens`),
  );
  await suite.getByTestId('run-episodes').fill('3');
  assert.equal(await suite.getByTestId('suite-estimate').count(), 0, 'an estimate of another selection stays hidden');
  assert.equal((await scripted.log()).length, 0, 'nothing was sent');
});


test('the first request is prepared while the form is filled in, and sent as prepared', { timeout: TIMEOUT }, async () => {
  await profile({ base: base(), model: LAKE_ROUTE });
  const page = await open(`/run?task=${LAKE_TASK}`);
  const prepared = async (not = '') => {
    await page.waitForFunction((old) => {
      const line = document.querySelector('[data-testid="run-ahead"]')?.textContent ?? '';
      return line.startsWith('The first request is prepared') && line !== old;
    }, not);
    return page.getByTestId('run-ahead').textContent();
  };
  const png = await prepared();
  const [, images, kb] = png.match(/^The first request is prepared: (\d+) images, (\d+) KB\.$/);
  // Other image settings, another first request; back to PNG, the same one again.
  await page.getByTestId('run-image-format').selectOption('jpeg');
  const jpeg = await prepared(png);
  assert.match(jpeg, new RegExp(`: ${images} images, \\d+ KB\\.$`));
  await page.getByTestId('run-image-format').selectOption('png');
  assert.equal(await prepared(jpeg), png);
  assert.equal((await scripted.log()).length, 0, 'nothing was sent');
  await page.getByTestId('run-start').click();
  assert.equal((await finished(page)).verdict, 'Passed');
  const first = (await scripted.log())[0];
  assert.equal(first.images, Number(images));
  assert.equal(Math.round(first.bytes / 1000), Number(kb), `${first.bytes} bytes`);
  // The demonstrations sent, drawn when asked for.
  const strip = page.getByTestId('run-demos');
  assert.equal(await strip.locator('img').count(), 0);
  await strip.locator('summary').click();
  await strip.locator('img').first().waitFor();
  assert.equal(await strip.locator('img').count(), Number(images) - 1);
});
