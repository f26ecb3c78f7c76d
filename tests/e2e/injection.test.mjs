// End-to-end proof that text from outside is shown as text and the content-security
// policy blocks script (docs/app.md, "Content-security policy and keys"). Script and
// markup payloads are planted in every text that comes from outside: a study's title,
// instructions and participant code, model replies, an endpoint's error body, an episode
// file's agent, task title and demo labels, file names, and results-file labels on
// /compare. Each payload would fetch `/pwned/...` and set `window.__pwned` if it ran;
// the test watches for both, for any element the payload would create, and requires the
// payload's literal text on the page. Then it injects an inline script, an inline event
// handler and a foreign script itself, and requires the policy to block each with a
// `securitypolicyviolation` event.
//   node --test tests/e2e/injection.test.mjs   (after the Trunk build; see support.mjs)

import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { downloaded, pageHarness, saveProfile } from './support.mjs';
import { startScripted } from './scripted.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtures = path.join(repoRoot, 'tests', 'fixtures', 'compare');
const LAKE_TASK = 'frozenlake-4x4-det-s0';
const LAKE_ROUTE = ['Right', 'Right', 'Down', 'Down', 'Down', 'Right'];
const TIMEOUT = 120_000;

/** The payloads planted at `where`: each would leave a trace if it ran. */
const payload = (where) =>
  `<img src=x onerror="window.__pwned='${where}';fetch('/pwned/img-${where}')">` +
  `<script>window.__pwned='${where}';fetch('/pwned/script-${where}')</script>` +
  `<a href="javascript:fetch('/pwned/link-${where}')">${where}</a>` +
  `<svg onload="window.__pwned='${where}';fetch('/pwned/svg-${where}')"><circle r="1"/></svg>`;
/** What must be shown literally (the whole payload may be cut, e.g. in a title). */
const shown = (where) => `<img src=x onerror="window.__pwned='${where}'`;
/** A payload for a field of at most 64 characters (a participant code). */
const SHORT = `<img src=x onerror="window.__pwned='code'">`;

const harness = pageHarness({ before, after, afterEach });
let scripted;
let scratch;
before(async () => {
  scripted = await startScripted();
  scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'playbench-injection-'));
});
after(async () => {
  await scripted?.close();
  await fs.rm(scratch, { recursive: true, force: true });
});

/** Opens `pagePath`, recording requests to /pwned and policy violations. */
async function watched(pagePath) {
  const pwned = [];
  const page = await harness.open(pagePath, {
    setup: async (p) => {
      p.on('request', (r) => {
        if (r.url().includes('/pwned')) pwned.push(r.url());
      });
      await p.addInitScript(() => {
        window.__violations = [];
        document.addEventListener('securitypolicyviolation', (e) =>
          window.__violations.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample }),
        );
      });
    },
  });
  return { page, pwned };
}

/** Nothing of the payloads ran or became an element, and `where`'s payload is text. */
async function assertInert({ page, pwned }, where, locator = page.locator('body'), literal = shown(where)) {
  // Give an `onerror` or `onload` the time to fire if an element had been made.
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.__pwned), undefined, `a payload ran (${where})`);
  assert.deepEqual(pwned, [], `a payload fetched (${where})`);
  const made = await page.evaluate(
    () => document.querySelectorAll('img[src="x"], a[href^="javascript:"], svg[onload], [onerror], script:not([src])').length,
  );
  assert.equal(made, 0, `a payload became markup (${where})`);
  const text = await locator.first().textContent();
  assert.ok(text.includes(literal), `the payload is not shown as text at ${where}: ${text.slice(0, 500)}`);
}

test('a study\'s title, instructions and participant code are text', { timeout: TIMEOUT }, async () => {
  const builder = await watched('/study');
  const { page } = builder;
  await page.getByTestId('study-title').fill(payload('study-title'));
  await page.getByTestId('study-id').fill('injection');
  await page.getByTestId('study-instructions').fill(payload('study-instructions'));
  await page.getByTestId('study-filter-family').selectOption('FrozenLake');
  await page.getByTestId(`study-task-${LAKE_TASK}`).check();
  await page.getByTestId('study-collect-url').fill('');
  const link = await page.getByTestId('study-link').inputValue();
  await page.goto(link);
  await assertInert(builder, 'study-title', page.getByTestId('study-title'));
  await page.getByTestId('study-code').fill(SHORT);
  await page.getByTestId('study-code-submit').click();
  await assertInert(builder, 'study-instructions', page.getByTestId('study-instructions'));
  await page.getByTestId('study-begin').click();
  await assertInert(builder, 'participant', page.getByTestId('study-participant'), SHORT);
});

