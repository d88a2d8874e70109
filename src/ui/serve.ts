// `agent-state ui`'s server (node:http), read-only (GET and HEAD), guarded by the Host header and
// a token (request-guard.ts): the page, its JSON, the timeline, server-sent updates, raw artifacts.
// A change is on the page within a fraction of a second: the watcher wakes a refresh, which sends
// each client only the sections whose HTML changed.
import { randomBytes } from 'node:crypto';
import { createReadStream, realpathSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import type { StatePaths } from '../state/paths.js';
import type { BaseOptions } from '../types.js';
import type { UiModel } from './model.js';
import { checkRequest, type GuardOptions } from './request-guard.js';
import {
  contentSecurityPolicy,
  renderPage,
  renderSections,
  renderTimelinePage,
  type RenderOptions,
} from './render-page.js';
import { UiSource } from './ui-source.js';
import { watchTask } from './watch-task.js';

export interface UiServerOptions extends BaseOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** False with --no-token; default true (a random token). */
  token?: boolean;
  /** A refresh that failed (the server goes on). */
  onError?: (error: unknown) => void;
}

export interface UiServer extends GuardOptions {
  /** The URL to open, with the token. */
  url: string;
  close(): Promise<void>;
}

/** How often the tree (markers, drift) and time-dependent signals are looked at while a page is open. */
const TREE_REFRESH_MS = 3000;
const DEBOUNCE_MS = 25;
const HEARTBEAT_MS = 15_000;
const LIVE: RenderOptions = {
  mode: 'live',
  artifactHref: (path) => `/artifact?path=${encodeURIComponent(path)}`,
};

type Snapshot = { sections: Record<string, string>; timeline: string };

const COMMON_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const TEXT = 'text/plain; charset=utf-8';

// A function: a stream, opened only when the answer has a body (not for HEAD).
type Body = string | (() => Readable);

function send(res: ServerResponse, status: number, type: string, body: Body, extra = {}): void {
  res.writeHead(status, { ...COMMON_HEADERS, 'Content-Type': type, ...extra });
  if (res.req.method === 'HEAD') res.end();
  else if (typeof body === 'string') res.end(body);
  else body().pipe(res);
}

const sendText = (res: ServerResponse, status: number, text: string, extra = {}) =>
  send(res, status, TEXT, `${text}\n`, extra);

const sendJson = (res: ServerResponse, value: unknown) =>
  send(res, 200, 'application/json; charset=utf-8', JSON.stringify(value));

// A raw artifact, as stored, only from .agent/artifacts/ (no way out by `..` or a symlink, the
// folder's own included: it is where it should be in the real root, not where a link points).
function sendArtifact(res: ServerResponse, paths: StatePaths, rel: string): void {
  const { root, artifactsDir } = paths;
  let real: string;
  try {
    real = realpathSync(join(root, rel));
    const dir = join(realpathSync(root), relative(root, artifactsDir));
    if (!real.startsWith(dir + sep) || !statSync(real).isFile()) throw new Error('outside');
  } catch {
    return sendText(res, 404, `no artifact ${rel}`);
  }
  const csp = "default-src 'none'; sandbox";
  send(res, 200, TEXT, () => createReadStream(real), { 'Content-Security-Policy': csp });
}

