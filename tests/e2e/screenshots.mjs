// Screenshots of the built app for a person to look at (not a test):
//   node tests/e2e/screenshots.mjs [OUTDIR]
// OUTDIR defaults to a fresh temporary directory; the PNG paths are printed.

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { assertBuilt, launchBrowser, openPage, startServer } from './support.mjs';

const outDir = process.argv[2] ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'playbench-shots-')));
await fs.mkdir(outDir, { recursive: true });
await assertBuilt();
const server = await startServer();
const browser = await launchBrowser();

const LAKE = '/play?env=FrozenLake-v1&kwargs={"is_slippery":false}&seed=0';
// Seed 1: pick up the key below, turn left, unlock the door, walk through to the goal.
const DOOR_KEY = '/play?env=MiniGrid-DoorKey-5x5-v0&seed=1';
const keys = (...names) => async (page) => {
  for (const key of names) await page.keyboard.press(key);
};
const narrow = { width: 390, height: 844 };

// [file name, path, what to do before the shot, viewport]
const shots = [
  ['home', '/'],
  ['home-narrow', '/', undefined, narrow],
  ['frozen-lake-start', LAKE],
  [
    'frozen-lake-success',
    LAKE,
    keys('ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowRight'),
  ],
  ['frozen-lake-hole', LAKE, keys('ArrowRight', 'ArrowDown')],
  ['frozen-lake-text', LAKE, (page) => page.locator('.text-render summary').click()],
  ['play-narrow', LAKE, keys('ArrowDown'), narrow],
  ['taxi', '/play?env=Taxi-v3&seed=0', keys('ArrowUp')],
  ['cliff-walking', '/play?env=CliffWalking-v1&seed=0', keys('ArrowUp')],
  ['frozen-lake-8x8', '/play?env=FrozenLake8x8-v1&seed=0'],
  ['cart-pole', '/play?env=CartPole-v1&seed=0', keys('ArrowRight')],
  ['acrobot', '/play?env=Acrobot-v1&seed=0', keys('ArrowRight')],
  ['mountain-car', '/play?env=MountainCar-v0&seed=0', keys('ArrowRight')],
  ['pendulum', '/play?env=Pendulum-v1&seed=0'],
  ['minigrid', '/play?env=MiniGrid-DoorKey-8x8-v0&seed=0', keys('ArrowLeft')],
  ['minigrid-door-key', `${DOOR_KEY}&view=1`, keys('p', 'ArrowLeft')],
  ['minigrid-no-highlight', `${DOOR_KEY}&highlight=0`],
  ['minigrid-success', DOOR_KEY, keys('p', 'ArrowLeft', 'Space', 'ArrowUp', 'ArrowUp', 'ArrowRight', 'ArrowUp')],
  ['minigrid-narrow', `${DOOR_KEY}&view=1`, keys('p'), narrow],
  ['minigrid-8x8-eye', '/play?env=MiniGrid-DoorKey-8x8-v0&seed=0&view=1'],
  ['minigrid-mid-width', `${DOOR_KEY}&view=1`, undefined, { width: 700, height: 900 }],
  ['unknown-env', '/play?env=NoSuchEnv-v0'],
  ['bad-kwargs', '/play?env=FrozenLake-v1&kwargs={"map_name":"5x5"}'],
];

const problems = [];
try {
  for (const [name, url, act, viewport] of shots) {
    const { page, problems: p } = await openPage(browser.context);
    if (viewport) await page.setViewportSize(viewport);
    await page.goto(server.url + url);
    await page.locator('[data-testid="status"], [role="alert"], [data-testid="env-card"]').first().waitFor();
    await act?.(page);
    await page.waitForTimeout(200);
    const file = path.join(outDir, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(file);
    problems.push(...p.map((m) => `${name}: ${m}`));
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exitCode = 1;
}
