#!/usr/bin/env node
// A scripted model endpoint for tests: OpenAI-compatible Chat Completions, plus the
// Anthropic Messages and Gemini generateContent shapes. No dependencies.
//
//   node tests/servers/scripted-openai.mjs [PORT] [--tls]    (0 or none: a free port)
//
// With --tls it also serves HTTP/2 (and HTTP/1.1) over TLS with the self-signed
// certificate of make-test-cert.sh on a second port, printed as `TLS_PORT <n>`, so a
// browser can have more than six requests in flight (its per-host limit for HTTP/1.1).
// Prints `PORT <n>` on its first stdout line. Routes (CORS headers and OPTIONS
// preflight on all, except under /nocors/, which sends none, like a local server that
// does not allow the app's origin, and under /hidecors/, whose 5xx answers carry none,
// like a proxy whose error handler runs outside its CORS layer; under /redirect/<port>/
// every model request, logged with its key, gets a 307 to the same route on
// 127.0.0.1:<port>, another origin the key must not follow to):
//   POST [/nocors|/hidecors|/redirect/<port>]/v1/chat/completions   OpenAI
//   POST [/nocors|/hidecors|/redirect/<port>]/v1/messages           Anthropic
//   POST [...]/v1beta/models/<model>:generateContent                Gemini
//   POST /log                                    the requests seen so far (JSON)
//   POST /reset                                  forget the counts and the log
// The behaviour is the model name, or the `x-playbench-script` header:
//   valid:<action>                 always `[Action: <action>]`
//   seq:<a1>,<a2>,...              the i-th action at decision i (counted from the
//                                  assistant turns in the request; full history)
//   delay:<ms>:<action>            valid after waiting <ms> milliseconds
//   malformed-then-valid[:<a>]     garbage on the first request, then valid (a: Down)
//   429[:<a>]                      429 with Retry-After: 1 once, then valid
//   500[:<a>]                      500 twice, then valid
//   hang                           never answers
//   overflow                       the provider's context-overflow error
//   401                            an auth error that echoes the key (redaction test)
//   key:<k>                        valid (Down) with key <k>; without a key a 500
//                                  ("No api key passed in."), with another key a 400
//                                  auth error, as a LiteLLM proxy answers
//   garbage                        always a reply without the marker
//   notjson                        200 with an HTML body
//   drop                           200 headers and half the answer, then the connection
//                                  is cut
//   truncated                      200 with an answer whose JSON stops after 40 bytes
//   huge[:<a>]                     a valid answer of over 10 MB
//   noimages                       the provider's "model does not support images" error
//   audit[:malformed]              the trajectory auditor's replies (docs/audit.md), by the
//                                  request's system message: a task reference (in a code
//                                  fence), a transfer verdict, a failure stage naming
//                                  TURN 2; with :malformed the first transfer reply has a
//                                  wrong label and every failure-stage reply is not JSON
//   judge[:retry|:garbage]         the milestone judge's replies (docs/judge.md), for a request
//                                  whose system message is the judge's: from the user text's
//                                  `Milestone i:` lines, a fenced `milestone_matches` with
//                                  even indices completed, plus a repeated and an
//                                  out-of-range entry; :retry makes every odd request
//                                  unparsable, :garbage every request; the log keeps
//                                  their bodies (so a test can compare them word for word)
//   file:<path>                    the replies of a JSON file (an array, or {"script": [...]}):
//                                  the n-th request gets entry n (a reply text, or
//                                  {"error": message}: the context-overflow error when the
//                                  message says "maximum context length", else a 500);
//                                  requests need no image, and the log keeps their messages
// Replies report token usage (input: 100 per image + 1 per 4 characters of text;
// output: 5). Every request must carry a base64 PNG or JPEG image (or WebM video) in
// the provider's format (else 400).
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const counts = new Map();
const log = [];

