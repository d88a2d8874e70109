// Gemini CLI against the Gemini API stub: GOOGLE_GEMINI_BASE_URL points at it, an API key
// selects the Gemini API, `-p` runs one prompt without a terminal and `--yolo` approves tools.
// GEMINI_CLI_HOME moves ~/.gemini (settings, trusted folders, transcripts) under the repo's HOME.
// `geminiAcp` runs the same CLI as an ACP agent (`--acp`, JSON-RPC over stdio, as editors run
// it): several prompts in one process, which is what a real compression needs (Gemini CLI
// compresses at the start of a prompt, from the token count the previous reply reported).
import type { BenchSpec } from '../bench-spec.js';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { geminiApi } from '../gemini-api.js';
import type { ScriptEntry } from '../model-stub.js';
import {
  baseEnv,
  installedHost,
  type HostDriver,
  type HostSession,
  type RunOptions,
} from '../run-host.js';

/** The model the tier asks for (any name works against the stub). */
export const GEMINI_MODEL = 'gemini-2.5-flash';

/** Gemini CLI's user directory inside a host repo's HOME. */
export const geminiDir = (home: string) => join(home, '.gemini');

export interface GeminiDriverOptions {
  /**
   * How the repository is trusted: `env` (GEMINI_CLI_TRUST_WORKSPACE=true, what the tier uses),
   * `folder` (an entry in ~/.gemini/trustedFolders.json, what a user's "trust" writes) or `none`.
   */
  trust?: 'env' | 'folder' | 'none';
}

/** The user settings: the API key auth, and no update checks, statistics or telemetry. */
export const GEMINI_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
};

/** A Gemini CLI driver. */
export function geminiDriver(options: GeminiDriverOptions = {}): HostDriver {
  const trust = options.trust ?? 'env';
  return {
    host: 'gemini',
    adapter: () => geminiApi(),
    prepare(repo) {
      const dir = geminiDir(repo.home);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'settings.json'), `${JSON.stringify(GEMINI_SETTINGS, null, 2)}\n`);
      if (trust === 'folder')
        writeFileSync(
          join(dir, 'trustedFolders.json'),
          `${JSON.stringify({ [repo.dir]: 'TRUST_FOLDER' }, null, 2)}\n`,
        );
    },
    env(repo, stub) {
      return {
        GEMINI_CLI_HOME: repo.home,
        GEMINI_API_KEY: 'stub-gemini-key',
        GOOGLE_GEMINI_BASE_URL: stub.url,
        GEMINI_TELEMETRY_ENABLED: 'false',
        ...(trust === 'env' ? { GEMINI_CLI_TRUST_WORKSPACE: 'true' } : {}),
      };
    },
    args(prompt) {
      return ['-p', prompt, '-m', GEMINI_MODEL, '--yolo', '--output-format', 'json'];
    },
  };
}

export const gemini = geminiDriver();

/** An ACP session of Gemini CLI: prompts go in one by one, in one process. */
export interface GeminiAcp {
  sessionId: string;
  /** Sends a prompt and waits for the end of its turn. */
  prompt(text: string): Promise<{ stopReason: string }>;
  /** What the CLI wrote on stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** Starts `gemini --acp` in the session's repo (plays `script` on the stub for the whole session). */
export async function geminiAcp(
  s: HostSession,
  script: ScriptEntry[],
  options: RunOptions = {},
): Promise<GeminiAcp> {
  const host = installedHost('gemini');
  const driver = gemini;
  s.stub.reset(script);
  s.stub.requests.length = 0;
  const child = spawn(
    host.command[0]!,
    [...host.command.slice(1), '--acp', '-m', GEMINI_MODEL, '--yolo'],
    {
      cwd: s.repo.dir,
      env: { ...baseEnv(s.repo.home), ...driver.env(s.repo, s.stub), ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let buffer = '';
  let next = 0;
  const waiting = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      let message: { id?: number; method?: string; result?: unknown; error?: unknown };
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        continue;
      }
      if (message.method && typeof message.id === 'number') {
        // A request from the agent (a permission under --yolo should not come): allow once.
        child.stdin.write(
          `${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { outcome: { outcome: 'selected', optionId: 'proceed_once' } } })}\n`,
        );
      } else if (typeof message.id === 'number') waiting.get(message.id)?.(message);
    }
  });
  const request = (method: string, params: unknown, timeoutMs = options.timeoutMs ?? 120_000) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(
        () =>
          reject(new Error(`gemini --acp: no answer to ${method}\nstderr: ${stderr.slice(-2000)}`)),
        timeoutMs,
      );
      waiting.set(id, (message) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (message.error)
          reject(new Error(`gemini --acp ${method}: ${JSON.stringify(message.error)}`));
        else resolve(message.result);
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  const close = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('close', () => resolve());
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    });
  try {
    await request('initialize', {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false } },
    });
    const session = (await request('session/new', { cwd: s.repo.dir, mcpServers: [] })) as {
      sessionId: string;
    };
    return {
      sessionId: session.sessionId,
      prompt: async (text) =>
        (await request('session/prompt', {
          sessionId: session.sessionId,
          prompt: [{ type: 'text', text }],
        })) as { stopReason: string },
      stderr: () => stderr,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** bench/hosts.mjs: run_shell_command `true`, which BeforeTool and AfterTool both see. */
export const bench: BenchSpec = {
  driver: gemini,
  toolCall: (i) => ({
    name: 'run_shell_command',
    input: { command: 'true', description: `step ${i}` },
  }),
};
