// End-to-end checks of Atari in headless Chromium:
//   node --test tests/e2e/atari.test.mjs
// after `trunk build --config trunk.toml --release` (the site in dist/, or PLAYBENCH_DIST).
//
// Playbench ships no ROM: a person drops it on the page. The tests take Breakout's ROM
// from the test cache `.cache/atari-roms/` (or ATARI_ROMS_DIR), which the native tests
// fill from the ale-py wheel (`tests/src/atari/roms.rs`); when it is missing, this file
// fills it by running the one native test that reads Breakout's ROM. A person plays on
// (forks) a short scripted episode of a task written out in full
// (`tests/src/bin/atari_episode.rs`); a model plays a task of the vical suite against the
// scripted endpoint (tests/servers/scripted-openai.mjs).

import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { downloaded, expectText, launchBrowser, openPage, pageHarness, saveProfile } from './support.mjs';
import { startScripted } from './scripted.mjs';

const TIMEOUT = 120_000;
const harness = pageHarness({ before, after, afterEach });
const open = harness.open;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const romDir = process.env.ATARI_ROMS_DIR ?? path.join(repoRoot, '.cache', 'atari-roms');
const BREAKOUT_MD5 = 'f34f08e5eb96e500e851a80be3277a56';

/** Breakout's ROM from the test cache, filling the cache first when it is empty. */
function breakoutRomPath() {
  const file = path.join(romDir, 'breakout.bin');
  if (!fs.existsSync(file)) {
    try {
      execFileSync('cargo', ['test', '-j', '1', '-p', 'playbench-app', '--test', 'missing_roms'], {
        cwd: repoRoot,
        stdio: 'inherit',
      });
    } catch (err) {
      throw new Error(
        `no Atari ROM at ${file}, and filling the cache from the ale-py wheel failed (${err.message}); ` +
          'run `cargo test -j 1 -p playbench-app --test missing_roms` or set ATARI_ROMS_DIR',
      );
    }
  }
  assert.ok(fs.existsSync(file), `no ROM at ${file} after filling the cache`);
  return file;
}

/** Drops files on the element, as a person dragging them from the desktop does. */
async function dropFiles(page, selector, files) {
  const payload = files.map(({ name, bytes }) => ({ name, data: [...bytes] }));
  const transfer = await page.evaluateHandle((files) => {
    const dt = new DataTransfer();
    for (const f of files) dt.items.add(new File([new Uint8Array(f.data)], f.name));
    return dt;
  }, payload);
  await page.locator(selector).dispatchEvent('dragover', { dataTransfer: transfer });
  await page.locator(selector).dispatchEvent('drop', { dataTransfer: transfer });
}

/** The frame canvas's pixels as a data URL. */
async function frameImage(page) {
  return page.getByTestId('frame').evaluate((c) => c.toDataURL());
}

async function steps(page) {
  return Number(await page.getByTestId('step-count').textContent());
}

/** Opens an episode `link` in a fresh browser: it asks for the ROM, and once the ROM is
 * chosen it re-simulates, re-scores and verifies, with no errors logged. */
async function verifiesInFreshBrowser(link) {
  const other = await launchBrowser();
  try {
    const { page, problems } = await openPage(other.context);
    await page.goto(link);
    await expectText(page.getByTestId('needs-rom-text'), /breakout\.bin/);
    await page.getByTestId('rom-file').setInputFiles(breakoutRomPath());
    await expectText(page.getByTestId('verdict'), 'Verified', 60_000);
    assert.deepEqual(problems, [], 'the fresh browser logged errors');
  } finally {
    await other.close();
  }
}

