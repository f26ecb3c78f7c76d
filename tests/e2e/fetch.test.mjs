// End-to-end checks of VisGym's Fetch tasks in headless Chromium:
//   node --test tests/e2e/fetch.test.mjs
// after `trunk build --config trunk.toml --release` (the site in dist/, or PLAYBENCH_DIST)
// and a build of the JSON-lines driver (target/debug/envs-driver, or PLAYBENCH_DRIVER).
//
// A person plays the reference solver's plan for seed 0 of Fetch Reach and Fetch
// Pick-and-Place on /play with the keys (docs/fetch.md, "Playing them"). MuJoCo loads
// into the page once; after every step the frame the page shows is compared with the
// frame the driver draws for the same action on the command line's physics host (MuJoCo's
// module under Node): equal SHA-256s mean the browser and the command line simulated the
// same states bit for bit (docs/fetch.md, "Physics host").
//
// As a task of suite visgym (docs/fetch.md, "In the suite"): the task page loads MuJoCo
// before the demonstrations, a person passes fetch-reach-easy-s0 by keys, and its share
// link verifies in a fresh browser, which loads MuJoCo to re-simulate it; a suite run of
// the ten easy Reach puzzles loads MuJoCo before its first episode and the oracle passes
// them all.

import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expectText, pageHarness, verifiedInFreshBrowser } from './support.mjs';

const TIMEOUT = 240_000;
const harness = pageHarness({ before, after, afterEach });
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The driver as a JSON-lines process: `ask(request)` answers one request. */
function startDriver() {
  const bin = process.env.PLAYBENCH_DRIVER ?? path.join(repoRoot, 'target', 'debug', 'envs-driver');
  assert.ok(fs.existsSync(bin), `no driver at ${bin}: cargo build -p playbench-cli --bin envs-driver`);
  const child = spawn(bin, [], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout });
  const waiting = [];
  lines.on('line', (line) => waiting.shift()?.(JSON.parse(line)));
  return {
    ask(request) {
      return new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin.write(`${JSON.stringify(request)}\n`);
      });
    },
    close() {
      child.stdin.end();
      child.kill();
    },
  };
}

let driver;
before(() => {
  driver = startDriver();
});
after(() => driver?.close());

/** The key that plays an action string of the solver (docs/fetch.md, "Keys"). */
const KEYS = new Map([
  ["('move', [1, 0, 0])", 'ArrowRight'],
  ["('move', [-1, 0, 0])", 'ArrowLeft'],
  ["('move', [0, 1, 0])", 'ArrowUp'],
  ["('move', [0, -1, 0])", 'ArrowDown'],
  ["('move', [0, 0, 1])", 'w'],
  ["('move', [0, 0, -1])", 's'],
  ["('move', [0, 0, 0])", ' '],
  ["('gripper', 0)", 'o'],
  ["('gripper', 1)", 'c'],
  ["('stop', 'stop')", 'Enter'],
]);

/** SHA-256 (hex) of the RGB bytes the page's frame canvas shows. */
const pageFrameSha = (page) =>
  page.getByTestId('frame').evaluate(async (c) => {
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const rgb = new Uint8Array((px.length / 4) * 3);
    for (let i = 0, j = 0; i < px.length; i += 4, j += 3) {
      rgb[j] = px[i];
      rgb[j + 1] = px[i + 1];
      rgb[j + 2] = px[i + 2];
    }
    const digest = await crypto.subtle.digest('SHA-256', rgb);
    return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  });

const frameSize = (page) => page.getByTestId('frame').evaluate((c) => [c.width, c.height]);

