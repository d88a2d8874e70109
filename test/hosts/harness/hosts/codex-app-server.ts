// `codex app-server` (JSON-RPC over stdio), for what `codex exec` cannot do: Codex's own view of
// its hooks (`hooks/list`: trust key, current hash, trust status), and a manual compaction
// (`thread/compact/start`, what /compact does in the TUI). The tier trusts hooks the way Codex's
// /hooks panel does with it, and checks agent-state's own trust entries against its hashes.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseEnv, installedHost } from '../run-host.js';

/** One hook as `hooks/list` reports it. */
export interface CodexHookEntry {
  key: string;
  eventName: string;
  command: string;
  matcher: string | null;
  timeoutSec: number;
  sourcePath: string;
  source: string;
  enabled: boolean;
  currentHash: string;
  trustStatus: string;
}

/** A notification the server sent. */
export interface Notification {
  method: string;
  params: Record<string, unknown>;
}

/** A running `codex app-server`. */
export interface AppServer {
  request(method: string, params: unknown, timeoutMs?: number): Promise<unknown>;
  /** Every notification so far. */
  notifications: Notification[];
  /** Resolves with the first notification (from now on) that `match` accepts. */
  waitFor(match: (n: Notification) => boolean, timeoutMs?: number): Promise<Notification>;
  /** Stops the server and waits for it to exit. */
  close(): Promise<void>;
}

/** Starts `codex app-server` in `cwd` with a private HOME and CODEX_HOME, and initializes it. */
export async function startAppServer(
  home: string,
  codexHome: string,
  cwd: string,
  env: Record<string, string> = {},
): Promise<AppServer> {
  const codex = installedHost('codex');
  const child: ChildProcessWithoutNullStreams = spawn(
    codex.command[0]!,
    [...codex.command.slice(1), 'app-server'],
    { cwd, env: { ...baseEnv(home), CODEX_HOME: codexHome, ...env }, stdio: 'pipe' },
  );
  child.stderr.resume();
  let buffer = '';
  const waiting = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
  const notifications: Notification[] = [];
  const listeners = new Set<(n: Notification) => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      let message: {
        id?: number;
        method?: string;
        params?: Record<string, unknown>;
        result?: unknown;
        error?: unknown;
      };
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        continue;
      }
      if (typeof message.id === 'number' && !message.method) {
        waiting.get(message.id)?.(message);
      } else if (message.method) {
        const n = { method: message.method, params: message.params ?? {} };
        notifications.push(n);
        for (const listener of listeners) listener(n);
      }
    }
  });
  let next = 0;
  const request = (method: string, params: unknown, timeoutMs = 60_000) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(
        () => reject(new Error(`codex app-server: no answer to ${method}`)),
        timeoutMs,
      );
      waiting.set(id, (message) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (message.error)
          reject(new Error(`codex app-server ${method}: ${JSON.stringify(message.error)}`));
        else resolve(message.result);
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  const waitFor = (match: (n: Notification) => boolean, timeoutMs = 60_000) =>
    new Promise<Notification>((resolve, reject) => {
      const timer = setTimeout(() => {
        listeners.delete(listener);
        reject(new Error('codex app-server: the awaited notification never came'));
      }, timeoutMs);
      const listener = (n: Notification) => {
        if (!match(n)) return;
        clearTimeout(timer);
        listeners.delete(listener);
        resolve(n);
      };
      listeners.add(listener);
    });
  await request('initialize', { clientInfo: { name: 'agent-state-hosts-tier', version: '1' } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'initialized' })}\n`);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    child.kill();
    await exited;
  };
  return { request, notifications, waitFor, close };
}

/** The hooks Codex discovers for `cwd` with this CODEX_HOME. */
export async function codexHooksList(
  home: string,
  codexHome: string,
  cwd: string,
): Promise<CodexHookEntry[]> {
  const server = await startAppServer(home, codexHome, cwd);
  try {
    const result = (await server.request('hooks/list', { cwds: [cwd] })) as {
      data: { hooks: CodexHookEntry[] }[];
    };
    return result.data.flatMap((entry) => entry.hooks);
  } finally {
    await server.close();
  }
}

/** Trusts every hook Codex lists for `cwd` (what pressing "trust" in /hooks writes). */
export async function trustCodexHooks(
  home: string,
  codexHome: string,
  cwd: string,
): Promise<CodexHookEntry[]> {
  const hooks = await codexHooksList(home, codexHome, cwd);
  const tables = hooks
    .filter((h) => h.trustStatus !== 'trusted' && h.trustStatus !== 'managed')
    .map(
      (h) =>
        `[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = ${JSON.stringify(h.currentHash)}\n`,
    );
  if (tables.length) appendFileSync(join(codexHome, 'config.toml'), `\n${tables.join('\n')}`);
  return hooks;
}
