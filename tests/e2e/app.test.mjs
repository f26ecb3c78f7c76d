// End-to-end checks of the built web app in headless Chromium:
//   node --test tests/e2e/
// after `trunk build --config trunk.toml --release` (the site in dist/, or PLAYBENCH_DIST).
// Every page must load without a console error, an uncaught exception or a failed request.

import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { pageHarness } from './support.mjs';

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

// MiniGrid DoorKey 5x5, seed 1 (checked against minigrid 3.2.0): the agent at (1, 2)
// faces down at the yellow key, the locked door is to its right, the goal at (3, 3).
// Pick up the key, turn left, unlock the door, forward twice, turn right, forward.
const DOOR_KEY_PLAY = '/play?env=MiniGrid-DoorKey-5x5-v0&seed=1';
const DOOR_KEY_KEYS = ['p', 'ArrowLeft', 'Space', 'ArrowUp', 'ArrowUp', 'ArrowRight', 'ArrowUp'];
const DOOR_KEY_MISSION = 'use the key to open the door and then get to the goal';

const TIMEOUT = 60_000;
const harness = pageHarness({ before, after, afterEach });
const open = harness.open;

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
const framePixels = (page, testid = 'frame') =>
  page.getByTestId(testid).evaluate((canvas) => canvas.toDataURL('image/png'));

/** A canvas's size, and how many of its pixels differ from `other`'s (same size). */
const canvasInfo = (page, testid) =>
  page.getByTestId(testid).evaluate((c) => {
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let opaque = 0;
    for (let i = 3; i < px.length; i += 4) if (px[i] === 255) opaque += 1;
    return { width: c.width, height: c.height, opaque };
  });

const pixelsDiffering = (page, a, b) =>
  page.evaluate(
    ([a, b]) =>
      Promise.all(
        [a, b].map(
          (url) =>
            new Promise((resolve, reject) => {
              const img = new Image();
              img.onload = () => {
                const c = document.createElement('canvas');
                [c.width, c.height] = [img.width, img.height];
                const ctx = c.getContext('2d');
                ctx.drawImage(img, 0, 0);
                resolve(ctx.getImageData(0, 0, c.width, c.height).data);
              };
              img.onerror = reject;
              img.src = url;
            }),
        ),
      ).then(([x, y]) => {
        if (x.length !== y.length) return -1;
        let n = 0;
        for (let i = 0; i < x.length; i += 4) {
          if (x[i] !== y[i] || x[i + 1] !== y[i + 1] || x[i + 2] !== y[i + 2]) n += 1;
        }
        return n;
      }),
    [a, b],
  );

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