for (const env of ['fetch_reach/easy', 'fetch_pick_and_place/easy']) {
  test(`${env}: the solver's plan for seed 0, played by keys on /play, draws the command line's frames and succeeds`, { timeout: TIMEOUT }, async () => {
    const made = await driver.ask({ op: 'make', env });
    assert.equal(made.ok, true, JSON.stringify(made));
    const reset = await driver.ask({ op: 'reset', seed: 0 });
    const { actions: plan } = await driver.ask({ op: 'solve' });
    assert.ok(plan.length >= 11 && plan.at(-1) === "('stop', 'stop')", plan.join(' | '));

    const wasm = [];
    const page = await harness.open('/');
    // The home page starts the full app for its previews: let it finish loading first.
    await page.getByTestId('env-card').first().waitFor();
    await page.waitForLoadState('networkidle');
    page.on('request', (r) => r.url().endsWith('/mujoco/mujoco.wasm') && wasm.push(r.url()));
    await page.goto(`${harness.url()}/play?env=${env}&seed=0`);
    await expectText(page.getByTestId('env-id'), env);
    await expectText(page.getByTestId('step-count'), '0', 60_000);
    assert.equal(wasm.length, 1, 'MuJoCo is fetched once, when the task opens');
    assert.deepEqual(await frameSize(page), [960, 480]);
    assert.equal(await pageFrameSha(page), reset.frame_sha256, 'the first frame');

    for (const [i, action] of plan.entries()) {
      const key = KEYS.get(action);
      assert.ok(key, `no key plays ${action}`);
      await page.getByTestId('frame').focus();
      await page.keyboard.press(key);
      await expectText(page.getByTestId('step-count'), String(i + 1), 30_000);
      const step = await driver.ask({ op: 'step', action });
      assert.equal(await pageFrameSha(page), step.frame_sha256, `the frame after ${action} (step ${i + 1})`);
    }
    assert.equal(await page.locator('.status').getAttribute('data-outcome'), 'success');
    await expectText(page.getByTestId('reward'), /^1(\.0+)?$/);
  });
}

test('the catalog says the Fetch tasks load MuJoCo when opened', { timeout: TIMEOUT }, async () => {
  const page = await harness.open('/');
  const card = page.locator('[data-testid="env-card"][data-env-id="fetch_reach/easy"]');
  await card.getByTestId('needs-physics-thumb').waitFor({ timeout: 60_000 });
  assert.match(await card.textContent(), /Runs MuJoCo/);
});

test('a Fetch task of suite visgym loads MuJoCo on its task page, is passed by keys, and its link verifies in a fresh browser', { timeout: TIMEOUT }, async () => {
  const task = 'fetch-reach-easy-s0';
  const made = await driver.ask({ op: 'make', env: 'fetch_reach/easy' });
  assert.equal(made.ok, true, JSON.stringify(made));
  await driver.ask({ op: 'reset', seed: 0 });
  const { actions: plan } = await driver.ask({ op: 'solve' });

  const page = await harness.open('/');
  await page.getByTestId('env-card').first().waitFor();
  await page.waitForLoadState('networkidle');
  const wasm = [];
  page.on('request', (r) => r.url().endsWith('/mujoco/mujoco.wasm') && wasm.push(r.url()));
  await page.goto(`${harness.url()}/task?suite=visgym&id=${task}`);
  await expectText(page.getByTestId('task-id'), task, 60_000);
  await expectText(page.getByTestId('demo-counter').first(), /of \d+/, 60_000);
  assert.equal(wasm.length, 1, 'MuJoCo is fetched once, before the demonstrations');

  await page.getByTestId('play-task').click();
  await expectText(page.getByTestId('decision-text'), /^Decision 1 of 20$/, 30_000);
  for (const [i, action] of plan.entries()) {
    await page.getByTestId('frame').focus();
    await page.keyboard.press(KEYS.get(action));
    if (i + 1 < plan.length) {
      await expectText(page.getByTestId('decision-text'), `Decision ${i + 2} of 20`, 30_000);
    }
  }
  const result = page.getByTestId('result');
  await result.waitFor({ timeout: 30_000 });
  assert.equal(await result.getAttribute('data-passed'), 'true');
  await expectText(page.getByTestId('score'), '100');
  const link = await page.getByTestId('share-link').inputValue();
  assert.match(link, /#e=pb1\./);

  const fetched = await verifiedInFreshBrowser(link, task, '/mujoco/mujoco.wasm');
  assert.equal(fetched, 1, 'the fresh browser loaded MuJoCo to re-simulate the episode');
});

test('a suite run of Fetch tasks loads MuJoCo first and the oracle passes the easy Reach puzzles', { timeout: TIMEOUT }, async () => {
  const page = await harness.open('/');
  await page.goto(`${harness.url()}/run/suite?suite=visgym`);
  await page.getByTestId('run-agent').selectOption('oracle');
  await page.getByTestId('sel-contains').fill('fetch-reach-easy-s');
  await expectText(page.getByTestId('sel-count'), /^10 task/);
  await page.getByTestId('suite-start').click();
  await page.getByTestId('suite-phase').getByText('Complete').waitFor({ timeout: 180_000 });
  const rows = await page.getByTestId('suite-episodes').locator('li').allTextContents();
  assert.equal(rows.length, 10, rows.join('\n'));
  for (const row of rows) assert.match(row, /score 100\.0 · passed/);
});
