// End-to-end checks of the built web app in headless Chromium:
//   node --test tests/e2e/
// after `trunk build --config trunk.toml --release` (the site in dist/, or PLAYBENCH_DIST).
// Every page must load without a console error, an uncaught exception or a failed request.

import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertBuilt, launchBrowser, openPage, startServer } from './support.mjs';

// Environments the home page must list (families may list more, e.g. MiniGrid's levels).
const REQUIRED_ENVS = [
  'Taxi-v3',
  'CliffWalking-v1',
  'FrozenLake-v1',
  'FrozenLake8x8-v1',
  'CartPole-v1',
  'Acrobot-v1',
  'MountainCar-v0',
  'Pendulum-v1',
];

// FrozenLake 4x4 (SFFF/FHFH/FFFH/HFFG), not slippery: down, down, right, right, down, right.
const LAKE_PLAY = '/play?env=FrozenLake-v1&kwargs={"is_slippery":false}&seed=0';
const LAKE_KEYS = ['ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowRight'];

const TIMEOUT = 60_000;
let server;
let browser;
let current; // { page, problems } of the running test

before(async () => {
  await assertBuilt();
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  if (!current) return;
  const { page, problems } = current;
  current = undefined;
  await page.close();
  assert.deepEqual(problems, [], 'the page logged errors');
});

async function open(path) {
  current = await openPage(browser.context);
  await current.page.goto(server.url + path);
  return current.page;
}

/** Waits until [data-testid=testid] has exactly `expected` as text (or matches a RegExp). */
async function expectText(page, testid, expected) {
  const want = expected instanceof RegExp ? { re: expected.source } : { exact: expected };
  const loc = page.getByTestId(testid);
  await loc.waitFor();
  try {
    await page.waitForFunction(
      ([id, want]) => {
        const el = document.querySelector(`[data-testid="${id}"]`);
        if (el === null) return false;
        const got = el.textContent.trim();
        return want.re !== undefined ? new RegExp(want.re).test(got) : got === want.exact;
      },
      [testid, want],
      { timeout: 10_000 },
    );
  } catch {
    const got = await loc.innerText().catch(() => '(missing)');
    assert.fail(`[data-testid=${testid}] is ${JSON.stringify(got)}, expected ${expected}`);
  }
}

function query(page) {
  return new URL(page.url()).searchParams;
}

/** The canvas pixels as a data URL (to compare frames). */
const framePixels = (page) =>
  page.getByTestId('frame').evaluate((canvas) => canvas.toDataURL('image/png'));

test('FrozenLake (not slippery) is played to the goal by keyboard', { timeout: TIMEOUT }, async () => {
  const page = await open(LAKE_PLAY);
  await expectText(page, 'status', 'running');
  await expectText(page, 'step-count', '0');
  await expectText(page, 'env-id', 'FrozenLake-v1');

  // The URL carries everything needed to start the same episode again.
  const q = query(page);
  assert.equal(q.get('env'), 'FrozenLake-v1');
  assert.equal(q.get('seed'), '0');
  assert.deepEqual(JSON.parse(q.get('kwargs')), { is_slippery: false });

  // Every action has a real button that names its key.
  const buttons = page.locator('ul.actions button');
  assert.equal(await buttons.count(), 4);
  assert.match(await buttons.first().innerText(), /←/);

  const start = await framePixels(page);
  for (const [i, key] of LAKE_KEYS.entries()) {
    await page.keyboard.press(key);
    await expectText(page, 'step-count', String(i + 1));
  }
  await expectText(page, 'status', /success/);
  await expectText(page, 'step-count', '6');
  await expectText(page, 'reward', '1');
  assert.notEqual(await framePixels(page), start, 'the frame did not change');

  // Once the episode is over, keys change nothing.
  await page.keyboard.press('ArrowLeft');
  await expectText(page, 'step-count', '6');

  // The canvas is focusable and describes the state in words.
  const frame = page.getByTestId('frame');
  assert.equal(await frame.getAttribute('tabindex'), '0');
  assert.match(await frame.getAttribute('aria-label'), /G/);
});

test('reset writes the seed into the URL, and a reload starts the same episode', { timeout: TIMEOUT }, async () => {
  const page = await open(LAKE_PLAY);
  await expectText(page, 'status', 'running');

  // A button click is one step too.
  await page.getByTestId('action-2').click();
  await expectText(page, 'step-count', '1');

  // Typing in the seed field is typing, not playing.
  const seed = page.getByTestId('seed-input');
  await seed.fill('5');
  await seed.press('ArrowLeft');
  await expectText(page, 'step-count', '1');

  await page.getByTestId('reset').click();
  await expectText(page, 'step-count', '0');
  await page.waitForURL((url) => url.searchParams.get('seed') === '5');
  const q = query(page);
  assert.equal(q.get('env'), 'FrozenLake-v1');
  assert.deepEqual(JSON.parse(q.get('kwargs')), { is_slippery: false });
  const start = await framePixels(page);

  // Mid-episode reload: the URL starts the same episode from step 0.
  await page.keyboard.press('ArrowDown');
  await expectText(page, 'step-count', '1');
  await page.reload();
  await expectText(page, 'step-count', '0');
  assert.equal(await seed.inputValue(), '5');
  assert.equal(await framePixels(page), start);

  // A bad seed is refused with a message and changes nothing.
  await seed.fill('minus one');
  await page.getByTestId('reset').click();
  await page.locator('#seed-error').getByText('whole number').waitFor();
  assert.equal(query(page).get('seed'), '5');
});

