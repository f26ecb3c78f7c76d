// End-to-end checks of the inputs beyond buttons in headless Chromium:
//   node --test tests/e2e/
// after `trunk build --config trunk.toml --release` (the site in dist/, or PLAYBENCH_DIST).
// Tic-Tac-Toe has a parametric action space (`place(cell)`, written as a cell name such
// as B2) and takes clicks on its cells; FlappyBird plays on a fixed clock (33 ms ticks).

import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { expectText, pageHarness } from './support.mjs';

const TIMEOUT = 60_000;
const harness = pageHarness({ before, after, afterEach });
const open = harness.open;

// The board is drawn on 150-pixel cells from (50, 50) of a 500×500 frame.
const CELL = (row, col) => [50 + 150 * (col + 0.5), 50 + 150 * (row + 0.5)];
const NAMES = ['A1', 'A2', 'A3', 'B1', 'B2', 'B3', 'C1', 'C2', 'C3'];

/** The board from the text rendering: 9 marks ('X', 'O' or ' ') in reading order. */
async function board(page) {
  const text = await page.getByTestId('text-render').textContent();
  const rows = text.split('\n').filter((l) => /^[ABC] /.test(l));
  assert.equal(rows.length, 3, text);
  return rows.flatMap((r) => r.slice(2).split('|').map((c) => c.trim() || ' '));
}

/** Clicks frame pixel (x, y) of a frame `size` pixels wide, whatever its display scale. */
async function clickFrame(page, [x, y], size = 500) {
  const frame = page.getByTestId('frame');
  const box = await frame.boundingBox();
  await frame.click({ position: { x: (x * box.width) / size, y: (y * box.height) / size } });
}

test('Tic-Tac-Toe on /play: a move typed as text, one built with the form, one clicked; bad input says why', { timeout: TIMEOUT }, async () => {
  const page = await open('/play?env=GameVerse/TicTacToe&seed=0');
  await expectText(page.getByTestId('env-id'), 'GameVerse/TicTacToe');
  await expectText(page.getByTestId('pointer-hint'), 'Click on the frame to act.');
  assert.match(await page.getByTestId('frame').getAttribute('class'), /pointer-input/);
  await expectText(page.getByTestId('step-count'), '0');

  // The text form: what does not read is refused beside the box, and nothing is played.
  const text = page.getByLabel('Type an action');
  await text.fill('hello');
  await text.press('Enter');
  await expectText(page.getByTestId('action-text-error'), /names no cell/);
  assert.equal(await text.getAttribute('aria-invalid'), 'true');
  await expectText(page.getByTestId('step-count'), '0');
  await text.fill('B2');
  await page.getByTestId('action-text-play').click();
  await expectText(page.getByTestId('step-count'), '1');
  await expectText(page.getByTestId('action-text-error'), '');
  let marks = await board(page);
  assert.equal(marks[4], 'X');

  // A click off the board is no action: a short message, nothing played.
  await clickFrame(page, [10, 490]);
  await expectText(page.getByTestId('play-error'), 'That click is not an action here.');
  await expectText(page.getByTestId('step-count'), '1');

  // The form: the cell picker (labelled buttons), a preview in the text form, Play.
  const first = marks.indexOf(' ');
  const [row, col] = [Math.floor(first / 3), first % 3];
  await page.getByRole('button', { name: `row ${row}, column ${col}` }).click();
  assert.equal(await page.getByTestId(`cell-0-${row}-${col}`).getAttribute('aria-pressed'), 'true');
  assert.equal(await page.getByLabel('cell: row', { exact: true }).inputValue(), String(row));
  await expectText(page.getByTestId('form-preview'), `Plays ${NAMES[first]}`);
  await page.getByTestId('form-play').click();
  await expectText(page.getByTestId('step-count'), '2');
  marks = await board(page);
  assert.equal(marks[first], 'X');
  // An out-of-range number in the form is shown and cannot be played.
  await page.getByLabel('cell: column', { exact: true }).fill('7');
  await expectText(page.getByTestId('form-error'), /column 0-2/);
  assert.equal(await page.getByTestId('form-play').isDisabled(), true);

  // A click on an empty cell plays it.
  const next = marks.indexOf(' ');
  await clickFrame(page, CELL(Math.floor(next / 3), next % 3));
  await expectText(page.getByTestId('step-count'), '3');
  marks = await board(page);
  assert.equal(marks[next], 'X');
});

/**
 * A legal game for X against the deterministic opponent, learnt on the /play page
 * `page` shows: X takes the centre, then always the first empty cell. Returns the cell
 * names X plays.
 */
