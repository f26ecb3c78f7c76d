// End-to-end checks of VisGym's image environments in headless Chromium:
//   node --test tests/e2e/visgym_images.test.mjs
// after `trunk build --config trunk.toml --release` (the site in dist/, or PLAYBENCH_DIST).
//
// Jigsaw plays the bundled pictures, fetched when it opens (public/visgym-images/), and
// a person solves seed 0 by dragging pieces; then it plays a folder the person picks,
// and a reload asks for that folder again (a page cannot reopen it) and plays the same
// episode once it is picked (docs/visgym.md, "Image sets").

import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expectText, framePoint, launchBrowser, openPage, pageHarness, verifiedInFreshBrowser } from './support.mjs';
import { encodePng } from './png.mjs';

const TIMEOUT = 120_000;
const harness = pageHarness({ before, after, afterEach });

async function drag(page, from, to) {
  const [x0, y0] = await framePoint(page, from);
  const [x1, y1] = await framePoint(page, to);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move(x1, y1, { steps: 6 });
  await page.mouse.up();
}

async function frameSize(page) {
  return page.getByTestId('frame').evaluate((c) => [c.width, c.height]);
}

test('jigsaw/easy loads the bundled pictures when opened and is solved by dragging pieces', { timeout: TIMEOUT }, async () => {
  const page = await harness.open('/');
  const card = page.locator('[data-env-id="jigsaw/easy"]');
  await card.getByTestId('needs-pictures-thumb').waitFor();

  const zips = [];
  page.on('request', (r) => r.url().endsWith('/visgym-images/images.zip') && zips.push(r.url()));
  await page.goto(`${harness.url()}/play?env=jigsaw/easy&seed=0`);
  await expectText(page.getByTestId('env-id'), 'jigsaw/easy');
  await page.getByTestId('pointer-hint').waitFor();
  assert.equal(zips.length, 1, 'the bundled set is fetched once, when the puzzle opens');
  // Seed 0 plays procedural/shapes_a.png (320×240): 2×2 pieces with one-pixel borders.
  assert.deepEqual(await frameSize(page), [324, 244]);
  // The target arrangement of seed 0 is [2, 0, 1, 3] (the driver's reset state): swap
  // the pieces at positions 0 and 2, then 1 and 2; Enter stops.
  const centre = [[81, 61], [243, 61], [81, 183], [243, 183]];
  await drag(page, centre[0], centre[2]);
  await expectText(page.getByTestId('step-count'), '1');
  await drag(page, centre[1], centre[2]);
  await expectText(page.getByTestId('step-count'), '2');
  await page.getByTestId('frame').focus();
  await page.keyboard.press('Enter');
  await expectText(page.getByTestId('step-count'), '3');
  assert.equal(await page.locator('.status').getAttribute('data-outcome'), 'success');
});

// Each other image environment opens on the bundled pictures at the reference's frame
// size, takes a key and stops with Enter.
for (const [env, size, key] of [
  ['zoom_in_puzzle/easy', [1120, 224], null],
  ['colorization/easy', null, 'ArrowRight'],
  ['mental_rotation_2d/hard', [256, 128], 'ArrowLeft'],
]) {
  test(`${env} opens on the bundled pictures and plays by keys`, { timeout: TIMEOUT }, async () => {
    const page = await harness.open(`/play?env=${env}&seed=1`);
    await expectText(page.getByTestId('env-id'), env);
    await page.getByTestId('pointer-hint').waitFor();
    if (size) assert.deepEqual(await frameSize(page), size);
    await page.getByTestId('frame').focus();
    let steps = 0;
    if (key) {
      await page.keyboard.press(key);
      await expectText(page.getByTestId('step-count'), String(++steps));
    }
    await page.keyboard.press('Enter');
    await expectText(page.getByTestId('step-count'), String(++steps));
    assert.match(await page.locator('.status').getAttribute('data-outcome'), /^(success|terminated)$/);
  });
}

