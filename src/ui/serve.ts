// `agent-state ui`'s server (node:http): one page, its JSON, a timeline endpoint, a stream of
// updates (server-sent events) and the raw artifacts — read-only (GET and HEAD only), guarded by
// the Host header and a token (request-guard.ts). A change to the state files or the log is on
// the page within a fraction of a second: the watcher wakes a refresh, which sends each client
// only the sections whose HTML changed.
import { randomBytes } from 'node:crypto';
import { createReadStream, realpathSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join, relative, sep } from 'node:path';
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

export interface UiServer {
  /** The URL to open, with the token. */
  url: string;
  host: string;
  port: number;
  token: string | null;
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

interface Snapshot {
  sections: Record<string, string>;
  timeline: string;
}

const COMMON_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function send(res: ServerResponse, status: number, type: string, body: string, extra = {}): void {
  res.writeHead(status, { ...COMMON_HEADERS, 'Content-Type': type, ...extra });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  send(res, status, 'text/plain; charset=utf-8', `${text}\n`);
}

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
    sendText(res, 404, `no artifact ${rel}`);
    return;
  }
  res.writeHead(200, {
    ...COMMON_HEADERS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Security-Policy': "default-src 'none'; sandbox",
  });
  if (res.req.method === 'HEAD') res.end();
  else createReadStream(real).pipe(res);
}

function listen(server: ReturnType<typeof createServer>, port: number, host: string) {
  return new Promise<number>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(
          new UsageError(`port ${port} on ${host} is in use`, {
            hint: 'pick another with --port N, or --port 0 for any free port',
          }),
        );
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
        reject(
          new UsageError(`cannot listen on ${host}: ${error.code}`, {
            hint: 'give --host an address of this machine (default 127.0.0.1)',
          }),
        );
      else if (error.code === 'EACCES')
        reject(new UsageError(`port ${port} needs privileges`, { hint: 'use a port above 1023' }));
      else reject(error);
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

  const snapshotOf = (model: UiModel): Snapshot => ({
    sections: renderSections(model, LIVE),
    timeline: JSON.stringify(renderTimelinePage(model.timeline, LIVE, '')),
  });
  const message = (model: UiModel, snap: Snapshot, previous: Snapshot | null) => {
    const sections: Record<string, string> = {};
    for (const [id, markup] of Object.entries(snap.sections))
      if (previous?.sections[id] !== markup) sections[id] = markup;
    const timeline = previous?.timeline === snap.timeline ? null : JSON.parse(snap.timeline);
    if (previous && Object.keys(sections).length === 0 && !timeline) return null;
    const data = JSON.stringify({ seq: model.seq, revision: model.revision, sections, timeline });
    return `event: update\ndata: ${data}\n\n`;
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
        const model = await source.model();
        const snap = snapshotOf(model);
        const text = message(model, snap, last);
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
    const model = await source.model();
    const snap = snapshotOf(model);
    res.write(message(model, snap, null)!);
    last ??= snap;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, 'text/plain; charset=utf-8', 'read-only: GET and HEAD only\n', {
        Allow: 'GET, HEAD',
      });
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const refusal = checkRequest(
      {
        host: req.headers.host,
        origin: req.headers.origin,
        token: url.searchParams.get('token'),
      },
      guard,
    );
    if (refusal) {
      sendText(res, refusal.status, `${refusal.status}: ${refusal.reason}`);
      return;
    }
    switch (url.pathname) {
      case '/': {
        const page = renderPage(await source.model(), LIVE);
        send(res, 200, 'text/html; charset=utf-8', page, {
          'Content-Security-Policy': `${contentSecurityPolicy('live')}; frame-ancestors 'none'`,
        });
        return;
      }
      case '/api/model':
        sendJson(res, await source.model());
        return;
      case '/api/timeline': {
        const types = (url.searchParams.get('types') ?? '').split(',').filter(Boolean);
        const before = Number(url.searchParams.get('before'));
        const limit = Number(url.searchParams.get('limit'));
        const page = source.timeline({
          types,
          before: Number.isSafeInteger(before) && before > 0 ? before : undefined,
          limit: Number.isSafeInteger(limit) && limit > 0 && limit <= 1000 ? limit : undefined,
        });
        sendJson(res, renderTimelinePage(page, LIVE, ''));
        return;
      }
      case '/api/stream':
        await stream(res);
        return;
      case '/artifact':
        sendArtifact(res, source.repo.paths, url.searchParams.get('path') ?? '');
        return;
      default:
        sendText(res, 404, `404: nothing at ${url.pathname}`);
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