async function legalGame(page) {
  const text = page.getByLabel('Type an action');
  const moves = [];
  for (let marks = await board(page); ; marks = await board(page)) {
    const status = (await page.getByTestId('status').textContent()).trim();
    if (!status.startsWith('running')) break;
    const cell = moves.length === 0 ? 4 : marks.indexOf(' ');
    moves.push(NAMES[cell]);
    await text.fill(NAMES[cell]);
    await text.press('Enter');
    await expectText(page.getByTestId('step-count'), String(moves.length));
  }
  return moves;
}

test('Tic-Tac-Toe as a task of the gameverse suite: a key, text, the form and clicks are recorded as cell names and verify', { timeout: TIMEOUT }, async () => {
  const page = await open('/play?env=GameVerse/TicTacToe&seed=0');
  await page.getByTestId('text-render').waitFor({ state: 'attached' });
  const moves = await legalGame(page);
  assert.ok(moves.length >= 3, moves.join(' '));

  await page.goto(`${harness.url()}/task/play?id=tic-tac-toe-x&suite=gameverse`);
  await expectText(page.getByTestId('decision-text'), /^Decision 1 of \d+$/);
  await expectText(page.getByTestId('pointer-hint'), 'Click on the frame to act.');
  // The same moves, each made another way: a preset's key (1-9 in reading order),
  // typed text (any case), the form's cell picker, a click on the cell.
  const ways = ['key', 'text', 'form', 'click'];
  for (const [i, name] of moves.entries()) {
    const index = NAMES.indexOf(name);
    const [row, col] = [Math.floor(index / 3), index % 3];
    const way = ways[i % ways.length];
    if (way === 'key') {
      await page.keyboard.press(String(index + 1));
    } else if (way === 'text') {
      await page.getByLabel('Type an action').fill(name.toLowerCase());
      await page.getByLabel('Type an action').press('Enter');
    } else if (way === 'form') {
      await page.getByRole('button', { name: `row ${row}, column ${col}` }).click();
      await expectText(page.getByTestId('form-preview'), `Plays ${name}`);
      await page.getByTestId('form-play').click();
    } else {
      await clickFrame(page, CELL(row, col));
    }
    await expectText(page.getByTestId('decisions-used'), String(i + 1));
  }
  const result = page.getByTestId('result');
  await result.waitFor();
  // The record holds cell names, as a model writes them.
  const href = await page.getByTestId('download-episode').getAttribute('href');
  const prefix = 'data:application/json;charset=utf-8,';
  assert.ok(href.startsWith(prefix));
  const file = JSON.parse(decodeURIComponent(href.slice(prefix.length)));
  assert.deepEqual(file.record.decisions.map((d) => d.action), moves);
  // Its share link names the task in the gameverse suite and verifies.
  const link = await page.getByTestId('share-link').inputValue();
  await page.goto(link);
  await expectText(page.getByTestId('replay-task'), 'tic-tac-toe-x');
  await expectText(page.getByTestId('verdict'), 'Verified', 20_000);
  assert.equal(
    await page.locator('.replay-title a').getAttribute('href'),
    '/task?id=tic-tac-toe-x&suite=gameverse',
  );
});

test('FlappyBird on /play runs on its clock: paused until the first key, P pauses it', { timeout: TIMEOUT }, async () => {
  const page = await open('/play?env=FlappyBird-v0&seed=0');
  await expectText(page.getByTestId('env-id'), 'FlappyBird-v0');
  await expectText(page.getByTestId('virtual-time'), '0.0 s');
  assert.equal(await page.getByTestId('pause').getAttribute('aria-pressed'), 'true');
  await page.waitForTimeout(300);
  await expectText(page.getByTestId('step-count'), '0');

  // The first key starts the clock; ticks play on their own.
  await page.keyboard.press('Space');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=step-count]').textContent) >= 5);
  assert.equal(await page.getByTestId('pause').getAttribute('aria-pressed'), 'false');
  await expectText(page.getByTestId('virtual-time'), /^[0-9]+\.[0-9] s$/);

  // P pauses: neither steps nor virtual time move.
  await page.keyboard.press('p');
  await expectText(page.getByTestId('realtime-note'), /Paused|over/);
  const steps = await page.getByTestId('step-count').textContent();
  const time = await page.getByTestId('virtual-time').textContent();
  await page.waitForTimeout(400);
  assert.equal(await page.getByTestId('step-count').textContent(), steps);
  assert.equal(await page.getByTestId('virtual-time').textContent(), time);

  // Resume with the button; without flapping the bird falls and the episode ends.
  if ((await page.getByTestId('pause').isDisabled()) === false) {
    await page.getByTestId('pause').click();
  }
  await page.waitForFunction(
    () => document.querySelector('[data-testid=status]').textContent.startsWith('terminated'),
    undefined,
    { timeout: 20_000 },
  );
  await expectText(page.getByTestId('realtime-note'), 'The episode is over.');
});
