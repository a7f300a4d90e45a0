// A local stand-in for the GitHub REST API: a real HTTP server on
// 127.0.0.1 that records every request and answers the few endpoints
// `make pr` uses. `fail` makes the n-th request matching a method and path
// answer with an error status instead.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  /** Path with query, as sent. */
  url: string;
  body?: Record<string, unknown>;
  authorization?: string;
}

export interface Failure {
  method: string;
  path: RegExp;
  /** 1-based: which matching request fails. */
  nth: number;
  status: number;
  body: Record<string, unknown>;
}

export interface FakeGitHub {
  url: string;
  requests: Recorded[];
  /** PRs that already exist, by head (`owner:branch`). */
  open: Map<string, number>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

export async function startFakeGitHub(failures: Failure[] = []): Promise<FakeGitHub> {
  const requests: Recorded[] = [];
  const open = new Map<string, number>();
  const seen = new Map<Failure, number>();
  let next = 101;
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const method = req.method ?? '?';
    const url = req.url ?? '/';
    requests.push({ method, url, body, authorization: req.headers.authorization });
    const path = new URL(url, 'http://x').pathname;
    const send = (status: number, data: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(data));
    };
    for (const f of failures) {
      if (f.method === method && f.path.test(path)) {
        const n = (seen.get(f) ?? 0) + 1;
        seen.set(f, n);
        if (n === f.nth) return send(f.status, f.body);
      }
    }
    let m: RegExpExecArray | null;
    if (method === 'GET' && (m = /^\/repos\/([^/]+)\/([^/]+)$/.exec(path))) return send(200, { full_name: `${m[1]}/${m[2]}` });
    if (method === 'GET' && /^\/repos\/[^/]+\/[^/]+\/pulls$/.test(path)) {
      const head = new URL(url, 'http://x').searchParams.get('head') ?? '';
      const number = open.get(head);
      return send(200, number ? [{ number, html_url: `https://github.example/pull/${number}` }] : []);
    }
    if (method === 'POST' && /^\/repos\/[^/]+\/[^/]+\/pulls$/.test(path)) {
      const number = next++;
      open.set(String(body?.head), number);
      return send(201, { number, html_url: `https://github.example/pull/${number}` });
    }
    if (method === 'PATCH' && (m = /^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)$/.exec(path))) {
      return send(200, { number: Number(m[1]), html_url: `https://github.example/pull/${m[1]}` });
    }
    send(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    open,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
