// End-to-end check of the milestone judge on /judge (docs/judge.md, "In the browser")
// against the scripted endpoint (tests/servers/scripted-openai.mjs, model `judge`: even
// milestones completed, plus a repeated and an out-of-range entry). The oracle's and a
// random player's episodes of the gameverse suite's maze-s1 are made with `playbench run`,
// judged on the page and with `playbench judge` on the same endpoint: the requests are
// the same word for word (the spec's §9.2 prompt, the milestone lines, every frame), and
// the page's judge file — report included — is the CLI's. The report shows, the judging
// survives a reload, and the episode page links to the judge with its episode.
//   node --test tests/e2e/judge.test.mjs   (after the Trunk build; see support.mjs)
// The CLI is the binary PLAYBENCH_BIN names (scripts/test.sh names the dev build its native
// tests made), else `cargo run --release -p playbench-cli --bin playbench`.

import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { downloaded, expectText, pageHarness, saveProfile } from './support.mjs';
import { startScripted } from './scripted.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TIMEOUT = 600_000;

const harness = pageHarness({ before, after, afterEach });
const open = harness.open;
let scripted;
let dir;
before(async () => {
  scripted = await startScripted();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'playbench-judge-'));
});
after(async () => {
  await scripted?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** `playbench ARGS…`; its stdout. */
function cli(args) {
  const [cmd, pre] = process.env.PLAYBENCH_BIN
    ? [process.env.PLAYBENCH_BIN, []]
    : ['cargo', ['run', '--release', '-j', '1', '-q', '-p', 'playbench-cli', '--bin', 'playbench', '--']];
  return execFileSync(cmd, [...pre, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'inherit'] });
}

/** The text of an OpenAI message's content (a string or parts). */
function texts(message) {
  return typeof message.content === 'string' ? [message.content] : message.content.filter((p) => p.type === 'text').map((p) => p.text);
}

/** The judge's texts as the repository keeps them (bench/src/judge/prompts/). */
function expectedTexts(game, milestonesFile) {
  const read = (f) => fs.readFileSync(path.join(ROOT, 'bench/src/judge/prompts', f), 'utf8').replace(/\n+$/, '');
  const list = JSON.parse(fs.readFileSync(path.join(ROOT, milestonesFile), 'utf8')).milestones;
  const lines = list.map((m, i) => `Milestone ${i}: ${m.title} - ${m.description}`).join('\n');
  const [head, tail] = read('user.txt').split('{milestones_text}');
  return { system: read('system.txt'), user: head.replace('{game_name}', game) + lines + tail, count: list.length };
}

test('/judge: oracle and random maze episodes judged as `playbench judge` judges them', { timeout: TIMEOUT }, async () => {
  const oracle = path.join(dir, 'maze-s1.oracle.episode.json');
  const random = path.join(dir, 'maze-s1.random.episode.json');
  fs.writeFileSync(oracle, cli(['run', '--suite-id', 'gameverse', '--task', 'maze-s1', '--agent', 'oracle']));
  fs.writeFileSync(random, cli(['run', '--suite-id', 'gameverse', '--task', 'maze-s1', '--agent', 'random', '--seed', '1']));

  // The page.
  await scripted.reset();
  await saveProfile(open, { base: `${scripted.url}/v1`, model: 'judge' });
  const page = await open('/judge');
  // A file of another kind is refused, saying why.
  await page.getByTestId('judge-file').setInputFiles(path.join(ROOT, 'bench/suites/gameverse/v1.json'));
  await page.getByTestId('judge-error').waitFor();
  await page.getByTestId('judge-file').setInputFiles([oracle, random]);
  await expectText(page.getByTestId('judge-chosen'), '2 episode files: maze-s1.oracle.episode.json, maze-s1.random.episode.json');
  await page.getByTestId('judge-max-images').fill('12');
  await page.getByTestId('judge-max-images').dispatchEvent('change');
  await page.waitForURL((u) => u.pathname === '/judge' && u.searchParams.get('max_images') === '12');
  await page.getByTestId('judge-start').click();
  await expectText(page.getByTestId('judge-progress'), '2 of 2 episodes judged · finished', 120_000);
  const browserLog = await scripted.log();
  const file = JSON.parse(await downloaded(page, 'judge-download'));

  // The command line on the same episodes and endpoint.
  await scripted.reset();
  const cliFile = JSON.parse(cli(['judge', oracle, random, '--provider', 'openai', '--base-url', `${scripted.url}/v1`, '--model', 'judge', '--max-images', '12']));
  const cliLog = await scripted.log();

  // One request per episode, word for word the CLI's: the system prompt and the
  // milestone lines as the repository keeps them, the frames thinned to the budget.
  assert.equal(browserLog.length, 2);
  assert.equal(cliLog.length, 2);
  const expected = expectedTexts('Maze', 'envs/src/gameverse/maze/milestones.json');
  for (const [i, r] of browserLog.entries()) {
    const [system, user] = r.body.messages;
    assert.deepEqual(texts(system), [expected.system]);
    const userTexts = texts(user);
    assert.equal(userTexts.at(-1), expected.user);
    assert.ok(r.images >= 2 && r.images <= 12, `request ${i}: ${r.images} images`);
    assert.equal(r.images, file.episodes[i].frames_sent);
    assert.deepEqual(r.body.messages, cliLog[i].body.messages, `request ${i} differs from the CLI's`);
  }
  // The random player's 20 decisions do not fit 12 images; the markers follow every tenth.
  assert.equal(file.episodes[1].frames_total, 20);
  assert.ok(file.episodes[1].frames_sent < 20);
  // The judge file, report included, is the CLI's.
  assert.deepEqual(file, cliFile);
  assert.equal(file.report.episodes, 2);
  assert.equal(file.report.judged, 2);
  assert.equal(file.episodes[0].milestones.length, expected.count);
  assert.ok(file.episodes[0].milestones.every((m) => m.exact === true), 'the oracle reaches every milestone');
  assert.ok(file.report.disagreements.length > 0);

  // What the page shows: the report's figures, the disagreements with their evidence,
  // each episode's judge and exact answers.
  const report = page.getByTestId('judge-report');
  const overall = report.locator('tbody tr').first();
  const cells = (await overall.locator('td').allTextContents()).map((t) => t.trim());
  const o = file.report.overall;
  const pct = (v) => (v == null ? '-' : (100 * v).toFixed(1));
  assert.deepEqual(cells, [String(file.report.judged - file.report.flagged), String(o.milestones), pct(o.agreement_rate), String(o.false_completions), String(o.missed_completions), o.kappa == null ? '-' : o.kappa.toFixed(2)]);
  // The CLI's table has the same overall row.
  const table = cli(['judge', '--report', writeJson('judge.json', cliFile)]);
  const cliRow = table.split('\n').find((l) => l.trim().startsWith('Overall')).trim().split(/\s+/).slice(1);
  assert.deepEqual(cells, cliRow);
  assert.equal(await page.getByTestId('judge-disagreement').count(), file.report.disagreements.length);
  const first = file.report.disagreements[0];
  await page.getByTestId('judge-disagreement').first().getByText(`The judge's evidence: ${first.evidence}`).waitFor();
  assert.equal(await page.getByTestId('judge-episode').count(), 2);
  await expectText(page.getByTestId('judge-episode-scores').first(), /^judge 3 of 5 \(60\.0 %\) · exact 5 of 5 \(100\.0 %\) · \d+ of \d+ frames sent$/);

  // Nothing is lost on a reload; the budget stays in the URL.
  await page.reload();
  await expectText(page.getByTestId('judge-progress'), '2 of 2 episodes judged');
  await page.getByTestId('judge-report').waitFor();
  assert.equal(await page.getByTestId('judge-max-images').inputValue(), '12');

  // A disagreement's link opens the replay viewer at the decision that reached it.
  const link = page.getByTestId('judge-disagreement-link').first();
  await link.click();
  await page.waitForURL((url) => url.pathname === '/episode');
  await expectText(page.getByTestId('verdict'), 'Verified', 30_000);
  // The episode page links back to the judge with this one episode.
  await page.getByTestId('episode-judge-link').click();
  await page.waitForURL((url) => url.pathname === '/judge');
  await expectText(page.getByTestId('judge-chosen'), "1 episode file: the episode's link");
  // A share link pasted joins it; a broken one is refused, saying why.
  await page.getByTestId('judge-link').fill('pb1.not-a-link');
  await page.getByTestId('judge-add-link').click();
  await page.getByTestId('judge-error').waitFor();
  const randomLink = cli(['run', '--suite-id', 'gameverse', '--task', 'maze-s1', '--agent', 'random', '--seed', '1', '--link']).trim();
  await page.getByTestId('judge-link').fill(randomLink);
  await page.getByTestId('judge-add-link').click();
  await expectText(page.getByTestId('judge-chosen'), "2 episode files: the episode's link, link 2");
  assert.equal(await page.getByTestId('judge-error').count(), 0);
});

function writeJson(name, value) {
  const p = path.join(dir, name);
  fs.writeFileSync(p, JSON.stringify(value));
  return p;
}
