// End-to-end: the built-in suites are not compiled into the app but fetched when a page
// first reads one (app/src/browser/suite_files.rs, app/src/components/needs_suites.rs).
// Playing an environment fetches none; a suite page fetches them once, says so while it
// waits, and says which file failed with a way to try again.
//   node --test tests/e2e/suite-files.test.mjs   (after the Trunk release build)

import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { expectText, pageHarness } from './support.mjs';

const harness = pageHarness({ before, after, afterEach });

test('Playing an environment fetches no suite; the first suite page fetches them, and a failed file can be tried again', { timeout: 120_000 }, async () => {
  const fetched = [];
  let down = true;
  const page = await harness.open('/play?env=Taxi-v3', {
    async setup(p) {
      p.on('request', (r) => {
        const { pathname } = new URL(r.url());
        if (pathname.startsWith('/suites/')) fetched.push(pathname);
      });
      await p.route('**/suites/vical/v2.json', (route) =>
        down ? route.fulfill({ status: 503, contentType: 'text/plain', body: 'down' }) : route.continue(),
      );
    },
  });
  await page.waitForFunction(() => performance.getEntriesByName('playbench:first-frame').length > 0);
  await expectText(page.getByTestId('env-id'), 'Taxi-v3');
  assert.deepEqual(fetched, [], 'the play page fetched suite files');

  // To the suite by the site's navigation (no reload): the files are fetched then.
  harness.allow(/HTTP 503: .*\/suites\/vical\/v2\.json/);
  harness.allow(/Failed to load resource: the server responded with a status of 503/);
  await page.getByTestId('nav-suite').click();
  await expectText(
    page.getByTestId('error'),
    /suites\/vical\/v2\.json could not be fetched: the server answered 503\. Check the connection and try again\./,
  );
  assert.ok(fetched.includes('/suites/playbench-core/v1.json'), fetched.join(', '));
  assert.ok(fetched.includes('/suites/vical/v2.baseline-oracle.json') || fetched.includes('/suites/vical/v2.json'));

  down = false;
  const before = fetched.length;
  await page.getByTestId('suites-retry').click();
  await expectText(page.getByTestId('suite-id'), 'playbench-core');
  // Trying again fetches what is still missing (the HTTP cache may answer the rest).
  assert.ok(fetched.slice(before).includes('/suites/vical/v2.json'), fetched.slice(before).join(', '));

  // Later suite pages and the home page's count use what is here: nothing more fetched.
  const settled = fetched.length;
  await page.getByTestId('nav-envs').click();
  await expectText(page.getByTestId('bench-size'), /^The built-in suite plays these environments as tasks for agents that learn from watching\. \d+ tasks, each/);
  await page.goBack();
  await expectText(page.getByTestId('suite-id'), 'playbench-core');
  assert.equal(fetched.length, settled, fetched.slice(settled).join(', '));
});

test('A task link opened directly waits for the suites, then shows the task', { timeout: 60_000 }, async () => {
  const page = await harness.open('/suite');
  await expectText(page.getByTestId('suite-id'), 'playbench-core');
  const first = page.locator('main h3 a').first();
  const href = await first.getAttribute('href');
  const task = await harness.open(href);
  await task.getByTestId('task-id').waitFor();
  await expectText(task.getByTestId('task-id'), new URL(href, harness.url()).searchParams.get('id'));
});
