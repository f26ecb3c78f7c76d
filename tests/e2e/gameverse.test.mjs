// GameVerse's harness in the browser: /run offers it, and a model run of Tic-Tac-Toe as
// X against the scripted endpoint sends the reference agent's requests (from
// tests/golden/gameverse/conversation.json.gz, run `tic_tac_toe_x_draw`) request by
// request: two messages, the system text and every user text part verbatim, the
// screenshots as PNG where the reference sends them (the previous one the same image
// the request before sent as current, `None` before the first action). The episode
// names the harness in its settings and its share link verifies in a fresh page.

import { after, afterEach, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { expectText, pageHarness, saveProfile } from './support.mjs';
import { startScripted } from './scripted.mjs';

const TIMEOUT = 120_000;
const harness = pageHarness({ before, after, afterEach });
const open = harness.open;
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
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

test('/run offers GameVerse\'s harness, and a Tic-Tac-Toe run sends the reference agent\'s requests', { timeout: TIMEOUT }, async () => {
  const golden = JSON.parse(
    zlib.gunzipSync(await fs.readFile(path.join(repoRoot, 'tests/golden/gameverse/conversation.json.gz'))).toString('utf8'),
  );
  const run = golden.runs.find((r) => r.name === 'tic_tac_toe_x_draw');
  assert.deepEqual(run.kwargs, { player_mark: 'X' });
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'playbench-gameverse-'));
  const script = path.join(dir, 'script.json');
  await fs.writeFile(script, JSON.stringify(run.script));
  const model = `file:${script}`;
  try {
    const page = await saveProfile(open, { base: `${scripted.url}/v1`, model });

    await page.goto(`${harness.url()}/run?task=tic-tac-toe-x&suite=gameverse`);
    await page.getByTestId('run-protocol').selectOption('gameverse');
    await page.getByTestId('run-gameverse-hint').waitFor();
    await page.getByTestId('run-start').click();
    await page.getByTestId('run-result').waitFor({ timeout: 90_000 });
    // The third reply plays an occupied cell: an immediate loss, scored by the marks
    // placed (GameVerse's 100·n/5 as X).
    const last = run.steps[run.steps.length - 1].state;
    assert.equal(last.result, 'loss');
    await expectText(page.getByTestId('run-verdict'), 'Not passed');
    await expectText(page.getByTestId('run-score'), new RegExp(`^${(100 * last.agent_marks) / 5}(\\.0+)?$`));

    const requests = (await scripted.log()).filter((e) => e.script === model);
    assert.equal(requests.length, run.steps.length);
    let previous = null;
    for (const [n, entry] of requests.entries()) {
      const got = entry.body.messages;
      const want = run.steps[n].request;
      assert.deepEqual(got.map((m) => m.role), ['system', 'user'], `request ${n}`);
      assert.equal(got[0].content, want.system, `request ${n}`);
      assert.equal(got[1].content.length, want.user.length, `request ${n}`);
      let current = null;
      for (const [gp, wp] of got[1].content.map((p, i) => [p, want.user[i]])) {
        if (wp.text !== undefined) {
          assert.equal(gp.type, 'text', `request ${n}`);
          assert.equal(gp.text, wp.text, `request ${n}`);
          continue;
        }
        assert.equal(gp.type, 'image_url', `request ${n}`);
        const url = gp.image_url.url;
        assert.match(url, /^data:image\/png;base64,/);
        if (wp.image === `step ${n}`) current = url;
        else {
          assert.equal(wp.image, `step ${n - 1}`);
          assert.equal(url, previous, `request ${n}: the previous screenshot`);
        }
      }
      assert.ok(current, `request ${n}: the current screenshot`);
      previous = current;
    }

    const link = await page.getByTestId('share-link').inputValue();
    const payload = link.split('#e=pb1.')[1];
    const file = JSON.parse(zlib.inflateRawSync(Buffer.from(payload, 'base64url').subarray(4)).toString('utf8'));
    assert.equal(file.settings.protocol, 'gameverse');
    assert.equal(file.settings.image_format, 'image/png');
    assert.deepEqual(file.record.decisions.map((d) => d.raw), run.script.slice(0, run.steps.length));
    await page.goto(link);
    await expectText(page.getByTestId('verdict'), 'Verified', 30_000);

    await page.goto(`${harness.url()}/run/suite?suite=gameverse`);
    assert.equal(await page.getByTestId('run-protocol').inputValue(), 'gameverse');
    await page.getByTestId('run-protocol').selectOption('vical');
    assert.equal(await page.getByTestId('run-gameverse-hint').count(), 0);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});
