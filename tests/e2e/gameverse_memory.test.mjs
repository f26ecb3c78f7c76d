// GameVerse's memory agent in the browser: /run offers it beside the harness, and a
// model run of maze-s1 against the scripted endpoint sends the reference memory agent's
// requests (from tests/golden/gameverse/memory_conversation.json.gz, run `maze_memory`)
// request by request: the history reviews and the action requests, their system texts
// and every user text part verbatim, each screenshot as PNG where the reference sends
// one (the same image wherever the reference sends the same step). The episode names
// the agent in its settings and its share link verifies in a fresh page.

import { after, afterEach, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { expectText, pageHarness, saveProfile } from './support.mjs';
import { startScripted } from './scripted.mjs';

const TIMEOUT = 180_000;
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

test('/run offers GameVerse\'s memory agent, and a maze run sends the reference agent\'s requests', { timeout: TIMEOUT }, async () => {
  const golden = JSON.parse(
    zlib.gunzipSync(await fs.readFile(path.join(repoRoot, 'tests/golden/gameverse/memory_conversation.json.gz'))).toString('utf8'),
  );
  const run = golden.runs.find((r) => r.name === 'maze_memory');
  assert.equal(run.seed, 1);
  const want = run.steps.flatMap((s) => s.requests);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'playbench-gameverse-memory-'));
  const script = path.join(dir, 'script.json');
  await fs.writeFile(script, JSON.stringify(run.script));
  const model = `file:${script}`;
  try {
    const page = await saveProfile(open, { base: `${scripted.url}/v1`, model });

    await page.goto(`${harness.url()}/run?task=maze-s1&suite=gameverse`);
    await page.getByTestId('run-protocol').selectOption('gameverse');
    await page.getByTestId('run-gameverse-agent').selectOption('memory');
    await page.getByTestId('run-start').click();
    await page.getByTestId('run-result').waitFor({ timeout: 150_000 });

    const requests = (await scripted.log()).filter((e) => e.script === model);
    assert.equal(requests.length, want.length);
    const shots = new Map();
    for (const [n, entry] of requests.entries()) {
      const got = entry.body.messages;
      assert.deepEqual(got.map((m) => m.role), ['system', 'user'], `request ${n}`);
      assert.equal(got[0].content, want[n].system, `request ${n}`);
      assert.equal(got[1].content.length, want[n].user.length, `request ${n}`);
      for (const [gp, wp] of got[1].content.map((p, i) => [p, want[n].user[i]])) {
        if (wp.text !== undefined) {
          assert.equal(gp.type, 'text', `request ${n}`);
          assert.equal(gp.text, wp.text, `request ${n}`);
          continue;
        }
        assert.equal(gp.type, 'image_url', `request ${n}`);
        const url = gp.image_url.url;
        assert.match(url, /^data:image\/png;base64,/);
        if (shots.has(wp.image)) assert.equal(url, shots.get(wp.image), `request ${n}: ${wp.image}`);
        else shots.set(wp.image, url);
      }
    }
    assert.equal(shots.size, run.steps.length);

    const link = await page.getByTestId('share-link').inputValue();
    const payload = link.split('#e=pb1.')[1];
    const file = JSON.parse(zlib.inflateRawSync(Buffer.from(payload, 'base64url').subarray(4)).toString('utf8'));
    assert.equal(file.settings.protocol, 'gameverse');
    assert.equal(file.settings.gameverse_agent, 'memory');
    // Each decision's reply is its action request's (the first step has no review).
    const actionReplies = run.steps.map((_, k) => run.script[k === 0 ? 0 : 2 * k]);
    assert.deepEqual(file.record.decisions.map((d) => d.raw), actionReplies);
    await page.goto(link);
    await expectText(page.getByTestId('verdict'), 'Verified', 30_000);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});