test('Breakout: the ROM dropped on the page plays by keyboard at 60 Hz; its link asks a fresh browser for the ROM', { timeout: TIMEOUT }, async () => {
  const rom = fs.readFileSync(breakoutRomPath());

  // Without the ROM the home page shows a placeholder, and the link asks for the file.
  const page = await open('/');
  const card = page.locator('[data-env-id="ALE/Breakout-v5"]');
  await expectText(card.getByTestId('needs-rom-thumb'), 'Needs its ROM (breakout.bin)');
  await page.goto(`${harness.url()}/play?env=ALE/Breakout-v5&seed=3`);
  const ask = await expectText(page.getByTestId('needs-rom-text'), /breakout\.bin/);
  assert.match(ask, new RegExp(BREAKOUT_MD5));
  assert.match(ask, /ale-py wheel/);

  // Dropping it starts the game, paused, with ALE's action names on the buttons.
  await dropFiles(page, '[data-testid=rom-drop]', [{ name: 'breakout.bin', bytes: rom }]);
  await expectText(page.getByTestId('env-id'), 'ALE/Breakout-v5');
  const names = await page.locator('.action-name').allTextContents();
  assert.deepEqual(names, ['NOOP', 'FIRE', 'RIGHT', 'LEFT']);
  assert.equal(await page.getByTestId('pause').getAttribute('aria-pressed'), 'true');
  assert.equal(await steps(page), 0);
  const firstFrame = await frameImage(page);
  const status = await expectText(page.getByTestId('text-render'), /^Breakout: lives 5, episode frame \d+/);
  const frame0 = Number(status.match(/episode frame (\d+)/)[1]);

  // FIRE serves and starts the clock; then the paddle moves for a few seconds.
  const started = Date.now();
  await page.keyboard.press('Space');
  // On fixed ticks the latest press before a tick wins: FIRE gets a tick of its own.
  await page.waitForTimeout(200);
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press(i % 4 < 2 ? 'ArrowRight' : 'ArrowLeft');
    await page.waitForTimeout(250);
  }
  await page.keyboard.press('p');
  await expectText(page.getByTestId('realtime-note'), /Paused|over/);
  const elapsed = (Date.now() - started) / 1000;
  const played = await steps(page);
  // 15 steps of 4 frames each second: allow for a busy machine, never more than real time.
  assert.ok(played >= 10 && played <= Math.ceil(elapsed * 15) + 2, `${played} steps in ${elapsed} s`);
  const shown = Number((await page.getByTestId('virtual-time').textContent()).replace(' s', ''));
  // One step per 67 ms of virtual time (shown to a tenth of a second).
  assert.ok(Math.abs(played - (shown * 1000) / 67) <= 2, `virtual ${shown} s for ${played} steps`);
  // Each step is ALE's frame skip of 4 frames.
  await expectText(page.getByTestId('text-render'), new RegExp(`^Breakout: lives \\d, episode frame ${frame0 + played * 4}\\b`));
  assert.notEqual(await frameImage(page), firstFrame);

  // The ROM stays in this browser: /roms lists it, and a reload plays without asking.
  await page.goto(`${harness.url()}/roms`);
  await expectText(page.getByTestId('rom-count'), '1 of 20 supported games have their ROM here.');
  const row = page.locator('[data-testid=rom-row][data-game=Breakout]');
  await expectText(row.getByTestId('rom-size'), `${rom.length} bytes`);
  const link = `${harness.url()}/play?env=ALE/Breakout-v5&seed=3`;
  await page.goto(link);
  await expectText(page.getByTestId('env-id'), 'ALE/Breakout-v5');
  assert.equal(await frameImage(page), firstFrame);
  // …but never in the link.
  assert.ok(!page.url().includes('rom'), page.url());

  // A fresh browser: the link asks for the ROM; once chosen, the same game starts.
  const other = await launchBrowser();
  try {
    const { page: fresh, problems } = await openPage(other.context);
    await fresh.goto(link);
    await expectText(fresh.getByTestId('needs-rom-text'), /breakout\.bin/);
    await fresh.getByTestId('rom-file').setInputFiles(breakoutRomPath());
    await expectText(fresh.getByTestId('env-id'), 'ALE/Breakout-v5');
    assert.equal(await frameImage(fresh), firstFrame);
    await fresh.keyboard.press('Space');
    await fresh.waitForFunction(() => Number(document.querySelector('[data-testid=step-count]').textContent) >= 5);
    // Removing it on /roms: the link asks again.
    await fresh.goto(`${harness.url()}/roms`);
    await fresh.getByRole('button', { name: 'Remove the Breakout ROM' }).click();
    await expectText(fresh.locator('[data-testid=rom-row][data-game=Breakout]').getByTestId('rom-size'), 'missing');
    await fresh.goto(link);
    await expectText(fresh.getByTestId('needs-rom-text'), /breakout\.bin/);
    assert.deepEqual(problems, [], 'the fresh browser logged errors');
  } finally {
    await other.close();
  }
});

test('Files that are not ROMs are refused with a clear message; the wheel-sized rest too', { timeout: TIMEOUT }, async () => {
  const page = await open('/roms');
  await expectText(page.getByTestId('rom-count'), /^\d+ of 20 supported games/);
  const before = await page.getByTestId('rom-count').textContent();
  await page.getByTestId('rom-file').setInputFiles([
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('these are my notes') },
    { name: 'movie.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(100_000) },
  ]);
  const refused = page.getByTestId('rom-refused');
  await refused.first().waitFor();
  const lines = await refused.allTextContents();
  assert.equal(lines.length, 2, lines.join('\n'));
  assert.match(lines[0], /^notes\.txt refused: not a supported ROM: no game Playbench plays has MD5 [0-9a-f]{32}$/);
  assert.match(lines[1], /movie\.bin is not an Atari ROM: 100000 bytes/);
  assert.equal(await page.getByTestId('rom-count').textContent(), before);
  // A zip without ROMs is refused as such.
  await dropFiles(page, '[data-testid=rom-drop]', [{ name: 'other.whl', bytes: emptyZip() }]);
  await expectText(page.getByTestId('rom-refused'), /other\.whl is a zip archive without ROMs/);
});