function listen(server: ReturnType<typeof createServer>, port: number, host: string) {
  return new Promise<number>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? '';
      const [message, hint] =
        code === 'EADDRINUSE'
          ? [
              `port ${port} on ${host} is in use`,
              'pick another with --port N, or --port 0 for any free port',
            ]
          : ['EADDRNOTAVAIL', 'ENOTFOUND'].includes(code)
            ? [
                `cannot listen on ${host}: ${code}`,
                'give --host an address of this machine (default 127.0.0.1)',
              ]
            : code === 'EACCES'
              ? [`port ${port} needs privileges`, 'use a port above 1023']
              : [];
      reject(message ? new UsageError(message, { hint }) : error);
    });
    server.listen(port, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/** Starts the server; resolves once it listens. */
export async function startUiServer(options: UiServerOptions = {}): Promise<UiServer> {
  const source = new UiSource(options);
  const host = options.host ?? '127.0.0.1';
  const token = options.token === false ? null : randomBytes(24).toString('base64url');
  const clients = new Set<ServerResponse>();
  const guard: GuardOptions = { port: 0, host, token };
  let last: Snapshot | null = null;
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let again = false;

  // The model rendered, and the update for a client that has `previous` (null: it has nothing):
  // the sections whose HTML changed and the timeline if it did; text null when nothing did.
  const update = (model: UiModel, previous: Snapshot | null) => {
    const snap: Snapshot = {
      sections: renderSections(model, LIVE),
      timeline: JSON.stringify(renderTimelinePage(model.timeline, LIVE, '')),
    };
    const sections: Record<string, string> = {};
    for (const [id, markup] of Object.entries(snap.sections))
      if (previous?.sections[id] !== markup) sections[id] = markup;
    const timeline = previous?.timeline === snap.timeline ? null : JSON.parse(snap.timeline);
    if (previous && Object.keys(sections).length === 0 && !timeline) return { snap, text: null };
    const data = JSON.stringify({ seq: model.seq, revision: model.revision, sections, timeline });
    return { snap, text: `event: update\ndata: ${data}\n\n` };
  };

  const refresh = async () => {
    timer = null;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      if (clients.size > 0) {
        const { snap, text } = update(await source.model(), last);
        last = snap;
        if (text) for (const client of clients) client.write(text);
      }
    } catch (error) {
      options.onError?.(error);
    } finally {
      running = false;
      if (again) {
        again = false;
        schedule();
      }
    }
  };
  const schedule = () => {
    timer ??= setTimeout(() => void refresh(), DEBOUNCE_MS);
  };

  const stream = async (res: ServerResponse) => {
    res.writeHead(200, {
      ...COMMON_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      Connection: 'keep-alive',
    });
    res.write('retry: 1000\n\n');
    clients.add(res);
    res.on('close', () => clients.delete(res));
    // Everything, once: the page may have been rendered before the last update went out.
    const { snap, text } = update(await source.model(), null);
    res.write(text!);
    last ??= snap;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendText(res, 405, 'read-only: GET and HEAD only', { Allow: 'GET, HEAD' });
    const url = new URL(req.url ?? '/', 'http://localhost');
    const { host, origin } = req.headers;
    const refusal = checkRequest({ host, origin, token: url.searchParams.get('token') }, guard);
    if (refusal) return sendText(res, refusal.status, `${refusal.status}: ${refusal.reason}`);
    switch (url.pathname) {
      case '/':
        return send(res, 200, 'text/html; charset=utf-8', renderPage(await source.model(), LIVE), {
          'Content-Security-Policy': `${contentSecurityPolicy('live')}; frame-ancestors 'none'`,
        });
      case '/api/model':
        return sendJson(res, await source.model());
      case '/api/timeline': {
        const types = (url.searchParams.get('types') ?? '').split(',').filter(Boolean);
        const positive = (name: string, max = Infinity) => {
          const n = Number(url.searchParams.get(name));
          return Number.isSafeInteger(n) && n > 0 && n <= max ? n : undefined;
        };
        const page = source.timeline({
          types,
          before: positive('before'),
          limit: positive('limit', 1000),
        });
        return sendJson(res, renderTimelinePage(page, LIVE, ''));
      }
      case '/api/stream':
        return stream(res);
      case '/artifact':
        return sendArtifact(res, source.repo.paths, url.searchParams.get('path') ?? '');
      default:
        return sendText(res, 404, `404: nothing at ${url.pathname}`);
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.onError?.(error);
      if (!res.headersSent)
        sendText(res, 500, `agent-state ui: ${error instanceof Error ? error.message : error}`);
      else res.end();
    });
  });
  const port = await listen(server, options.port ?? 0, host);
  guard.port = port;
  const stopWatching = watchTask(source.repo, schedule);
  const tree = setInterval(schedule, TREE_REFRESH_MS);
  const heartbeat = setInterval(() => {
    for (const client of clients) client.write(': ping\n\n');
  }, HEARTBEAT_MS);
  // A wildcard address is not one to open: the loopback address of its family is.
  const wildcard: Record<string, string> = { '0.0.0.0': '127.0.0.1', '::': '[::1]' };
  const shown = wildcard[host] ?? (host.includes(':') ? `[${host}]` : host);
  return {
    url: `http://${shown}:${port}/${token ? `?token=${token}` : ''}`,
    host,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        stopWatching();
        clearInterval(tree);
        clearInterval(heartbeat);
        if (timer) clearTimeout(timer);
        for (const client of clients) client.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
