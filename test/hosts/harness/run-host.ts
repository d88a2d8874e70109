// Running a real host CLI non-interactively in a host repo: an environment built from nothing
// but PATH and the host's private HOME (no API keys, config or caches of this machine), with
// telemetry, update checks and auto-updaters off, and a timeout that kills the whole process tree.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { BIN, hostRepo, REPO_ROOT, type HostRepo, type HostRepoOptions } from './host-repo.js';
import {
  startModelStub,
  type ModelStub,
  type ProtocolAdapter,
  type ScriptEntry,
} from './model-stub.js';

/** The hosts of the tier (test/hosts/versions.json). */
export type HostId = 'claude' | 'codex' | 'gemini' | 'opencode';

/** An installed host: package, version and the argv that starts it. */
export interface InstalledHost {
  host: HostId;
  package: string;
  version: string;
  dir: string;
  command: string[];
}

const installed = new Map<HostId, InstalledHost>();

/**
 * The host installed from test/hosts/versions.json (installing it into the cache when missing;
 * AGENT_STATE_HOSTS_LATEST=1 takes the newest version instead).
 */
export function installedHost(host: HostId): InstalledHost {
  const known = installed.get(host);
  if (known) return known;
  const out = execFileSync(
    process.execPath,
    [join(REPO_ROOT, 'scripts', 'install-hosts.mjs'), '--host', host, '--json'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 900_000 },
  );
  const result = (JSON.parse(out) as Record<string, InstalledHost>)[host]!;
  installed.set(host, result);
  return result;
}

/** How one host is pointed at the stub and started without a terminal. */
export interface HostDriver {
  host: HostId;
  /** The model API the host speaks. */
  adapter(): ProtocolAdapter;
  /** Writes the host's config under the repo's HOME (provider, trust, telemetry off). */
  prepare(repo: HostRepo, stub: ModelStub): void | Promise<void>;
  /** Environment variables beyond the base ones. */
  env(repo: HostRepo, stub: ModelStub): Record<string, string>;
  /** The arguments for one non-interactive run with a prompt. */
  args(prompt: string, options: RunOptions): string[];
}

export interface RunOptions {
  /** Extra arguments after the driver's. */
  extraArgs?: string[];
  /** Replaces the driver's arguments entirely (after the host command). */
  rawArgs?: string[];
  /** Text on the host's stdin (default: none, closed). */
  stdin?: string;
  /** More environment. */
  env?: Record<string, string>;
  /** Kill after this long (default 120 s). */
  timeoutMs?: number;
}

export interface HostRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

/** The environment every host starts with: PATH, a locale, and its private HOME. */
export function baseEnv(home: string): Record<string, string> {
  // agent-state on PATH, as after `npm install -g agent-state`, so the model can run it.
  const bin = join(home, '.local', 'bin');
  mkdirSync(bin, { recursive: true });
  if (!existsSync(join(bin, 'agent-state'))) symlinkSync(BIN, join(bin, 'agent-state'));
  // Login shells (Codex runs `bash -lc`) rebuild PATH from /etc/profile, then read ~/.profile.
  writeFileSync(join(home, '.profile'), 'export PATH="$HOME/.local/bin:$PATH"\n');
  const env: Record<string, string> = {
    PATH: `${bin}${delimiter}${process.env.PATH ?? '/usr/bin:/bin'}`,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    HOME: home,
    TMPDIR: join(home, 'tmp'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    CI: '1',
  };
  for (const dir of ['tmp', '.config', '.local/share', '.local/state', '.cache'])
    mkdirSync(join(home, dir), { recursive: true });
  return env;
}

/** Spawns argv and collects its output; never rejects for an exit code. */
export function runProcess(
  argv: string[],
  options: { cwd: string; env: Record<string, string>; stdin?: string; timeoutMs: number },
): Promise<HostRun> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, options.timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - start, timedOut });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin ?? '');
  });
}

/** Runs the host once in the repo against the stub. */
export async function runHost(
  driver: HostDriver,
  repo: HostRepo,
  stub: ModelStub,
  prompt: string,
  options: RunOptions = {},
): Promise<HostRun> {
  const host = installedHost(driver.host);
  const env = { ...baseEnv(repo.home), ...driver.env(repo, stub), ...options.env };
  const args = options.rawArgs ?? [...driver.args(prompt, options), ...(options.extraArgs ?? [])];
  const run = await runProcess([...host.command, ...args], {
    cwd: repo.dir,
    env,
    stdin: options.stdin,
    timeoutMs: options.timeoutMs ?? 120_000,
  });
  if (run.timedOut)
    throw new Error(
      `${driver.host} timed out after ${options.timeoutMs ?? 120_000} ms\nstdout: ${run.stdout.slice(-2000)}\nstderr: ${run.stderr.slice(-2000)}`,
    );
  return run;
}

/** A host repo wired to a fresh stub, ready to run the host in. */
export interface HostSession {
  repo: HostRepo;
  stub: ModelStub;
  /** Plays `script` (replacing the last one) and runs the host with `prompt`. */
  run(prompt: string, script: ScriptEntry[], options?: RunOptions): Promise<HostRun>;
  close(): Promise<void>;
}

/** Creates a host repo, starts a stub for the driver's protocol and prepares the host's config. */
export async function hostSession(
  driver: HostDriver,
  repoOptions: HostRepoOptions = {},
): Promise<HostSession> {
  installedHost(driver.host);
  const repo = hostRepo({ integrate: driver.host, ...repoOptions });
  const stub = await startModelStub({ adapters: [driver.adapter()] });
  try {
    await driver.prepare(repo, stub);
  } catch (error) {
    await stub.close();
    repo.remove();
    throw error;
  }
  return {
    repo,
    stub,
    run: (prompt, script, options) => {
      stub.reset(script);
      stub.requests.length = 0;
      return runHost(driver, repo, stub, prompt, options);
    },
    close: async () => {
      await stub.close();
      repo.remove();
    },
  };
}
