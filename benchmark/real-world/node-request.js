'use strict';
// Real-world shape: a fetch-style handler on node:http, as web framework
// adapters run one: each IncomingMessage becomes a Request whose body is
// `Readable.toWeb(req)`, the handler reads it with `await request.json()`
// and answers with a Response whose body is written back to the socket.
// The client is plain node:http (no web streams) and sends `kb` KiB of
// JSON per request in 4 KiB writes, `concurrency` requests at a time over
// keep-alive connections; each answer is checked. The server runs in this
// process on an ephemeral port, started before bench.start() and closed at
// the end.
const common = require('../common.js');
const assert = require('assert');
const http = require('http');
const { Readable } = require('stream');

const bench = common.createBenchmark(main, {
  n: [4000],
  kb: [16],
  concurrency: [8],
});

function payload(kb, i) {
  const items = [];
  for (let j = 0; JSON.stringify(items).length < kb * 1024; j++) {
    items.push({ id: j, name: `item ${j} — naïve café`, tags: ['a', 'b', 'ç'], price: j * 1.5 });
  }
  return { request: i, items };
}

// What a framework adapter does: the web Request from node:http's request.
function toRequest(req) {
  return new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method,
    headers: req.headers,
    body: Readable.toWeb(req),
    duplex: 'half',
  });
}

async function handle(request) {
  const data = await request.json();
  return Response.json({ request: data.request, items: data.items.length });
}

function listen() {
  const server = http.createServer(async (req, res) => {
    try {
      const response = await handle(toRequest(req));
      res.writeHead(response.status, { 'content-type': 'application/json' });
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      res.writeHead(500);
      res.end(String(error));
    }
  });
  server.on('connection', (socket) => socket.unref());
  server.unref();
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function post(agent, port, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ agent, port, host: '127.0.0.1', method: 'POST', path: '/items',
                               headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    for (let offset = 0; offset < body.length; offset += 4096) req.write(body.subarray(offset, offset + 4096));
    req.end();
  });
}

async function main({ n, kb, concurrency }) {
  const server = await listen();
  const { port } = server.address();
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const bodies = Array.from({ length: 16 }, (_, i) => Buffer.from(JSON.stringify(payload(kb, i))));
  const counts = bodies.map((b) => JSON.parse(b).items.length);

  // One request before the clock starts: loads undici's Request and Response.
  assert.strictEqual((await post(agent, port, bodies[0])).status, 200);

  let next = 0;
  let done = 0;
  async function client() {
    while (next < n) {
      const i = next++;
      const { status, body } = await post(agent, port, bodies[i % 16]);
      if (status !== 200) throw new Error(`request ${i}: status ${status}: ${body}`);
      const answer = JSON.parse(body);
      if (answer.request !== i % 16 || answer.items !== counts[i % 16]) {
        throw new Error(`request ${i}: answer ${body}`);
      }
      done++;
    }
  }
  bench.start();
  await Promise.all(Array.from({ length: concurrency }, client));
  bench.end(n);
  agent.destroy();
  server.closeAllConnections();
  server.close();
  assert.strictEqual(done, n);
}
