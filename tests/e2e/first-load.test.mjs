// The first-load build (docs/app.md, "First load"): the home page and /play of Toy Text,
// Classic Control and MiniGrid start a build a third of the full app's size; the home
// page's other families are drawn by the full app started hidden in the page; any other
// page, and /play of another family, is the full app's.

import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { distDir, pageHarness } from './support.mjs';

const TIMEOUT = 90_000;
const TARGET_BYTES = 600 * 1024;
const harness = pageHarness({ before, after, afterEach });

/** The app's two wasm files the page fetched, and when each arrived (ms), by build. */
async function wasmFetched(page) {
  const entries = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((r) => r.name.endsWith('.wasm'))
      .map((r) => ({ path: new URL(r.name).pathname, end: r.responseEnd })),
  );
  const of = (prefix) => entries.find((e) => e.path.startsWith(prefix));
  return { first: of('/playbench-first-'), full: of('/playbench-app-') };
}

const firstFrameAt = (page) =>
  page
    .waitForFunction(() => performance.getEntriesByName('playbench:first-frame')[0]?.startTime)
    .then((h) => h.jsonValue());

test('the home page draws its first frame from the first-load build, the other families from the full app', { timeout: TIMEOUT }, async () => {
  const page = await harness.open('/');
  const firstFrame = await firstFrameAt(page);

  // What arrived before the first frame fits the target, gzipped as a static host would.
  const before = await page.evaluate((t) =>
    performance.getEntriesByType('resource').filter((r) => r.responseEnd <= t).map((r) => new URL(r.name).pathname),
  firstFrame);
  let gzipped = zlib.gzipSync(await fs.readFile(path.join(distDir, 'index.html')), { level: 6 }).length;
  for (const p of before) gzipped += zlib.gzipSync(await fs.readFile(path.join(distDir, p)), { level: 6 }).length;
  assert.ok(gzipped <= TARGET_BYTES, `first load ${gzipped} B gzipped: ${before.join(', ')}`);
  assert.ok(before.some((p) => p.startsWith('/playbench-first-') && p.endsWith('.wasm')), before.join(', '));
  assert.ok(!before.some((p) => p.startsWith('/playbench-app-')), `the full app came first: ${before.join(', ')}`);

  // Every card ends with a drawn thumbnail, asks for its ROM, or says that its pictures
  // (VisGym's image environments) or MuJoCo (its Fetch tasks) load when it opens; none
  // failed.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=thumb-loading]').length === 0, null, { timeout: 60_000 });
  assert.equal(await page.getByTestId('thumb-error').count(), 0);
  const cards = await page.getByTestId('env-card').count();
  const drawn = await page.locator('[data-testid=env-card] canvas.thumb').count();
  const needRoms = await page.getByTestId('needs-rom-thumb').count();
  const needPictures = await page.getByTestId('needs-pictures-thumb').count();
  const needPhysics = await page.getByTestId('needs-physics-thumb').count();
  assert.equal(drawn + needRoms + needPictures + needPhysics, cards);
  assert.equal(needPictures, 16, 'eight image environments, two levels each');
  assert.equal(needPhysics, 4, 'two Fetch tasks, two levels each');
  assert.ok(needRoms >= 19, `${needRoms} Atari cards ask for a ROM`);
  for (const id of ['tetris_gymnasium/Tetris', 'FlappyBird-v0', 'highway-v0', 'maze_2d/easy', 'GameVerse/Snake']) {
    const canvas = page.locator(`[data-env-id="${id}"] canvas.thumb`);
    assert.equal(await canvas.count(), 1, `${id} has no thumbnail`);
    const inked = await canvas.evaluate((c) => {
      const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      return px.some((v, i) => i % 4 === 3 && v !== 0);
    });
    assert.ok(inked, `${id}'s thumbnail is blank`);
  }
  const { first, full } = await wasmFetched(page);
  assert.ok(first && full, 'both builds were fetched');
  assert.ok(first.end <= firstFrame && full.end > firstFrame);
});

test('a link from the first-load build to another family or another page starts the full app', { timeout: TIMEOUT }, async () => {
  const page = await harness.open('/play?env=Taxi-v3&seed=2');
  await page.getByTestId('status').waitFor();
  assert.equal((await wasmFetched(page)).full, undefined, '/play of Taxi fetched the full app');

  // The header's suite link: the page is loaded again for the full app.
  await page.getByTestId('nav-suite').click();
  await page.waitForURL((url) => url.pathname === '/suite');
  await page.getByRole('heading', { level: 1 }).waitFor();
  const onSuite = await wasmFetched(page);
  assert.ok(onSuite.full && !onSuite.first, 'the suite page is the full app alone');

  // The full app keeps the home page and /play to itself once it runs (no reload).
  await page.getByTestId('nav-envs').click();
  await page.locator('[data-env-id="tetris_gymnasium/Tetris"] canvas.thumb').waitFor();
  assert.equal((await wasmFetched(page)).first, undefined);
});

test('/play of a family the first-load build does not make plays in the full app, from a link or a card', { timeout: TIMEOUT }, async () => {
  const page = await harness.open('/play?env=tetris_gymnasium/Tetris&seed=1');
  await page.getByTestId('status').waitFor();
  assert.equal(await page.getByTestId('env-id').innerText(), 'tetris_gymnasium/Tetris');
  assert.equal(new URL(page.url()).searchParams.get('seed'), '1');
  const fetched = await wasmFetched(page);
  assert.ok(fetched.first && fetched.full, 'the first-load build handed over to the full app');

  // From the first-load build's home page: the card's link.
  await page.goto(`${harness.url()}/`);
  await page.locator('[data-env-id="FlappyBird-v0"] canvas.thumb').waitFor();
  await page.locator('[data-env-id="FlappyBird-v0"]').getByRole('link', { name: /^Play: / }).click();
  await page.waitForURL((url) => url.pathname === '/play');
  await page.getByTestId('status').waitFor();
  assert.equal(await page.getByTestId('env-id').innerText(), 'FlappyBird-v0');
});
