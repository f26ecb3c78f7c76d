#!/usr/bin/env node
// A results collector for the human-study tests: it accepts POSTed JSON from another
// origin (CORS, with the preflight a JSON POST needs) and records what it received.
// No dependencies.
//
//   node tests/servers/collector.mjs [PORT]      (0 or none: a free port)
//
// Prints `PORT <n>` on its first stdout line. Or import `startCollector()`.
// Routes (CORS headers and OPTIONS preflight on all):
//   POST /collect    records the body (must be JSON), answers 201 {"ok":true}
//   POST /fail       answers 500 {"error":"the collector was told to fail"}, records nothing
//   GET  /received   the bodies recorded so far, as a JSON list (parsed)
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': '600',
};

/** Starts a collector on 127.0.0.1; returns `{ url, received, close }`. */
export async function startCollector(port = 0) {
  const received = [];
  const server = http.createServer((req, res) => {
    const send = (status, body) => {
      res.writeHead(status, { ...CORS, 'content-type': 'application/json' });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS).end();
      return;
    }
    if (req.method === 'GET' && pathname === '/received') {
      send(200, received);
      return;
    }
    if (req.method !== 'POST') {
      send(405, { error: 'use POST' });
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (pathname === '/fail') {
        send(500, { error: 'the collector was told to fail' });
        return;
      }
      if (pathname !== '/collect') {
        send(404, { error: 'no such route' });
        return;
      }
      if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
        send(415, { error: 'expected Content-Type: application/json' });
        return;
      }
      try {
        received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        send(201, { ok: true });
      } catch (err) {
        send(400, { error: `not JSON: ${err.message}` });
      }
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const c = await startCollector(Number(process.argv[2] ?? 0));
  console.log(`PORT ${new URL(c.url).port}`);
}
