// Codex's own view of its hooks, from `codex app-server` (JSON-RPC over stdio): `hooks/list`
// names every hook Codex discovered, its trust key, its current hash and whether it is trusted.
// The tier uses it to trust hooks the way Codex's /hooks panel does, and to check agent-state's
// own trust entries against Codex's hashes.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { installedHost } from '../run-host.js';
import { baseEnv } from '../run-host.js';

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
  trustStatus: 'trusted' | 'untrusted' | 'modified' | 'managed' | string;
}

/** The hooks Codex discovers for `cwd` with this CODEX_HOME. */
export async function codexHooksList(
  home: string,
  codexHome: string,
  cwd: string,
): Promise<CodexHookEntry[]> {
  const codex = installedHost('codex');
  const child = spawn(codex.command[0]!, [...codex.command.slice(1), 'app-server'], {
    cwd,
    env: { ...baseEnv(home), CODEX_HOME: codexHome },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let buffer = '';
  const waiting = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      try {
        const message = JSON.parse(line) as { id?: number; result?: unknown; error?: unknown };
        if (typeof message.id === 'number') waiting.get(message.id)?.(message);
      } catch {
        /* not a JSON-RPC line */
      }
    }
  });
  let next = 0;
  const request = (method: string, params: unknown) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(
        () => reject(new Error(`codex app-server: no answer to ${method}`)),
        30_000,
      );
      waiting.set(id, (message) => {
        clearTimeout(timer);
        if (message.error)
          reject(new Error(`codex app-server ${method}: ${JSON.stringify(message.error)}`));
        else resolve(message.result);
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  try {
    await request('initialize', { clientInfo: { name: 'agent-state-hosts-tier', version: '1' } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'initialized' })}\n`);
    const result = (await request('hooks/list', { cwds: [cwd] })) as {
      data: { hooks: CodexHookEntry[] }[];
    };
    return result.data.flatMap((entry) => entry.hooks);
  } finally {
    child.kill();
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
