// End-to-end checks of the comparison page: two results files (committed fixtures,
// see app/src/compare/fixtures.rs) and a bad one are imported, the table with
// confidence intervals, the chart and the paired comparison are shown, the imports
// survive a reload and a number leads to an episode's replay.
//   node --test tests/e2e/compare.test.mjs   (after a trunk build; see support.mjs)

import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pageHarness } from './support.mjs';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'compare');
const ORACLE = path.join(fixtures, 'oracle.results.json');
const RANDOM = path.join(fixtures, 'random-seed7.results.json');
const CI = /^\d+\.\d \[\d+\.\d, \d+\.\d\]$/;
const TIMEOUT = 90_000;

const harness = pageHarness({ before, after, afterEach });

test('two results files side by side with intervals, chart, pairs and replay links', { timeout: TIMEOUT }, async () => {
  const page = await harness.open('/compare');
  await page.getByTestId('compare-empty').waitFor();
  await page.getByTestId('compare-files').setInputFiles([ORACLE, RANDOM]);
  await page.getByTestId('compare-table').waitFor();
  assert.equal(await page.getByTestId('imported-file').count(), 2);

  // A bad file dropped on the page gets its own error; the good ones stay.
  await page.getByTestId('compare-drop').evaluate((zone) => {
    const dt = new DataTransfer();
    dt.items.add(new File(['{"not": "results"}'], 'broken.json', { type: 'application/json' }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  const error = page.getByTestId('import-error');
  await error.waitFor();
  assert.match(await error.innerText(), /broken\.json.*not a Playbench results file/s);
  assert.equal(await page.getByTestId('imported-file').count(), 2);

  const table = page.getByTestId('compare-table');
  const head = await table.locator('thead th').allInnerTexts();
  assert.deepEqual(head, ['Group', 'Oracle (fixture)', 'Random agent, seed 7 (fixture)']);
  const rowNames = await table.locator('tbody th[scope=row]').allInnerTexts();
  for (const name of ['overall', 'CliffWalking-v1', 'FrozenLake-v1', 'family: FrozenLake', 'memory: single']) {
    assert.ok(rowNames.includes(name), `row ${name} in ${rowNames}`);
  }
  const scores = await page.getByTestId('score-cell').allInnerTexts();
  assert.ok(scores.length >= 2 * rowNames.length - 2, `${scores.length} score cells`);
  for (const s of scores) assert.match(s.trim(), CI);
  const overallRow = table.locator('tr', { has: page.locator('th', { hasText: /^overall$/ }) });
  const [oraclePass, randomPass] = await overallRow.getByTestId('pass-cell').allInnerTexts();
  assert.equal(oraclePass.trim(), '100% [100, 100]');
  assert.match(randomPass.trim(), /^\d+% \[\d+, \d+\]$/);
  assert.match(await page.getByTestId('compare-method').innerText(), /bootstrap/);

  assert.equal(await page.getByTestId('compare-chart').locator('[data-testid=chart-bar]').count(), 2);

  const pair = page.getByTestId('paired-row');
  assert.equal(await pair.count(), 1);
  const cells = await pair.locator('th, td').allInnerTexts();
  assert.equal(cells[0], 'Oracle (fixture) vs Random agent, seed 7 (fixture)');
  assert.ok(Number(cells[1]) >= 8, `paired tasks: ${cells[1]}`);
  assert.match(cells[2], /^\+\d+\.\d \[[+-]\d+\.\d, [+-]\d+\.\d\]$/);
  const [w, t, l] = cells[3].split(' / ').map(Number);
  assert.equal(w + t + l, Number(cells[1]));

  // The imports survive a reload.
  await page.reload();
  await page.getByTestId('compare-table').waitFor();
  assert.equal(await page.getByTestId('imported-file').count(), 2);

  // A number lists its episodes; one opens in the replay viewer.
  await overallRow.getByTestId('score-cell').first().click();
  const list = page.getByTestId('episode-list');
  await list.waitFor();
  const links = list.getByTestId('episode-link');
  assert.ok((await links.count()) >= 8);
  const href = await links.first().getAttribute('href');
  assert.match(href, /^\/episode(#e=pb1\.|\?stored=)/);
  await links.first().click();
  await page.waitForURL((u) => u.pathname === '/episode');
  await page.locator('main').waitFor();
});
