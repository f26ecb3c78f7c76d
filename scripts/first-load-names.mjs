// Trunk post-build hook (trunk.toml): gives the first-load build's two files
// (`playbench-first.js`, `playbench-first_bg.wasm`, built by index.html's second
// `rel="rust"` link) names with a hash of their content, as Trunk does for the full app,
// and names them in index.html for public/start.js. Trunk leaves a "worker" build's files
// unhashed; unhashed, a host's cache could pair a new page with an old first-load build.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
const base = process.env.TRUNK_PUBLIC_URL || '/';
if (!dir) throw new Error('run by Trunk as a post_build hook (TRUNK_STAGING_DIR is not set)');

const js = path.join(dir, 'playbench-first.js');
const wasm = path.join(dir, 'playbench-first_bg.wasm');
const hash = crypto.createHash('sha256');
for (const file of [js, wasm]) hash.update(fs.readFileSync(file));
const tag = hash.digest('hex').slice(0, 16);
const names = { js: `playbench-first-${tag}.js`, wasm: `playbench-first-${tag}_bg.wasm` };
fs.renameSync(js, path.join(dir, names.js));
fs.renameSync(wasm, path.join(dir, names.wasm));

const html = path.join(dir, 'index.html');
const page = fs.readFileSync(html, 'utf8');
const metas =
  `<meta name="playbench-first-js" content="${base}${names.js}" />` +
  `<meta name="playbench-first-wasm" content="${base}${names.wasm}" />`;
if (!page.includes('</head>')) throw new Error('index.html has no </head>');
fs.writeFileSync(html, page.replace('</head>', `${metas}</head>`));