/** A short scripted Breakout episode's link fragment (`e=pb1.…`), from the native tools. */
function scriptedEpisode() {
  breakoutRomPath();
  const out = execFileSync('cargo', ['run', '-j', '1', '-q', '-p', 'playbench-tests', '--bin', 'atari_episode'], {
    cwd: repoRoot,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const fragment = out.trim().split('\n').pop();
  assert.match(fragment, /^e=pb1\./);
  return fragment;
}

test('A person plays Breakout on from an episode, shares it, and the link verifies in a fresh browser once the ROM is dropped', { timeout: 240_000 }, async () => {
  const fragment = scriptedEpisode();
  const rom = fs.readFileSync(breakoutRomPath());
  const person = await launchBrowser();
  let link;
  try {
    const { page, problems } = await openPage(person.context);
    // Playing on from the episode's start asks for the ROM first.
    await page.goto(`${harness.url()}/task/play?fork=0#${fragment}`);
    await expectText(page.getByTestId('needs-rom-text'), /breakout\.bin/);
    await dropFiles(page, '[data-testid=rom-drop]', [{ name: 'breakout.bin', bytes: rom }]);
    // Then by keyboard in real time: FIRE, then moves, until the decision budget (60
    // ticks, 4 seconds) runs out.
    await page.getByTestId('decision-text').waitFor();
    await expectText(page.getByTestId('virtual-time'), '0.0 s');
    // On fixed ticks the latest press before a tick wins: FIRE gets a tick of its own.
    await page.keyboard.press('Space');
    await page.waitForTimeout(200);
    for (let i = 0; i < 40 && (await page.getByTestId('result').count()) === 0; i++) {
      await page.keyboard.press(i % 6 < 3 ? 'ArrowRight' : 'ArrowLeft');
      await page.waitForTimeout(200);
    }
    await page.getByTestId('result').waitFor({ timeout: 20_000 });
    link = await page.getByTestId('share-link').inputValue();
    assert.ok(!/rom/i.test(link.split('#')[0]), link);
    const href = await page.getByTestId('download-episode').getAttribute('href');
    // The download is the episode file (`playbench-episode/1`): the record is inside.
    const { record } = JSON.parse(decodeURIComponent(href.slice(href.indexOf(',') + 1)));
    assert.ok(record.decisions.some((d) => d.action === 'FIRE'), 'FIRE was played');
    assert.ok(record.decisions.some((d) => d.action === 'RIGHT' || d.action === 'LEFT'), 'the paddle moved');
    // The scripted episode it continued verifies here too, now that the ROM is here.
    await page.goto(`${harness.url()}/episode#${fragment}`);
    await expectText(page.getByTestId('verdict'), 'Verified', 30_000);
    assert.deepEqual(problems, [], 'the page logged errors');
  } finally {
    await person.close();
  }

  await verifiesInFreshBrowser(link);
});

test('The ale-py wheel dropped on /roms puts every supported game on the shelf', { timeout: TIMEOUT }, async () => {
  breakoutRomPath(); // fills .cache/wheels/ too
  const wheels = path.join(repoRoot, '.cache', 'wheels');
  const wheel = fs.readdirSync(wheels).find((f) => f.startsWith('ale_py-0.12.1-') && f.endsWith('.whl'));
  assert.ok(wheel, `no ale-py wheel in ${wheels}`);
  const fresh = await launchBrowser();
  try {
    const { page, problems } = await openPage(fresh.context);
    await page.goto(`${harness.url()}/roms`);
    await expectText(page.getByTestId('rom-count'), '0 of 20 supported games have their ROM here.');
    await page.getByTestId('rom-file').setInputFiles(path.join(wheels, wheel));
    await expectText(page.getByTestId('rom-count'), '20 of 20 supported games have their ROM here.', 30_000);
    const lines = await page.getByTestId('rom-accepted').allTextContents();
    assert.ok(lines.some((l) => /^breakout\.bin: Breakout \(ALE's breakout\.bin\) — MD5 f34f08e5eb96e500e851a80be3277a56/.test(l)), lines.join('\n'));
    assert.match(lines.at(-1), /other ROMs in it are games Playbench does not play yet/);
    assert.equal(await page.getByTestId('rom-refused').count(), 0);
    // Kept across a reload, and every Atari card now shows its first frame.
    await page.goto(`${harness.url()}/`);
    await page.locator('[data-env-id="ALE/Pong-v5"] canvas').waitFor();
    assert.equal(await page.getByTestId('needs-rom-thumb').count(), 0);
    assert.deepEqual(problems, [], 'the page logged errors');
  } finally {
    await fresh.close();
  }
});

test('A vical Atari task asks for its ROM, shows the expert and random demonstrations, and a model plays it at V-ICAL settings; the link verifies', { timeout: 480_000 }, async () => {
  const rom = fs.readFileSync(breakoutRomPath());
  const scripted = await startScripted();
  const fresh = await launchBrowser();
  try {
    const { page, problems } = await openPage(fresh.context);
    const goto = async (p) => {
      await page.goto(`${harness.url()}${p}`);
      return page;
    };
    // A suite run names the games whose ROMs are missing and does not start without them.
    await goto('/run/suite?suite=vical');
    await expectText(page.getByTestId('suite-needs-roms'), /^The selected tasks include 9 Atari games whose ROMs are not on this device \(Playbench ships none\): Seaquest, Asterix, Frostbite, Berzerk, RoadRunner, Tennis, Freeway, BattleZone, Breakout\./, 30_000);
    await page.getByTestId('suite-start').click();
    await expectText(page.getByTestId('suite-problems'), /ROMs are not on this device \(Seaquest, .*Breakout\)/);

    // The pages that run or play the task ask for the ROM too (one gate, AssetGate).
    for (const p of ['/run?task=breakout-served&suite=vical', '/task/play?suite=vical&id=breakout-served']) {
      await goto(p);
      await expectText(page.getByTestId('needs-rom-text'), /breakout\.bin/, 30_000);
      assert.equal(await page.title(), 'ROM needed · Playbench');
    }

    // The task's page asks for the ROM; once dropped, its demonstrations play.
    await goto('/task?id=breakout-served&suite=vical');
    await expectText(page.getByTestId('needs-rom-text'), /breakout\.bin/, 30_000);
    await dropFiles(page, '[data-testid=rom-drop]', [{ name: 'breakout.bin', bytes: rom }]);
    await expectText(page.getByTestId('task-id'), 'breakout-served');
    assert.equal(await page.getByTestId('demo').count(), 2);
    await expectText(page.getByTestId('task-rules'), /as a share of an expert's on the same start; you pass at 50 of 100/);
    await expectText(page.getByTestId('demo-caption').first(), 'Start State');

    // A model at V-ICAL's settings: the whole history, demonstrations first, one
    // decision a turn until the 200-decision budget runs out or the game ends.
    await saveProfile(goto, { base: `${scripted.url}/v1`, model: 'seq:FIRE,RIGHT,RIGHT,LEFT,LEFT,NOOP' });
    await goto('/run?task=breakout-served&suite=vical');
    await page.getByTestId('run-start').click();
    await page.getByTestId('run-result').waitFor({ timeout: 400_000 });
    const log = await scripted.log();
    assert.ok(log.length > 6, `${log.length} requests`);
    // The first request holds the demonstrations' 60 frames and the start; each later
    // one adds a frame.
    assert.equal(log[0].images, 61, JSON.stringify(log.slice(0, 3).map((l) => l.images)));
    assert.equal(log[1].images, 62);
    const file = JSON.parse(await downloaded(page, 'run-download'));
    assert.equal(file.task.suite, 'vical');
    assert.equal(file.record.task, 'breakout-served');
    assert.equal(file.record.decisions.length, log.length, 'a request a decision');
    assert.ok(
      log.length === 200 || file.record.failure === 'early_termination',
      `${log.length} decisions, ${file.record.failure}`,
    );
    assert.deepEqual(file.record.decisions.slice(0, 3).map((d) => d.action), ['FIRE', 'RIGHT', 'RIGHT']);
    const link = await page.getByTestId('share-link').inputValue();
    assert.ok(!/rom/i.test(link.split('#')[0]), link);
    assert.deepEqual(problems, [], 'the page logged errors');

    await verifiesInFreshBrowser(link);
  } finally {
    await fresh.close();
    await scripted.close();
  }
});

/** The smallest zip archive: an end-of-central-directory record and nothing else. */
function emptyZip() {
  const b = Buffer.alloc(22);
  b.writeUInt32LE(0x06054b50, 0);
  // A leading local-file signature makes it look like a zip to the app's sniffing.
  return Buffer.concat([Buffer.from('PK\x03\x04'), b]);
}