const texts = {
  openai: {
    overflow: [400, { error: { message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } }],
    ok: (t, u) => ({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: t }, finish_reason: 'stop' }], usage: { prompt_tokens: u, completion_tokens: 5, total_tokens: u + 5 } }),
    noimages: [400, { error: { message: 'Invalid content type. image_url is only supported by certain models.', type: 'invalid_request_error', code: null } }],
    error: (m, type) => ({ error: { message: m, type, code: null } }),
  },
  anthropic: {
    overflow: [400, { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' } }],
    ok: (t, u) => ({ id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: t }], stop_reason: 'end_turn', usage: { input_tokens: u, output_tokens: 5 } }),
    noimages: [400, { type: 'error', error: { type: 'invalid_request_error', message: 'This model does not support image input.' } }],
    error: (m, type) => ({ type: 'error', error: { type, message: m } }),
  },
  gemini: {
    overflow: [400, { error: { code: 400, message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT' } }],
    ok: (t, u) => ({ candidates: [{ content: { role: 'model', parts: [{ text: t }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: u, candidatesTokenCount: 5 } }),
    noimages: [400, { error: { code: 400, message: 'Images are not supported by this model.', status: 'INVALID_ARGUMENT' } }],
    error: (m, type) => ({ error: { code: 0, message: m, status: type } }),
  },
};

// base64 of the PNG, JPEG and WebM (EBML) signatures
const MAGIC = { 'image/png': 'iVBORw0KGgo', 'image/jpeg': '/9j/', 'video/webm': 'GkXfo' };

function images(provider, body) {
  const found = []; // [mime, base64]
  if (provider === 'openai') {
    for (const m of body.messages ?? []) for (const p of Array.isArray(m.content) ? m.content : []) {
      const u = p.type === 'image_url' ? String(p.image_url?.url ?? '') : '';
      const d = u.match(/^data:(image\/[a-z]+);base64,(.*)$/s);
      if (d) found.push([d[1], d[2]]);
    }
  } else if (provider === 'anthropic') {
    for (const m of body.messages ?? []) for (const p of m.content ?? []) {
      if (p.type === 'image' && p.source?.type === 'base64') found.push([p.source.media_type, p.source.data]);
    }
  } else {
    for (const c of body.contents ?? []) for (const p of c.parts ?? []) {
      if (p.inline_data) found.push([p.inline_data.mime_type, p.inline_data.data]);
    }
  }
  return found.filter(([mime, data]) => MAGIC[mime] && String(data).startsWith(MAGIC[mime]));
}

function textLength(provider, body) {
  const list = provider === 'gemini' ? body.contents : body.messages;
  let n = 0;
  for (const m of list ?? []) {
    const parts = provider === 'gemini' ? m.parts : Array.isArray(m.content) ? m.content : [{ text: m.content }];
    for (const p of parts ?? []) n += typeof p.text === 'string' ? p.text.length : 0;
  }
  return n;
}

function assistantTurns(provider, body) {
  const list = provider === 'gemini' ? body.contents : body.messages;
  return (list ?? []).filter((m) => m.role === 'assistant' || m.role === 'model').length;
}

function systemText(provider, body) {
  if (provider === 'anthropic') return String(body.system ?? '');
  if (provider === 'gemini') return (body.systemInstruction?.parts ?? []).map((p) => p.text ?? '').join('');
  return (body.messages ?? []).filter((m) => m.role === 'system').map((m) => String(m.content)).join('');
}

// The auditor's canned replies: what kind of request it is, from its system message.
function auditReply(provider, body, script) {
  const malformed = script === 'audit:malformed';
  const system = systemText(provider, body);
  const kind = system.includes('preparing a task reference') ? 'reference'
    : system.includes('player-level process audit') ? 'attribution'
      : system.includes('independent multimodal benchmark auditor') ? 'transfer' : null;
  // Counted per script, like the requests, so each variant starts its own count.
  const n = (counts.get(`${script} ${kind}`) ?? 0) + 1;
  counts.set(`${script} ${kind}`, n);
  if (kind === 'reference') {
    return '```json\n' + JSON.stringify({ rules_not_in_basic_rules: ['Falling into a hole ends the episode.'], strategies: ['Walk around the holes: the goal is reached.'] }) + '\n```';
  }
  if (kind === 'transfer') {
    const label = malformed && n === 1 ? 'overfitted' : 'underfit';
    return JSON.stringify({ rule_transfer: { label: 'successful', justification: 'The player avoided the holes the demos showed.' }, strategy_transfer: { label, justification: 'It never used the detour of the demos.' } });
  }
  if (kind === 'attribution') {
    if (malformed) return 'The player did fine, I think.';
    return JSON.stringify({ player_failure_stage: { label: 'planning', justification: 'At TURN 2 the player saw the hole and still walked toward it.' } });
  }
  return 'this is not an audit request';
}

// The milestone judge's canned replies (counted per script, like the requests).
function judgeReply(provider, body, script, n) {
  if (!systemText(provider, body).startsWith('You are a game milestone checker.')) return 'this is not a judge request';
  if (script === 'judge:garbage' || (script === 'judge:retry' && n % 2 === 1)) return 'I watched it; most milestones look done.';
  const list = provider === 'gemini' ? body.contents : body.messages;
  const texts = [];
  for (const m of list ?? []) {
    const parts = provider === 'gemini' ? m.parts : Array.isArray(m.content) ? m.content : [{ text: m.content }];
    for (const p of parts ?? []) if (typeof p.text === 'string') texts.push(p.text);
  }
  const count = texts.join('\n').split('\n').filter((l) => /^Milestone \d+: /.test(l)).length;
  const matches = [];
  for (let i = 0; i < count; i++) {
    matches.push({ milestone_index: i, completed: i % 2 === 0, evidence: `Milestone ${i}: ${i % 2 === 0 ? 'seen' : 'not seen'} in ${images(provider, body).length} frames.` });
  }
  matches.push({ milestone_index: 0, completed: false, evidence: 'a repeated entry' });
  matches.push({ milestone_index: count + 3, completed: true, evidence: 'outside the list' });
  return 'My verdict:\n```json\n' + JSON.stringify({ milestone_matches: matches }, null, 2) + '\n```';
}

function lastRole(provider, body) {
  const list = provider === 'gemini' ? body.contents : body.messages;
  return list?.[list.length - 1]?.role;
}

function handle(req, res) {
  const nocors = req.url.startsWith('/nocors/');
  const hidecors = req.url.startsWith('/hidecors/');
  if (!nocors) {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', '*');
    res.setHeader('Access-Control-Expose-Headers', 'Retry-After');
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(204);
    res.end();
    return;
  }
  const chunks = [];
  const arrived = Date.now();
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const send = (status, obj, headers = {}) => {
      const text = typeof obj === 'string' ? obj : JSON.stringify(obj);
      if (hidecors && status >= 500) {
        for (const h of res.getHeaderNames()) if (h.startsWith('access-control-')) res.removeHeader(h);
      }
      res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
      res.end(text);
    };
    const redirectTo = req.url.match(/^\/redirect\/(\d+)(\/.*)$/);
    const url = new URL(req.url.replace(/^\/(nocors|hidecors|redirect\/\d+)\//, '/'), 'http://x');
    if (req.method === 'POST' && url.pathname === '/log') return send(200, log);
    if (req.method === 'POST' && url.pathname === '/reset') {
      counts.clear();
      log.length = 0;
      return send(200, {});
    }
    let provider;
    let model;
    const gemini = url.pathname.match(/^\/v1beta\/models\/([^/]+):generateContent$/);
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    } catch {
      return send(400, { error: { message: 'the body is not JSON' } });
    }
    if (req.method === 'POST' && url.pathname === '/v1/chat/completions') [provider, model] = ['openai', body.model];
    else if (req.method === 'POST' && url.pathname === '/v1/messages') [provider, model] = ['anthropic', body.model];
    else if (req.method === 'POST' && gemini) [provider, model] = ['gemini', decodeURIComponent(gemini[1])];
    else return send(404, { error: { message: `no route ${req.method} ${url.pathname}` } });
    const key = req.headers.authorization?.replace(/^Bearer /, '') ?? req.headers['x-api-key'] ?? req.headers['x-goog-api-key'] ?? null;
    const script = String(req.headers['x-playbench-script'] ?? model ?? '');
    // Counted per provider and script, so each variant starts its own script.
    const n = (counts.get(`${provider} ${script}`) ?? 0) + 1;
    counts.set(`${provider} ${script}`, n);
    const found = images(provider, body);
    const nImages = found.length;
    log.push({ provider, path: url.pathname, script, n, auth: key !== null, key, images: nImages,
      mimes: [...new Set(found.map(([m]) => m))],
      videos: found.filter(([m]) => m.startsWith('video/')).map(([, d]) => d),
      messages: (provider === 'gemini' ? body.contents : body.messages)?.length ?? 0,
      headers: req.headers, arrived, at: Date.now(), bytes: chunks.reduce((n, c) => n + c.length, 0) });
    if (script.startsWith('judge')) log[log.length - 1].body = body;
    if (redirectTo) return send(307, {}, { Location: `http://127.0.0.1:${redirectTo[1]}${redirectTo[2]}` });
    const p = texts[provider];
    // The key is checked first, as a proxy does.
    if (script.startsWith('key:')) {
      if (key === null) return send(500, p.error('No api key passed in.', 'auth_error'));
      if (key !== script.slice(4)) return send(400, p.error('Authentication Error, No connected db.', 'auth_error'));
    }
    if (script.startsWith('file:')) {
      log[log.length - 1].body = body;
      let entries;
      try {
        const data = JSON.parse(fs.readFileSync(script.slice(5), 'utf8'));
        entries = Array.isArray(data) ? data : data.script;
      } catch (e) {
        return send(500, p.error(`cannot read the script: ${e}`, 'server_error'));
      }
      const entry = n <= entries.length ? entries[n - 1] : "('stop', 'stop')";
      if (typeof entry === 'string') return send(200, p.ok(entry, 100 * nImages + Math.ceil(textLength(provider, body) / 4)));
      if (String(entry.error).includes('maximum context length')) {
        return send(400, { error: { message: entry.error, type: 'invalid_request_error', code: 'context_length_exceeded' } });
      }
      return send(500, p.error(String(entry.error), 'server_error'));
    }
    if (nImages === 0) return send(400, p.error('expected a base64 PNG or JPEG image', 'invalid_request_error'));
    const usage = 100 * nImages + Math.ceil(textLength(provider, body) / 4);
    if (lastRole(provider, body) !== 'user') return send(400, p.error('the last message must be the user\'s', 'invalid_request_error'));
    const [kind, arg] = script.includes(':') ? [script.slice(0, script.indexOf(':')), script.slice(script.indexOf(':') + 1)] : [script, 'Down'];
    const valid = `[Action: ${arg}]\nscripted reply ${n}`;
    const ok = (t) => p.ok(t, usage);
    switch (kind) {
      case 'valid': return send(200, ok(valid));
      case 'seq': {
        const actions = arg.split(',');
        const a = actions[Math.min(assistantTurns(provider, body), actions.length - 1)];
        return send(200, ok(`[Action: ${a}]\nI follow the plan (step ${assistantTurns(provider, body) + 1}).`));
      }
      case 'delay': {
        const [ms, a] = [Number(arg.split(':')[0]), arg.split(':')[1] ?? 'Down'];
        return setTimeout(() => send(200, ok(`[Action: ${a}]\nafter ${ms} ms`)), ms);
      }
      case 'malformed-then-valid': return send(200, ok(n === 1 ? 'I think I should go down.' : valid));
      case '429': return n === 1 ? send(429, p.error('Rate limit reached', 'rate_limit_error'), { 'Retry-After': '1' }) : send(200, ok(valid));
      case '500': return n <= 2 ? send(500, p.error('The server had an error', 'server_error')) : send(200, ok(valid));
      case 'hang': return undefined;
      case 'overflow': return send(...p.overflow);
      case '401': return send(401, p.error(`Incorrect API key provided: ${key}`, 'authentication_error'));
      case 'garbage': return send(200, ok('no marker here'));
      case 'notjson': return send(200, '<html><body>Welcome to nginx!</body></html>');
      case 'drop': {
        // Headers and half the answer, then the connection is cut.
        const text = JSON.stringify(ok(valid));
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
        res.write(text.slice(0, text.length >> 1));
        return setTimeout(() => res.socket.destroy(), 50);
      }
      case 'truncated': return send(200, JSON.stringify(ok(valid)).slice(0, 40));
      case 'huge': return send(200, ok(`[Action: ${arg}]\n${'x'.repeat(10 * 1024 * 1024)}`));
      case 'noimages': return send(...p.noimages);
      case 'audit': return send(200, ok(auditReply(provider, body, script)));
      case 'judge': return send(200, ok(judgeReply(provider, body, script, n)));
      case 'key': return send(200, ok(`[Action: Down]\nscripted reply ${n}`));
      default: return send(404, p.error(`The model ${script} does not exist`, 'not_found_error'));
    }
  });
}

const tls = process.argv.includes('--tls');
const here = path.dirname(fileURLToPath(import.meta.url));
const port = process.argv.slice(2).find((a) => /^\d+$/.test(a));
const plain = http.createServer(handle);
plain.listen(Number(port ?? 0), '127.0.0.1', () => {
  process.stdout.write(`PORT ${plain.address().port}\n`);
  if (!tls) return;
  // The same routes (and the same log) over TLS, on a second port.
  const secure = http2.createSecureServer(
    {
      key: fs.readFileSync(path.join(here, 'test-key.pem')),
      cert: fs.readFileSync(path.join(here, 'test-cert.pem')),
      allowHTTP1: true,
    },
    handle,
  );
  secure.listen(0, '127.0.0.1', () => process.stdout.write(`TLS_PORT ${secure.address().port}\n`));
});
