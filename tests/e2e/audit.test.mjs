// End-to-end check of the trajectory auditor on /audit (docs/audit.md) against the
// scripted endpoint (tests/servers/scripted-openai.mjs, model `audit:malformed`: a
// transfer reply with a wrong label that is asked again, and failure-stage replies that
// are never JSON): a bad file is refused, a results file made by an earlier build is
// audited with progress, the report and the verdicts show, a verdict's link opens the
// replay viewer at its step, the audit file downloads and survives a reload.
//   node --test tests/e2e/audit.test.mjs   (after the Trunk build; see support.mjs)

import { after, afterEach, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { downloaded, pageHarness, saveProfile } from './support.mjs';
import { startScripted } from './scripted.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
// A model's results file (two FrozenLake episodes) from the build that published
// playbench-core v1: the auditor rebuilds their conversations from it.
const RESULTS = path.join(here, '..', 'fixtures', 'v1', 'frozenlake-4x4-det.endpoint.results.json');
const NOT_RESULTS = path.join(here, '..', 'fixtures', 'v1', 'frozenlake-4x4-s1.oracle.episode.json');
const TIMEOUT = 120_000;

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

test('an audit of a results file: report, verdicts with links to the replay step, malformed replies, download, reload', { timeout: TIMEOUT }, async () => {
  await saveProfile(open, { base: `${scripted.url}/v1`, model: 'audit:malformed' });
  const page = await open('/audit');

  // An episode file is not a results file: said so, nothing else happens.
  await page.getByTestId('audit-file').setInputFiles(NOT_RESULTS);
  await page.getByTestId('audit-error').getByText(/is a playbench-episode-file\/1 file: drop a results file/).waitFor();

  await page.getByTestId('audit-file').setInputFiles(RESULTS);
  await page.getByTestId('audit-results').getByText(/2 episodes/).waitFor();
  assert.equal(await page.getByTestId('audit-error').count(), 0);
  await page.getByTestId('audit-start').click();
  await page.getByTestId('audit-progress').getByText('2 of 2 episodes audited · finished').waitFor({ timeout: 90_000 });

  // A reference per task; the transfer requests (the first asked again); three
  // failure-stage requests per episode.
  const log = await scripted.log();
  assert.equal(log.length, 2 + 3 + 2 * 3);
  assert.ok(log.every((r) => r.images > 2), 'every request carries its frames');

  const report = page.getByTestId('audit-report');
  await report.getByText('Overall (environments weighted equally)').waitFor();
  await report.getByText('environment: FrozenLake-v1').waitFor();
  await report.getByText('memory: single', { exact: false }).first().waitFor();
  assert.equal(await page.getByTestId('audit-episode').count(), 2);
  const verdicts = page.getByTestId('audit-verdict');
  assert.equal(await verdicts.count(), 2);
  assert.equal((await verdicts.first().textContent()).trim(), 'rules successful · strategy underfit');
  const errors = page.getByTestId('audit-verdict-error');
  assert.equal(await errors.count(), 2);
  assert.match(await errors.first().textContent(), /No verdict: 3 replies broke the output contract; the last: the reply is not a JSON object/);
  await page.getByText('1 rejected reply').first().click();
  await page.getByText('strategy_transfer.label: "overfitted" is not one of correct, underfit, overfit').first().waitFor();

  const file = JSON.parse(await downloaded(page, 'audit-download'));
  assert.equal(file.format, 'playbench-audit/1');
  assert.equal(file.episodes.length, 2);

  // Nothing is lost on a reload.
  await page.reload();
  await page.getByTestId('audit-progress').getByText('2 of 2 episodes audited').waitFor();
  await page.getByTestId('audit-report').first().waitFor();

  // The verdict's link opens the replay viewer at its step.
  const link = page.getByTestId('audit-verdict-link').first();
  const href = await link.getAttribute('href');
  const step = Number(href.match(/&t=(\d+)$/)[1]);
  assert.equal(step, file.episodes[0].information_transfer.step);
  await link.click();
  await page.waitForURL((url) => url.pathname === '/episode');
  await page.getByTestId('verdict').getByText('Verified').waitFor();
  await page.getByTestId('replay-counter').getByText(new RegExp(`^Step ${step} of \\d+$`)).waitFor();
});