test('MiniGrid DoorKey is played to the goal by keyboard, with its mission and view toggles', { timeout: TIMEOUT }, async () => {
  const page = await open(DOOR_KEY_PLAY);
  await expectText(page, 'env-id', 'MiniGrid-DoorKey-5x5-v0');
  await expectText(page, 'status', 'running');
  await expectText(page, 'mission', DOOR_KEY_MISSION);

  // Every MiniGrid action has a button showing its documented key.
  const labels = await page
    .locator('ul.actions button')
    .evaluateAll((bs) =>
      bs.map((b) => [b.querySelector('.action-name').textContent, b.querySelector('.action-keys').textContent]),
    );
  assert.deepEqual(labels, [
    ['turn left', '←'],
    ['turn right', '→'],
    ['move forward', '↑'],
    ['pickup', 'P'],
    ['drop', 'D'],
    ['toggle', 'Space'],
    ['done', 'Enter'],
  ]);

  // The defaults: the reference's highlighted picture, no agent's-eye view, a bare URL.
  const highlight = page.getByTestId('highlight-toggle');
  const eyeToggle = page.getByTestId('agent-view-toggle');
  const eye = page.getByTestId('agent-view');
  assert.equal(await highlight.isChecked(), true);
  assert.equal(await eyeToggle.isChecked(), false);
  assert.equal(await eye.count(), 0);
  assert.equal(query(page).get('highlight'), null);
  assert.equal(query(page).get('view'), null);
  const highlighted = await framePixels(page);
  assert.deepEqual(await canvasInfo(page, 'frame'), { width: 160, height: 160, opaque: 160 * 160 });

  // Highlight off: the same grid drawn without the lightened field of view.
  await highlight.uncheck();
  await page.waitForURL((url) => url.searchParams.get('highlight') === '0');
  const plain = await framePixels(page);
  assert.notEqual(plain, highlighted, 'toggling highlight did not redraw');
  assert.ok((await pixelsDiffering(page, plain, highlighted)) > 1000, 'too few pixels changed');
  await expectText(page, 'step-count', '0');

  // The agent's-eye view: a second canvas of 7×7 tiles of 32 pixels.
  await eyeToggle.check();
  await eye.waitFor();
  await page.waitForURL((url) => url.searchParams.get('view') === '1');
  assert.deepEqual(await canvasInfo(page, 'agent-view'), { width: 224, height: 224, opaque: 224 * 224 });
  assert.equal(await framePixels(page), plain, 'the agent view changed the full view');
  const eyeStart = await framePixels(page, 'agent-view');

  // A reload keeps both toggles (and starts the same episode).
  await page.reload();
  await expectText(page, 'mission', DOOR_KEY_MISSION);
  await eye.waitFor();
  assert.equal(await highlight.isChecked(), false);
  assert.equal(await eyeToggle.isChecked(), true);
  assert.equal(await framePixels(page), plain);
  assert.equal(await framePixels(page, 'agent-view'), eyeStart);

  // Highlight back on: the reference picture again; the URL keeps only view=1.
  await highlight.check();
  await page.waitForURL((url) => !url.searchParams.has('highlight'));
  assert.equal(query(page).get('view'), '1');
  assert.equal(query(page).get('seed'), '1');
  assert.equal(await framePixels(page), highlighted);

  // Play. Right after clicking a toggle (focus on the checkbox), letter and arrow keys
  // still play; Space would toggle the checkbox, so the rest is played on the frame.
  await page.keyboard.press(DOOR_KEY_KEYS[0]);
  await expectText(page, 'step-count', '1');
  await expectText(page, 'status', 'running — carrying a yellow key');
  await page.getByTestId('frame').focus();
  for (const [i, key] of DOOR_KEY_KEYS.entries()) {
    if (i === 0) continue;
    await page.keyboard.press(key);
    await expectText(page, 'step-count', String(i + 1));
  }
  await expectText(page, 'status', 'success — reached the goal in 7 steps');
  await expectText(page, 'reward', '0.975');
  await expectText(page, 'mission', DOOR_KEY_MISSION);
  assert.equal(await page.locator('.status').getAttribute('data-outcome'), 'success');
  assert.notEqual(await framePixels(page), highlighted, 'the full view did not change');
  assert.notEqual(await framePixels(page, 'agent-view'), eyeStart, 'the agent view did not change');
  assert.equal(await highlight.isChecked(), true);

  // Switching the agent's-eye view off removes its canvas and its URL parameter.
  await eyeToggle.uncheck();
  await page.waitForURL((url) => !url.searchParams.has('view'));
  assert.equal(await eye.count(), 0);
  await expectText(page, 'step-count', '7');
});

