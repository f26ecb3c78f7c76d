// Screenshot tests: the main pages in their main states, at a desktop and a phone size,
// compared with the reference images in tests/e2e/screenshots/ (a pixel differs when a
// channel moves by more than PIXEL_THRESHOLD; a shot fails when more than
// SHARE_TOLERANCE of its pixels differ). A failing shot writes the new image and a diff
// (differences in red) to tests/e2e/screenshots-diff/ (ignored by git).
//
//   node --test tests/e2e/screenshots.test.mjs                           (after a Trunk build)
//   UPDATE_SCREENSHOTS=1 node --test tests/e2e/screenshots.test.mjs      (rewrite the references)
//
// Review rewritten references as images before committing them (docs/app.md). The
// references are made with Debian's Chromium and its DejaVu and Liberation fonts: other
// fonts move text by whole pixels and fail every shot.

import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pageHarness } from './support.mjs';
import { comparePng, decodePng, encodePng } from './png.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const REFERENCES = path.join(here, 'screenshots');
const DIFFS = path.join(here, 'screenshots-diff');
const FIXTURES = path.resolve(here, '..', 'fixtures', 'compare');
const UPDATE = process.env.UPDATE_SCREENSHOTS === '1';
const PIXEL_THRESHOLD = 32;
const SHARE_TOLERANCE = 0.002;
const TIMEOUT = 60_000;

const DESKTOP = { width: 1024, height: 768 };
const PHONE = { width: 390, height: 844 };
const LAKE_TASK = '/task/play?id=frozenlake-4x4-det-s0';
const LAKE_WIN = ['ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowRight'];

const harness = pageHarness({ before, after, afterEach });

// The page's content-security policy forbids <style> elements (docs/app.md): the test's
// own styles go in as a constructed style sheet, which the policy leaves alone.
function adoptSheet(css) {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

// No transition, animation or caret moves a pixel between runs.
function still(page) {
  return page.addInitScript(
    adoptSheet,
    '*, *::before, *::after { transition: none !important; animation: none !important; caret-color: transparent !important; }',
  );
}

/** Opens `pagePath` at `viewport` (the page's console must stay clean). */
function openAt(pagePath, viewport) {
  return harness.open(pagePath, { viewport, setup: still });
}

async function homePage(viewport) {
  const page = await openAt('/', viewport);
  await page.getByTestId('env-card').first().waitFor();
  return page;
}

/** /compare with the two committed results files imported, the chart in view. */
async function comparePage(viewport) {
  const page = await openAt('/compare', viewport);
  await page.getByTestId('compare-files').setInputFiles([
    path.join(FIXTURES, 'oracle.results.json'),
    path.join(FIXTURES, 'random-seed7.results.json'),
  ]);
  await page.getByTestId('compare-chart').scrollIntoViewIfNeeded();
  return page;
}

async function keys(page, names) {
  for (const k of names) await page.keyboard.press(k);
}

/**
 * The page as a PNG, once its fonts are in and two frames have been drawn. The test
 * server's origin (a random port) and the build's file hashes are written the same way
 * every time first.
 */
async function capture(page) {
  await page.evaluate((origin) => {
    const steady = (t) =>
      t.split(origin).join('http://localhost:8080').replace(/playbench-(app|first)-[0-9a-f]+/g, 'playbench-$1');
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) n.nodeValue = steady(n.nodeValue);
    for (const input of document.querySelectorAll('input, textarea')) input.value = steady(input.value);
  }, harness.url());
  await page.evaluate(() => document.fonts.ready);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.mouse.move(0, 0);
  return page.screenshot({ animations: 'disabled', caret: 'hide', scale: 'css' });
}

/** Compares `png` with reference `name` (or writes it when updating); the share differing. */
async function check(name, png) {
  const reference = path.join(REFERENCES, `${name}.png`);
  if (UPDATE) {
    await fs.mkdir(REFERENCES, { recursive: true });
    await fs.writeFile(reference, png);
    return 0;
  }
  const expected = decodePng(await fs.readFile(reference));
  const { share, diff } = comparePng(decodePng(png), expected, PIXEL_THRESHOLD);
  if (share > SHARE_TOLERANCE) {
    await fs.mkdir(DIFFS, { recursive: true });
    await fs.writeFile(path.join(DIFFS, `${name}.actual.png`), png);
    if (diff) await fs.writeFile(path.join(DIFFS, `${name}.diff.png`), encodePng(diff));
  }
  return share;
}

async function expectSame(name, png) {
  const share = await check(name, png);
  assert.ok(
    share <= SHARE_TOLERANCE,
    `${name}: ${(share * 100).toFixed(2)}% of the pixels differ from tests/e2e/screenshots/${name}.png ` +
      `(see tests/e2e/screenshots-diff/${name}.diff.png; if the change is wanted, ` +
      'rewrite the references with UPDATE_SCREENSHOTS=1 and review them)',
  );
}

// [name, viewport, how to bring the page into its state]
const SHOTS = [
  ['home-desktop', DESKTOP, () => homePage(DESKTOP)],
  ['home-phone', PHONE, () => homePage(PHONE)],
  ['compare-desktop', DESKTOP, () => comparePage(DESKTOP)],
  ['compare-phone', PHONE, () => comparePage(PHONE)],
  [
    'task-play-passed-desktop',
    DESKTOP,
    async () => {
      const page = await openAt(LAKE_TASK, DESKTOP);
      await page.getByTestId('decision').waitFor();
      await keys(page, LAKE_WIN);
      await page.getByTestId('result').scrollIntoViewIfNeeded();
      return page;
    },
  ],
  [
    'task-play-failed-phone',
    PHONE,
    async () => {
      const page = await openAt(LAKE_TASK, PHONE);
      await page.getByTestId('decision').waitFor();
      await keys(page, ['ArrowRight', 'ArrowDown']);
      await page.getByTestId('result').scrollIntoViewIfNeeded();
      return page;
    },
  ],
  [
    'episode-bad-link-phone',
    PHONE,
    async () => {
      const page = await openAt('/episode#e=pb1.AAAA', PHONE);
      await page.locator('[role="alert"]').first().waitFor();
      return page;
    },
  ],
  [
    'loading-failed-desktop',
    DESKTOP,
    async () => {
      const page = await harness.open('/', {
        viewport: DESKTOP,
        setup: async (p) => {
          await still(p);
          await p.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
        },
      });
      harness.allow(/./); // the missing wasm is the point
      await page.locator('#boot-text').getByText(/could not start/).waitFor();
      return page;
    },
  ],
];

for (const [name, , open] of SHOTS) {
  test(`screenshot: ${name}`, { timeout: TIMEOUT }, async () => {
    const page = await open();
    await expectSame(name, await capture(page));
  });
}

// The comparison itself must catch a real regression: the page-wide
// `.bar { height: 100% }` rule that once stretched /compare's chart bars over the chart.
test('screenshot: a style regression is caught', { timeout: TIMEOUT, skip: UPDATE && 'updating the references' }, async () => {
  const page = await comparePage(DESKTOP);
  await page.evaluate(adoptSheet, '.bar { height: 100% }');
  const share = await check('compare-desktop', await capture(page));
  assert.ok(share > SHARE_TOLERANCE, `the regression changed only ${(share * 100).toFixed(3)}% of the pixels`);
  await fs.rm(path.join(DIFFS, 'compare-desktop.actual.png'), { force: true });
  await fs.rm(path.join(DIFFS, 'compare-desktop.diff.png'), { force: true });
});
