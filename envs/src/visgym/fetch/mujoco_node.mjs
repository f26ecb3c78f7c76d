// The Node process the command line runs the Fetch physics in (docs/fetch.md, "Physics
// host"). The Rust side prepends mujoco_host.mjs to this text and runs it with
// `node --input-type=module -e`, the @mujoco/mujoco package folder as its argument.
// The first stdin line hands over the Fetch model files ({"files": {path: base64}});
// every later line is one request, answered by one JSON line on stdout.

import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';

const [moduleDir] = process.argv.slice(1);
const moduleReady = import(pathToFileURL(path.join(moduleDir, 'mujoco.js')).href)
  .then(({ default: createModule }) => createModule());

const answer = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
let host = null;
for await (const line of lines) {
  if (host) {
    process.stdout.write(`${host.exchange(line)}\n`);
    continue;
  }
  try {
    const { files } = JSON.parse(line);
    const map = new Map(Object.entries(files).map(([k, v]) => [k, Buffer.from(v, 'base64')]));
    host = createHost(await moduleReady, map);
    answer({ ok: {} });
  } catch (err) {
    answer({ error: `starting MuJoCo: ${err.message ?? err}` });
    process.exit(1);
  }
}