test('environments without a grid have no mission or view toggles', { timeout: TIMEOUT }, async () => {
  const page = await open('/play?env=Taxi-v3&seed=0&view=1&highlight=0');
  await expectText(page, 'status', 'running');
  // The view options mean nothing here and are dropped from the URL.
  await page.waitForURL((url) => !url.searchParams.has('view') && !url.searchParams.has('highlight'));
  assert.equal(await page.getByTestId('mission').count(), 0);
  assert.equal(await page.getByTestId('highlight-toggle').count(), 0);
  assert.equal(await page.getByTestId('agent-view').count(), 0);
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
    await page.goto(harness.url() + href);
    const env = new URL(href, harness.url()).searchParams.get('env');
    if (env.startsWith('ALE/')) {
      // This browser has no Atari ROM: the page asks for it (tests/e2e/atari.test.mjs
      // drops one and plays).
      const text = await page.getByTestId('needs-rom-text').textContent();
      assert.match(text, /\.bin \(MD5 [0-9a-f]{32}\)/, env);
      continue;
    }
    await expectText(page, 'step-count', '0');
    assert.equal(await page.getByTestId('env-id').innerText(), new URL(href, harness.url()).searchParams.get('env'));
    // The first action that has a key, pressed the way a person would.
    const key = await page.locator('ul.actions button[data-key]').first().getAttribute('data-key');
    await page.keyboard.press(key === ' ' ? 'Space' : key);
    // A real-time game's clock runs on from the first key: on a loaded machine the
    // page may show a later step before this test reads it. A turn-based game stays
    // at one step.
    try {
      await expectText(page, 'step-count', /^[1-9][0-9]*$/);
      if ((await page.getByTestId('virtual-time').count()) === 0) {
        await expectText(page, 'step-count', '1');
      }
    } catch (e) {
      assert.fail(`${env}: ${e.message}`);
    }
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

  await page.goto(`${harness.url()}/play?env=FrozenLake-v1&kwargs={"map_name":"5x5"}`);
  await page.getByRole('alert').filter({ hasText: 'map_name' }).waitFor();

  await page.goto(`${harness.url()}/play?env=Taxi-v3&seed=-3`);
  await page.getByRole('alert').filter({ hasText: 'Bad seed' }).waitFor();

  await page.goto(`${harness.url()}/no/such/page`);
  await page.getByRole('alert').filter({ hasText: 'Page not found' }).waitFor();
});

test('a loading screen shows until the app mounts, and says so when the app cannot load', { timeout: TIMEOUT }, async () => {
  // The page as served, before any script runs: the loading screen.
  const html = await (await fetch(harness.url() + '/')).text();
  assert.match(html, /id="boot"[\s\S]*Loading the app/);
  // Once mounted, it is gone.
  const page = await open('/');
  await page.locator('.site-header, header').first().waitFor();
  assert.equal(await page.locator('#boot').count(), 0);
  // A wasm file that does not arrive: the screen says the app could not start.
  const broken = await harness.context().newPage();
  await broken.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await broken.goto(harness.url() + '/');
  await broken.locator('#boot-text').getByText(/could not start/).waitFor();
  assert.match(await broken.locator('#boot-text').textContent(), /Reload the page/);
  await broken.close();
  // A browser without WebAssembly SIMD (the check made to fail) is told so, not shown
  // the compile error that follows.
  const old = await harness.context().newPage();
  await old.addInitScript(() => { WebAssembly.validate = () => false; });
  await old.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await old.goto(harness.url() + '/');
  await old.locator('#boot-text').getByText(/no WebAssembly SIMD/).waitFor();
  await old.close();
});

test('the home page has a heading and a filter over its cards', { timeout: TIMEOUT }, async () => {
  const page = await open('/');
  assert.equal((await page.locator('h1').textContent()).trim(), 'Environments');
  await page.getByTestId('env-card').first().waitFor();
  const total = await page.getByTestId('env-card').count();
  assert.match(await page.getByTestId('env-count').textContent(), new RegExp(`^${total} of ${total} shown$`));
  await page.getByTestId('env-filter').fill('frozen lake');
  const visible = page.locator('[data-testid="env-card"]:visible');
  await page.waitForFunction(() => document.querySelector('[data-testid="env-count"]').textContent.startsWith('2 of'));
  assert.deepEqual(
    (await visible.evaluateAll((cards) => cards.map((c) => c.dataset.envId))).sort(),
    ['FrozenLake-v1', 'FrozenLake8x8-v1'],
  );
  await page.getByTestId('env-filter').fill('no such environment');
  await page.getByTestId('env-none').waitFor({ state: 'visible' });
  assert.equal(await visible.count(), 0);
});
