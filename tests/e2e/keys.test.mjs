// End-to-end proof that an API key goes only where it belongs (docs/app.md,
// "Content-security policy and keys"): two scripted endpoints on two origins; the key
// reaches its profile's endpoint and nothing else, a redirect to the other origin is
// refused (model requests use `redirect: "error"`) for the Authorization header and for
// Anthropic's `x-api-key`, and the key is in no page text, link, file, storage, console
// message or error message.
//   node --test tests/e2e/keys.test.mjs   (after the Trunk build; see support.mjs)

import { after, afterEach, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { downloaded, pageHarness, saveProfile } from './support.mjs';
import { startScripted } from './scripted.mjs';

const LAKE_TASK = 'frozenlake-4x4-det-s0';
const LAKE_ROUTE = 'seq:Right,Right,Down,Down,Down,Right';
const KEY = 'sk-REDIRECT-canary-7730-never-elsewhere';
const TIMEOUT = 120_000;

const harness = pageHarness({ before, after, afterEach });
let endpoint; // the profile's endpoint
let other; // another origin, where a redirect points
before(async () => {
  endpoint = await startScripted();
  other = await startScripted();
});
after(async () => {
  await endpoint?.close();
  await other?.close();
});
beforeEach(async () => {
  await endpoint.reset();
  await other.reset();
});

const base = (server, provider) => `${server.url}/${provider === 'gemini' ? 'v1beta' : 'v1'}`;
const port = (server) => new URL(server.url).port;

/** Opens `pagePath` recording every console message (all levels) and uncaught error. */
async function openListening(pagePath) {
  const said = [];
  const page = await harness.open(pagePath, {
    setup: (p) => {
      p.on('console', (msg) => said.push(msg.text()));
      p.on('pageerror', (err) => said.push(err.message));
    },
  });
  return { page, said };
}

/** Fails when the key is in the page's text, URL, storage or console. */
async function assertNoKeyIn(page, said, where) {
  assert.ok(!(await page.content()).includes(KEY), `the key is in the page (${where})`);
  assert.ok(!page.url().includes(KEY), `the key is in the URL (${where})`);
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  assert.ok(!storage.includes(KEY), `the key is in storage (${where})`);
  assert.ok(!said.some((s) => s.includes(KEY)), `the key is in the console (${where}): ${said.filter((s) => s.includes(KEY))}`);
}

test('the key reaches only its profile\'s endpoint; the other origin never sees a request', { timeout: TIMEOUT }, async () => {
  await saveProfile(harness.open, { base: base(endpoint, 'openai'), model: LAKE_ROUTE, key: KEY });
  const { page, said } = await openListening(`/run?task=${LAKE_TASK}`);
  await page.getByTestId('run-key').fill(KEY);
  await page.getByTestId('run-start').click();
  await page.getByTestId('run-result').waitFor({ timeout: TIMEOUT });
  const log = await endpoint.log();
  assert.equal(log.length, 6);
  assert.ok(log.every((l) => l.key === KEY), 'every request to the endpoint carried the key');
  assert.deepEqual(await other.log(), [], 'nothing reached the other origin');
  await page.getByTestId('run-key').fill('');
  await assertNoKeyIn(page, said, 'after a run');
  assert.ok(!(await downloaded(page, 'run-download')).includes(KEY), 'the key is in the episode file');
  assert.ok(!(await page.getByTestId('share-link').inputValue()).includes(KEY), 'the key is in the share link');
});

for (const provider of ['openai', 'anthropic', 'gemini']) {
  test(`a redirect to another origin is refused and the key never follows (${provider})`, { timeout: TIMEOUT }, async () => {
    const model = 'valid:Down';
    let saidModels;
    const models = await saveProfile(async (p) => {
      const opened = await openListening(p);
      saidModels = opened.said;
      return opened.page;
    }, { provider, base: base(endpoint, provider).replace(/\/(v1|v1beta)$/, `/redirect/${port(other)}/$1`), model, key: KEY });
    harness.allow(/./); // the refused redirect is the point
    await models.getByTestId('profile-test').click();
    const report = models.getByTestId('connection-report');
    await report.getByText('Connection problems').waitFor({ timeout: 20_000 });
    assert.match(await report.textContent(), /redirect/i);
    await models.getByTestId('profile-key').fill('');
    await assertNoKeyIn(models, saidModels, `/models, ${provider}`);

    const { page, said } = await openListening(`/run?task=${LAKE_TASK}`);
    harness.allow(/./);
    await page.getByTestId('run-key').fill(KEY);
    await page.getByTestId('run-start').click();
    await page.getByTestId('run-result').waitFor({ timeout: TIMEOUT });
    const error = await page.getByTestId('run-error').textContent();
    assert.match(error, /redirect/i);
    assert.ok(!error.includes(KEY), 'the key is in the error message');
    await page.getByTestId('run-key').fill('');
    await assertNoKeyIn(page, said, `/run, ${provider}`);
    assert.ok(!(await downloaded(page, 'run-download')).includes(KEY), 'the key is in the episode file');

    const sent = await endpoint.log();
    // The endpoint got the key; the app's keyless probes (which tell a redirect from
    // other failures, docs/run.md) carry none.
    assert.ok(sent.some((l) => l.key === KEY), 'the endpoint got the key');
    assert.ok(sent.every((l) => l.key === KEY || l.key === null), JSON.stringify(sent.map((l) => l.key)));
    const reached = (await other.log()).map((l) => `${l.path} (${l.headers['sec-fetch-mode']}, key ${l.key})`);
    assert.deepEqual(reached, [], 'the redirect was not followed: the other origin got nothing');
  });
}

test('control: a fetch that follows the redirect would carry x-api-key to the other origin', { timeout: TIMEOUT }, async (t) => {
  // Why model requests use `redirect: "error"`: the browser drops only Authorization on a
  // cross-origin redirect. This proves the two-origin setup above sees a leak when there is one.
  const page = await harness.open('/');
  harness.allow(/\/v1\/messages|status of 400/); // the other origin refuses the imageless request
  const target = `${endpoint.url}/redirect/${port(other)}/v1/messages`;
  const statuses = await page.evaluate(async ([url, key]) => {
    const body = JSON.stringify({ model: 'valid:Down', messages: [] });
    const send = (headers) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }).then((r) => r.status);
    return [await send({ 'x-api-key': key }), await send({ authorization: `Bearer ${key}` })];
  }, [target, KEY]);
  const reached = await other.log();
  assert.equal(reached.length, 2, `both requests followed the redirect (${statuses})`);
  assert.equal(reached[0].headers['x-api-key'], KEY, 'a followed redirect carries x-api-key to the other origin');
  t.diagnostic(`Authorization after a followed cross-origin redirect: ${reached[1].headers.authorization ?? 'dropped by the browser'}`);
});
