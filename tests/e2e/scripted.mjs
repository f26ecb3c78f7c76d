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

/**
 * Starts the server; `url` is where the app should call it (`https://` and HTTP/2 with
 * `tls`, which needs a browser that ignores certificate errors). The log and reset go
 * through the plain port either way.
 */
export async function startScripted({ tls = false } = {}) {
  const args = [script, '0', ...(tls ? ['--tls'] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const ports = await new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const plain = text.match(/^PORT (\d+)/m);
      const secure = text.match(/^TLS_PORT (\d+)/m);
      if (plain && (!tls || secure)) resolve({ plain: Number(plain[1]), secure: secure && Number(secure[1]) });
    });
    child.once('exit', (code) => reject(new Error(`the scripted server exited (${code})`)));
  });
  const control = `http://127.0.0.1:${ports.plain}`;
  const url = tls ? `https://127.0.0.1:${ports.secure}` : control;
  const post = async (p) => (await fetch(control + p, { method: 'POST' })).json();
  return {
    url,
    log: () => post('/log'),
    reset: () => post('/reset'),
    close: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill();
      }),
  };
}
