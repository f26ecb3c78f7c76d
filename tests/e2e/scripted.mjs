// The scripted model endpoint (tests/servers/scripted-openai.mjs) as a child process on
// its own port, so the app (another origin) meets real CORS preflights.

import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const script = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'servers',
  'scripted-openai.mjs',
);

export async function startScripted() {
  const child = spawn(process.execPath, [script, '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const m = text.match(/PORT (\d+)/);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`the scripted server exited (${code})`)));
  });
  const url = `http://127.0.0.1:${port}`;
  const post = async (p) => (await fetch(url + p, { method: 'POST' })).json();
  return {
    url,
    port,
    log: () => post('/log'),
    reset: () => post('/reset'),
    close: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill();
      }),
  };
}