test('the home page lists every environment with a drawn thumbnail', { timeout: TIMEOUT }, async () => {
  const page = await open('/');
  await page.getByTestId('env-card').first().waitFor();
  const ids = await page
    .getByTestId('env-card')
    .evaluateAll((cards) => cards.map((c) => c.dataset.envId));
  for (const id of REQUIRED_ENVS) assert.ok(ids.includes(id), `${id} is not listed`);
  assert.equal(new Set(ids).size, ids.length, 'an environment is listed twice');
  const families = await page.locator('section.family h2').allInnerTexts();
  assert.deepEqual(families.slice(0, 2), ['Toy Text', 'Classic Control']);
  for (const section of await page.locator('section.family').all()) {
    assert.ok((await section.getByTestId('env-card').count()) > 0, 'an empty family');
  }

  // Each thumbnail is a canvas with something drawn on it.
  const blank = await page.locator('canvas.thumb').evaluateAll((canvases) =>
    canvases
      .filter((c) => {
        if (c.width === 0 || c.height === 0) return true;
        const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 3; i < px.length; i += 4) if (px[i] !== 0) return false;
        return true;
      })
      .map((c) => c.getAttribute('aria-label')),
  );
  assert.deepEqual(blank, [], 'blank thumbnails');

  // FrozenLake offers a non-slippery link, and following it plays that variant.
  const card = page.locator('[data-env-id="FrozenLake-v1"]');
  await card.getByRole('link', { name: /not slippery/ }).click();
  await expectText(page, 'env-id', 'FrozenLake-v1');
  await expectText(page, 'kwargs', '{"is_slippery":false}');
  assert.equal(new URL(page.url()).pathname, '/play');
});

test('every listed environment opens from its card and steps by keyboard', { timeout: 180_000 }, async () => {
  const page = await open('/');
  await page.getByTestId('env-card').first().waitFor();
  const hrefs = await page
    .locator('[data-testid="env-card"] .links a')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  assert.ok(hrefs.length >= REQUIRED_ENVS.length);
  for (const href of hrefs) {
    await page.goto(server.url + href);
    await expectText(page, 'step-count', '0');
    assert.equal(await page.getByTestId('env-id').innerText(), new URL(href, server.url).searchParams.get('env'));
    // The first action that has a key, pressed the way a person would.
    const key = await page.locator('ul.actions button[data-key]').first().getAttribute('data-key');
    await page.keyboard.press(key === ' ' ? 'Space' : key);
    await expectText(page, 'step-count', '1');
  }
});

test('Enter and Space on a focused button activate the button, not a key binding', { timeout: TIMEOUT }, async () => {
  // MiniGrid binds Enter ("done") and Space ("toggle"): on a focused button they must
  // press that button once, not also play their own action.
  const page = await open('/play?env=MiniGrid-Empty-5x5-v0&seed=0');
  await expectText(page, 'step-count', '0');
  assert.equal(await page.locator('ul.actions button[data-key="Enter"]').count(), 1);
  const state = () => page.getByTestId('text-render').textContent();
  const start = await state();
  // Turning left twice changes the picture; "done" and "toggle" in an empty room do not.
  await page.getByTestId('action-0').focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Space');
  await page.waitForTimeout(100);
  await expectText(page, 'step-count', '2');
  assert.notEqual(await state(), start, 'Enter/Space played their own actions, not the button');
  // Away from the buttons, Enter plays its action.
  await page.getByTestId('frame').focus();
  await page.keyboard.press('Enter');
  await expectText(page, 'step-count', '3');
});

test('a link without a seed, or with an alias, is rewritten to the canonical URL', { timeout: TIMEOUT }, async () => {
  const page = await open('/play?env=Taxi-v4');
  await expectText(page, 'env-id', 'Taxi-v3');
  await page.waitForURL((url) => url.searchParams.get('seed') === '0');
  assert.equal(query(page).get('env'), 'Taxi-v3');
  assert.equal(await page.getByTestId('seed-input').inputValue(), '0');
});

test('an unknown environment shows an error with a way home', { timeout: TIMEOUT }, async () => {
  const page = await open('/play?env=NoSuchEnv-v0&seed=0');
  const alert = page.getByRole('alert').filter({ hasText: 'NoSuchEnv-v0' });
  await alert.waitFor();
  assert.match(await alert.innerText(), /Unknown environment/);
  await alert.getByRole('link', { name: /all environments/ }).click();
  await page.getByTestId('env-card').first().waitFor();
});

test('bad kwargs, bad seeds and unknown pages show errors, not a blank page', { timeout: TIMEOUT }, async () => {
  const page = await open('/play?env=FrozenLake-v1&kwargs={oops');
  await page.getByRole('alert').filter({ hasText: 'not valid JSON' }).waitFor();

  await page.goto(`${server.url}/play?env=FrozenLake-v1&kwargs={"map_name":"5x5"}`);
  await page.getByRole('alert').filter({ hasText: 'map_name' }).waitFor();

  await page.goto(`${server.url}/play?env=Taxi-v3&seed=-3`);
  await page.getByRole('alert').filter({ hasText: 'Bad seed' }).waitFor();

  await page.goto(`${server.url}/no/such/page`);
  await page.getByRole('alert').filter({ hasText: 'Page not found' }).waitFor();
});
