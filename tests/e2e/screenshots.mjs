// Screenshots of the built app for a person to look at (not a test):
//   node tests/e2e/screenshots.mjs [OUTDIR]
// OUTDIR defaults to a fresh temporary directory; the PNG paths are printed. SHOTS=REGEX
// takes only the shots whose name matches.

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
const LAKE_WIN = ['ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowRight'];

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
  ['suite', '/suite'],
  ['suite-narrow', '/suite', undefined, narrow],
  ['suite-dynamic', '/suite?dynamics=dynamic'],
  ['suite-bad-filter', '/suite?dynamics=fast&family=Chess'],
  ['suite-baselines', '/suite', (page) => page.locator('#baselines').scrollIntoViewIfNeeded()],
  ['task', '/task?id=frozenlake-4x4-det-s0'],
  ['task-narrow', '/task?id=frozenlake-4x4-det-s0', undefined, narrow],
  ['task-playing', '/task?id=frozenlake-4x4-det-s0', async (page) => {
    await page.getByTestId('demo-speed').first().selectOption('4');
    await page.getByTestId('demo-play').first().click();
    await page.waitForTimeout(600);
  }],
  ['task-play', '/task/play?id=frozenlake-4x4-det-s0', keys('ArrowDown')],
  ['task-play-passed', '/task/play?id=frozenlake-4x4-det-s0', keys(...LAKE_WIN)],
  ['task-play-failed', '/task/play?id=frozenlake-4x4-det-s0', keys('ArrowRight', 'ArrowDown')],
  ['task-play-record', '/task/play?id=frozenlake-4x4-det-s0&record=1', keys('ArrowDown', 'ArrowDown', 'ArrowRight')],
  ['task-play-narrow', '/task/play?id=frozenlake-4x4-det-s0&record=1', keys(...LAKE_WIN), narrow],
  ['unknown-task', '/task?id=frozenlake-4x4-det-s9'],
  ['no-task', '/task/play'],
  ['task-doorkey', '/task?id=doorkey-5x5-s1'],
  ['task-play-doorkey', '/task/play?id=doorkey-5x5-s1', keys('p', 'ArrowLeft')],
  ['task-mountaincar', '/task?id=mountaincar-s1'],
  ['task-play-cartpole-narrow', '/task/play?id=cartpole-s1', keys('ArrowLeft'), narrow],
  ['bad-kwargs', '/play?env=FrozenLake-v1&kwargs={"map_name":"5x5"}'],
];

const problems = [];
try {
  const only = process.env.SHOTS ? new RegExp(process.env.SHOTS) : null;
  for (const [name, url, act, viewport] of shots.filter(([n]) => !only || only.test(n))) {
    const { page, problems: p } = await openPage(browser.context);
    if (viewport) await page.setViewportSize(viewport);
    await page.goto(server.url + url);
    await page
      .locator('[data-testid="status"], [role="alert"], [data-testid="env-card"], [data-testid="task-count"], [data-testid="demo"], [data-testid="decision"]')
      .first()
      .waitFor();
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