test('jigsaw plays a picked folder, and a reload asks for the folder again', { timeout: TIMEOUT }, async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pictures-'));
  const folder = path.join(dir, 'MyPictures');
  await fs.mkdir(path.join(folder, 'sub'), { recursive: true });
  const picture = (width, height, shade) => {
    const data = new Uint8Array(width * height * 4);
    for (let i = 0; i < width * height; i++) data.set([(i * 7) % 256, shade, (i >> 3) % 256, 255], i * 4);
    return encodePng({ width, height, data });
  };
  await fs.writeFile(path.join(folder, 'a.png'), picture(101, 77, 40));
  await fs.writeFile(path.join(folder, 'sub', 'c.png'), picture(101, 77, 200));
  await fs.writeFile(path.join(folder, 'notes.txt'), 'not a picture');
  try {
    const page = await harness.open('/play?env=jigsaw/easy&seed=3');
    await page.getByTestId('pointer-hint').waitFor();
    await page.getByTestId('picture-folder').setInputFiles(folder);
    await expectText(page.getByTestId('kwargs'), '{"sample_dir":"MyPictures"}');
    assert.match(decodeURIComponent(page.url()), /kwargs=\{"sample_dir":"MyPictures"\}/);
    await page.getByTestId('pointer-hint').waitFor();
    assert.deepEqual(await frameSize(page), [105, 81]);
    const pixels = () => page.getByTestId('frame').evaluate((c) => c.toDataURL());
    const before = await pixels();

    await page.reload();
    await page.getByTestId('needs-folder').waitFor();
    await page.getByTestId('picture-folder').setInputFiles(folder);
    await page.getByTestId('pointer-hint').waitFor();
    assert.deepEqual(await frameSize(page), [105, 81]);
    assert.equal(await pixels(), before, 'the same episode, pixel for pixel');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

// Counting plays the bundled scenes (public/visgym-scenes/counting.zip, fetched when it
// opens): the category is stated above the frame, clicks place dots, Backspace removes
// the last, a typed guess and Enter finish. With the default constructor seed (42) the
// first sample is scene_0023.png (317×229), whose two leaves are counted (its thirty
// moons are more than the easy level's 20): the driver's reset state.
test('counting/easy counts the bundled scene by clicks, undo and a typed guess', { timeout: TIMEOUT }, async () => {
  const zips = [];
  const page = await harness.open('/');
  page.on('request', (r) => r.url().endsWith('/visgym-scenes/counting.zip') && zips.push(r.url()));
  await page.goto(`${harness.url()}/play?env=counting/easy&seed=1`);
  await page.getByTestId('pointer-hint').waitFor();
  assert.equal(zips.length, 1, 'the scenes are fetched once, when the environment opens');
  assert.deepEqual(await frameSize(page), [317, 229]);
  await expectText(page.getByTestId('mission'), 'Count the leaf objects in the picture, then guess the count (2–20) and stop');
  const click = async (at) => {
    const [x, y] = await framePoint(page, at);
    await page.mouse.click(x, y);
  };
  const pixels = () => page.getByTestId('frame').evaluate((c) => c.toDataURL());
  const bare = await pixels();
  await click([258, 202]);
  await expectText(page.getByTestId('step-count'), '1');
  assert.notEqual(await pixels(), bare, 'a red dot is drawn');
  await click([57, 160]);
  await expectText(page.getByTestId('step-count'), '2');
  await page.getByTestId('frame').focus();
  await page.keyboard.press('Backspace');
  await expectText(page.getByTestId('step-count'), '3');
  await click([57, 160]);
  await expectText(page.getByTestId('step-count'), '4');
  await page.getByTestId('action-text').fill("('guess', 2)");
  await page.getByTestId('action-text-play').click();
  await expectText(page.getByTestId('step-count'), '5');
  await page.getByTestId('frame').focus();
  await page.keyboard.press('Enter');
  await expectText(page.getByTestId('step-count'), '6');
  assert.equal(await page.locator('.status').getAttribute('data-outcome'), 'success');
});

// Referring Dot-Pointing on the bundled scenes: the description is stated above the
// frame, a click on the object places the dot and Enter scores it. Seed 1 plays
// reference 53, "the big white triangle" (317×229), its centroid near (109, 49).
test('referring_dot_pointing/easy is solved by a click on the described object', { timeout: TIMEOUT }, async () => {
  const page = await harness.open('/play?env=referring_dot_pointing/easy&seed=1');
  await page.getByTestId('pointer-hint').waitFor();
  assert.deepEqual(await frameSize(page), [317, 229]);
  await expectText(page.getByTestId('mission'), 'Point to the big white triangle, then stop');
  const [x, y] = await framePoint(page, [109.5, 49.5]);
  await page.mouse.click(x, y);
  await expectText(page.getByTestId('step-count'), '1');
  await page.getByTestId('frame').focus();
  await page.keyboard.press('Enter');
  await expectText(page.getByTestId('step-count'), '2');
  assert.equal(await page.locator('.status').getAttribute('data-outcome'), 'success');
});

// Video Unshuffle plays the bundled clips (public/visgym-scenes/videos.zip): the action
// label is stated above the frame, dragging a frame onto another swaps them. Seed 1 (the
// driver's reset state) shows "Moving a ball from left to right" in the order [4, 3, 1, 2];
// the solver's three swaps put it right.
test('video_unshuffle/easy is put in time order by dragging frames', { timeout: TIMEOUT }, async () => {
  const page = await harness.open('/play?env=video_unshuffle/easy&seed=1');
  await page.getByTestId('pointer-hint').waitFor();
  assert.deepEqual(await frameSize(page), [896, 224]);
  await expectText(page.getByTestId('mission'), 'Put the frames of “Moving a ball from left to right” in time order, left to right, then stop');
  const centre = (slot) => [224 * (slot - 1) + 112, 112];
  let steps = 0;
  for (const [a, b] of [[1, 3], [2, 4], [3, 4]]) {
    await drag(page, centre(a), centre(b));
    await expectText(page.getByTestId('step-count'), String(++steps));
  }
  await page.getByTestId('frame').focus();
  await page.keyboard.press('Enter');
  await expectText(page.getByTestId('step-count'), String(++steps));
  assert.equal(await page.locator('.status').getAttribute('data-outcome'), 'success');
});

// Mental Rotation 3D plays the bundled models (public/visgym-scenes/objects.zip). Seed 1
// of the default constructor (the driver's reset state) shows the chess knight turned
// by 81°; a drag across turns it about the vertical axis and back, q and e turn it in the
// picture's plane and back, then the reference solver's single turn (typed as a model
// writes it) and Enter bring it within 15°.
test('mental_rotation_3d_objaverse/easy turns the bundled model by drags, keys and a typed turn', { timeout: TIMEOUT }, async () => {
  const zips = [];
  const page = await harness.open('/');
  page.on('request', (r) => r.url().endsWith('/visgym-scenes/objects.zip') && zips.push(r.url()));
  await page.goto(`${harness.url()}/play?env=mental_rotation_3d_objaverse/easy&seed=1`);
  await page.getByTestId('pointer-hint').waitFor();
  assert.equal(zips.length, 1, 'the models are fetched once, when the environment opens');
  assert.deepEqual(await frameSize(page), [256, 128]);
  // Both panels show the model on white.
  const inked = await page.getByTestId('frame').evaluate((c) => {
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const ink = (x0) => {
      let n = 0;
      for (let y = 0; y < c.height; y++) for (let x = x0; x < x0 + 128; x++) {
        const i = 4 * (y * c.width + x);
        if (px[i] !== 255 || px[i + 1] !== 255 || px[i + 2] !== 255) n++;
      }
      return n;
    };
    return [ink(0), ink(128)];
  });
  assert.ok(inked[0] > 1000 && inked[1] > 1000, `panels drawn: ${inked}`);
  const pixels = () => page.getByTestId('frame').evaluate((c) => c.toDataURL());
  const before = await pixels();
  await drag(page, [150, 64], [210, 64]);
  await expectText(page.getByTestId('step-count'), '1');
  assert.notEqual(await pixels(), before, 'the right panel turned');
  await drag(page, [210, 64], [150, 64]);
  await expectText(page.getByTestId('step-count'), '2');
  await page.getByTestId('frame').focus();
  await page.keyboard.press('q');
  await expectText(page.getByTestId('step-count'), '3');
  await page.keyboard.press('e');
  await expectText(page.getByTestId('step-count'), '4');
  await page.getByTestId('action-text').fill("('rotate', [67.7, -62.9, -57.0])");
  await page.getByTestId('action-text-play').click();
  await expectText(page.getByTestId('step-count'), '5');
  await page.getByTestId('frame').focus();
  await page.keyboard.press('Enter');
  await expectText(page.getByTestId('step-count'), '6');
  assert.equal(await page.locator('.status').getAttribute('data-outcome'), 'success');
});

// Referring Dot-Pointing as task referring-dot-pointing-easy-s0 of suite visgym (kwargs
// {"sample_dir": "bundled-referring", "seed": 0}): the task page fetches the scenes
// before the demonstrations play; the reference solver's last mark, (0.3452, 0.2187) of
// the picture, is on the described object, so a click there and Enter pass it; the
// share link then verifies in a browser that has never loaded the scenes.
test('an image puzzle of suite visgym fetches its set on the task pages, is solved by pointer, and its link verifies in a fresh browser', { timeout: TIMEOUT }, async () => {
  const task = 'referring-dot-pointing-easy-s0';
  const zips = [];
  const page = await harness.open('/');
  page.on('request', (r) => r.url().endsWith('/visgym-scenes/referring.zip') && zips.push(r.url()));
  await page.goto(`${harness.url()}/task?suite=visgym&id=${task}`);
  await expectText(page.getByTestId('task-id'), task);
  await expectText(page.getByTestId('demo-counter').first(), /of \d+/);
  assert.equal(zips.length, 1, 'the scenes are fetched once, before the demonstrations');

  await page.getByTestId('play-task').click();
  await expectText(page.getByTestId('decision-text'), /^Decision 1 of 20$/);
  await page.getByTestId('pointer-hint').waitFor();
  const [w, h] = await frameSize(page);
  const [x, y] = await framePoint(page, [0.3452 * w, 0.2187 * h]);
  await page.mouse.click(x, y);
  await expectText(page.getByTestId('decisions-used'), '1');
  await page.getByTestId('frame').focus();
  await page.keyboard.press('Enter');
  const result = page.getByTestId('result');
  await result.waitFor();
  assert.equal(await result.getAttribute('data-passed'), 'true');
  await expectText(page.getByTestId('score'), '100');
  const link = await page.getByTestId('share-link').inputValue();
  assert.match(link, /#e=pb1\./);

  const fetched = await verifiedInFreshBrowser(link, task, '/visgym-scenes/referring.zip');
  assert.equal(fetched, 1, 'the fresh browser fetched the scenes the task names');
});

// A suite run in the browser fetches the sets its selected tasks play before its first
// episode: the oracle passes the ten easy Referring Dot-Pointing puzzles.
test('a suite run of image puzzles fetches their set and the oracle passes them', { timeout: TIMEOUT }, async () => {
  const zips = [];
  const page = await harness.open('/');
  page.on('request', (r) => r.url().endsWith('/visgym-scenes/referring.zip') && zips.push(r.url()));
  await page.goto(`${harness.url()}/run/suite?suite=visgym`);
  await page.getByTestId('run-agent').selectOption('oracle');
  await page.getByTestId('sel-contains').fill('referring-dot-pointing-easy-s');
  await expectText(page.getByTestId('sel-count'), /^10 task/);
  await page.getByTestId('suite-start').click();
  await page.getByTestId('suite-phase').getByText('Complete').waitFor({ timeout: 60_000 });
  assert.equal(zips.length, 1, 'the scenes were fetched once');
  const rows = await page.getByTestId('suite-episodes').locator('li').allTextContents();
  assert.equal(rows.length, 10, rows.join('\n'));
  for (const row of rows) assert.match(row, /score 100\.0 · passed/);
});

// A human study of an image puzzle: the participant's browser has never loaded the
// scenes; the study fetches them before the demonstrations and the play.
test('a study of an image puzzle fetches its set for the participant, who solves it by pointer', { timeout: TIMEOUT }, async () => {
  const task = 'referring-dot-pointing-easy-s0';
  const page = await harness.open('/study?suite=visgym');
  await page.getByTestId('study-title').fill('E2E pointing');
  await page.getByTestId('study-id').fill('e2e-pointing');
  await page.getByTestId('study-instructions').fill('Point at what the sentence describes.');
  await page.getByTestId('study-filter-family').selectOption('VisGym-ReferringDotPointing');
  await page.getByTestId(`study-task-${task}`).check();
  const link = await page.getByTestId('study-link').inputValue();
  assert.match(link, /\/study\/take#s=ps1\./);

  const fresh = await launchBrowser();
  try {
    const { page: take, problems } = await openPage(fresh.context);
    const zips = [];
    take.on('request', (r) => r.url().endsWith('/visgym-scenes/referring.zip') && zips.push(r.url()));
    await take.goto(link);
    await take.getByTestId('study-code').fill('P-07');
    await take.getByTestId('study-code-submit').click();
    await take.getByTestId('study-begin').click();
    await expectText(take.getByTestId('demo-counter').first(), /of \d+/, 30_000);
    await take.getByTestId('study-start-task').click();
    await expectText(take.getByTestId('decision-text'), /^Decision 1 of 20$/);
    const [w, h] = await frameSize(take);
    const [x, y] = await framePoint(take, [0.3452 * w, 0.2187 * h]);
    await take.mouse.click(x, y);
    await expectText(take.getByTestId('decision-text'), /^Decision 2 of 20$/);
    await take.getByTestId('frame').focus();
    await take.keyboard.press('Enter');
    const done = take.getByTestId('study-task-done');
    await done.waitFor();
    assert.equal(await done.getAttribute('data-passed'), 'true');
    assert.equal(zips.length, 1, 'the scenes were fetched once');
    assert.deepEqual(problems, [], 'the participant\'s browser logged errors');
  } finally {
    await fresh.close();
  }
});