test('model replies, an endpoint\'s error body and an episode file\'s labels are text', { timeout: TIMEOUT }, async () => {
  // Replies: the route to the goal, each action followed by a payload.
  const script = path.join(scratch, 'replies.json');
  await fs.writeFile(script, JSON.stringify(LAKE_ROUTE.map((a, i) => `[Action: ${a}]\n${payload(`reply-${i}`)}`)));
  await saveProfile(harness.open, { base: `${scripted.url}/v1`, model: `file:${script}` });
  const run = await watched(`/run?task=${LAKE_TASK}`);
  await run.page.getByTestId('run-start').click();
  await run.page.getByTestId('run-result').waitFor({ timeout: TIMEOUT });
  await assertInert(run, 'reply-0', run.page.getByTestId('reply'));
  await assertInert(run, 'reply-5', run.page.getByTestId('reply').nth(5));
  const file = JSON.parse(await downloaded(run.page, 'run-download'));

  // An error body: the endpoint echoes the unknown model's name.
  let models;
  await saveProfile(async (p) => (models = await watched(p)).page, { base: `${scripted.url}/v1`, model: payload('error-body') });
  harness.allow(/./); // the refused model is the point
  await models.page.getByTestId('profile-test').click();
  const report = models.page.getByTestId('connection-report');
  await report.getByText('Connection problems').waitFor({ timeout: 20_000 });
  await assertInert(models, 'error-body', report);

  // The episode file with its task inline (as a task file holds it), the agent, task
  // title, rules and demo labels replaced by payloads, opened in the replay viewer under
  // a payload file name.
  const suite = JSON.parse(await fs.readFile(path.join(repoRoot, 'bench', 'suites', 'playbench-core', 'v1.json'), 'utf8'));
  const task = suite.tasks.find((t) => t.id === LAKE_TASK);
  task.title = payload('task-title');
  task.rules = payload('rules');
  for (const d of task.demos) d.label = payload('demo-label');
  file.task = task;
  file.agent = payload('agent');
  file.record.agent = payload('agent');
  const replay = await watched('/episode');
  harness.allow(/./); // a changed file may fail verification: that is not the point here
  await replay.page.getByTestId('episode-file').setInputFiles({
    name: `${payload('file-name')}.json`,
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(file)),
  });
  await assertInert(replay, 'agent', replay.page.getByTestId('replay-agent'));
  await assertInert(replay, 'task-title', replay.page.locator('.replay-title'));
  await replay.page.getByTestId('replay-last').click();
  await assertInert(replay, 'reply-5', replay.page.getByTestId('replay-reply'));
});

test('file names and results-file labels on /compare are text', { timeout: TIMEOUT }, async () => {
  const compare = await watched('/compare');
  const { page } = compare;
  const oracle = JSON.parse(await fs.readFile(path.join(fixtures, 'oracle.results.json'), 'utf8'));
  oracle.label = payload('results-label');
  await page.getByTestId('compare-files').setInputFiles([
    { name: 'labelled.results.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(oracle)) },
    { name: `${payload('file-name')}.json`, mimeType: 'application/json', buffer: Buffer.from('{"not": "results"}') },
  ]);
  await page.getByTestId('compare-table').waitFor();
  await assertInert(compare, 'results-label', page.getByTestId('compare-table'));
  await assertInert(compare, 'file-name', page.getByTestId('import-error'));
  // After a reload, from storage, still text.
  await page.reload();
  await page.getByTestId('compare-table').waitFor();
  await assertInert(compare, 'results-label', page.getByTestId('compare-table'));
});

test('the policy blocks inline script, inline handlers and foreign script', { timeout: TIMEOUT }, async () => {
  const home = await watched('/');
  const { page } = home;
  await page.getByTestId('env-card').first().waitFor();
  // The app itself needs nothing the policy forbids.
  assert.deepEqual(await page.evaluate(() => window.__violations), [], 'the app broke its own policy');
  const policy = await page.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content);
  // 'unsafe-eval' only for MuJoCo's Embind module (docs/app.md); never 'unsafe-inline'.
  assert.match(policy, /script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval';/);
  assert.doesNotMatch(policy, /'unsafe-inline'|'unsafe-hashes'|'strict-dynamic'/);
  harness.allow(/Content Security Policy|\(csp\)/); // the refusals are the point
  await page.evaluate((foreign) => {
    const inline = document.createElement('script');
    inline.textContent = "window.__pwned = 'inline'; fetch('/pwned/inline');";
    document.body.append(inline);
    const handler = document.createElement('button');
    handler.id = 'handler';
    handler.setAttribute('onclick', "window.__pwned = 'handler'; fetch('/pwned/handler');");
    handler.textContent = 'click';
    document.body.append(handler);
    const external = document.createElement('script');
    external.src = foreign;
    document.body.append(external);
  }, `${scripted.url}/pwned/foreign.js`);
  await page.locator('#handler').click();
  await page.waitForFunction(() => window.__violations.length >= 3, null, { timeout: 5000 });
  const violations = await page.evaluate(() => window.__violations);
  const directives = violations.map((v) => v.directive).sort();
  assert.deepEqual(directives, ['script-src-attr', 'script-src-elem', 'script-src-elem'], JSON.stringify(violations));
  assert.ok(violations.some((v) => v.blocked.includes('/pwned/foreign.js')), 'the foreign script was blocked');
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  // Chromium reports the blocked script's request before refusing it; nothing else went.
  assert.deepEqual(home.pwned.filter((u) => !u.endsWith('/pwned/foreign.js')), [], 'a payload fetched');
  // No inline script or style anywhere in the page as served.
  const html = await (await fetch(harness.url() + '/')).text();
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'an inline script');
  assert.doesNotMatch(html, /\sstyle=|\son[a-z]+=/, 'an inline style or handler');
});
