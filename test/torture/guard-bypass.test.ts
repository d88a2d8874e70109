// The Forbidden guard of the host hooks, attacked with generated variants (issue 21): write
// commands behind chains of wrappers and nested shells, symlink layouts that lead into the
// Forbidden zone, and broken state files during PreToolUse. Every call goes through the real bin
// (`hook <host>`) with each host's payload shape. A Forbidden write must be refused; the same
// command aimed at a harmless path must not be (a guard that refuses everything is no guard).
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { compileForbidden } from '../../src/state/forbidden.js';
import { statePaths } from '../../src/state/paths.js';
import { readConfig, readGoals } from '../../src/state/store.js';
import {
  SEED,
  WIDTH,
  checkRun,
  clip,
  copyRepo,
  expectNoViolations,
  pool,
  report,
  richRepo,
  runBin,
  scaled,
  type Violation,
} from './harness.js';
import { STATE_FILES, fuzzedFiles, type StateFile } from './state-fuzz.js';

const HOSTS = ['claude', 'codex', 'gemini', 'opencode'] as const;
type Host = (typeof HOSTS)[number];

/** A tool call: the host's tool name family and its input. */
interface Call {
  tool: 'shell' | 'write';
  input: Record<string, unknown>;
}

const TOOL_NAMES: Record<Host, Record<Call['tool'], string>> = {
  claude: { shell: 'Bash', write: 'Write' },
  codex: { shell: 'Bash', write: 'apply_patch' },
  gemini: { shell: 'run_shell_command', write: 'write_file' },
  opencode: { shell: 'bash', write: 'write' },
};

// The host's PreToolUse payload for a call (a write becomes Codex's patch, Claude Code's Write).
function payload(host: Host, repo: string, call: Call): string {
  const name = TOOL_NAMES[host][call.tool];
  let input = call.input;
  if (name === 'apply_patch' && call.tool === 'write')
    input = {
      [host === 'codex' ? 'command' : 'patchText']:
        `*** Begin Patch\n*** Add File: ${String(call.input.file_path)}\n+x\n*** End Patch`,
    };
  else if (host === 'opencode' && call.tool === 'write')
    input = { filePath: call.input.file_path, content: 'x' };
  if (host === 'opencode')
    return JSON.stringify({ event: 'tool.execute.before', cwd: repo, tool: name, args: input });
  return JSON.stringify({
    session_id: 's',
    cwd: repo,
    hook_event_name: host === 'gemini' ? 'BeforeTool' : 'PreToolUse',
    tool_name: name,
    tool_input: input,
  });
}

// Whether the hook refused the call, from its stdout in the host's format.
function refused(stdout: string): boolean {
  if (stdout.trim() === '') return false;
  const out = JSON.parse(stdout) as {
    hookSpecificOutput?: { permissionDecision?: string };
    decision?: string;
    deny?: unknown;
  };
  return (
    out.hookSpecificOutput?.permissionDecision === 'deny' ||
    out.decision === 'deny' ||
    typeof out.deny === 'string'
  );
}

// Wrappers that run the rest of the line, and ways to nest a command in another shell.
const WRAPPER = fc.constantFrom(
  'env X=1',
  'env -i PATH=/usr/bin:/bin',
  'env -u HOME',
  'nice',
  'nice -n 5',
  'nice -10',
  'timeout 5',
  'timeout -s KILL 5s',
  'timeout -k 1 5',
  'command',
  'command -p',
  'busybox',
  'sudo -u root',
  'sudo -E',
  'nohup',
  'stdbuf -o0',
  'ionice -c3',
  'time -p',
  'exec',
  'setsid',
  'xargs -0',
  'npx -y',
  '/usr/bin/env',
  'FOO=1 BAR=2',
);
const NEST: fc.Arbitrary<(c: string) => string> = fc.constantFrom(
  (c: string) => c,
  (c: string) => `sh -c '${c}'`,
  (c: string) => `bash -lc "${c}"`,
  (c: string) => `eval "${c}"`,
  (c: string) => `echo "$(${c})"`,
  (c: string) => `true && ${c}`,
  (c: string) => `(${c})`,
);
// Commands that write `P` (a file in the target directory `D`).
const WRITER: fc.Arbitrary<(p: string, d: string) => string> = fc.constantFrom(
  (p: string) => `touch ${p}`,
  (p: string) => `echo x > ${p}`,
  (p: string) => `echo x >> ${p}`,
  (p: string) => `tee ${p}`,
  (p: string) => `rm -f ${p}`,
  (p: string) => `mkdir -p ${p}`,
  (p: string) => `cp package.json ${p}`,
  (p: string) => `mv package.json ${p}`,
  (p: string) => `sed -i s/a/b/ ${p}`,
  (p: string) => `dd if=/dev/zero of=${p} count=1`,
  (p: string) => `truncate -s 0 ${p}`,
  (p: string) => `install -m 644 package.json ${p}`,
  (_: string, d: string) => `cp -t ${d} package.json`,
  (_: string, d: string) => `rm -rf ${d}`,
  (_: string, d: string) => `find ${d} -delete`,
);

interface Probe {
  name: string;
  host: Host;
  call: Call;
  /** Whether the hook must refuse it (false: must allow it). */
  refuse: boolean;
  /** Symlinks to make first (path → target), removed after. */
  links?: Record<string, string>;
  /** A state file to replace first (restored after). */
  broken?: { file: StateFile; bytes: Buffer };
}

const host = fc.constantFrom(...HOSTS);

function wrapperProbes(count: number): Probe[] {
  const arb = fc.record({
    host,
    wrappers: fc.array(WRAPPER, { maxLength: 3 }),
    nest: NEST,
    writer: WRITER,
  });
  return fc
    .sample(arb, { numRuns: count, seed: SEED + 100 })
    .flatMap(({ host, wrappers, nest, writer }) =>
      (['src/storage', 'src/ok'] as const).map((dir) => {
        const command = nest([...wrappers, writer(`${dir}/new.js`, dir)].join(' '));
        return {
          name: `wrapped: ${command}`,
          host,
          call: { tool: 'shell' as const, input: { command } },
          refuse: dir === 'src/storage',
        };
      }),
    );
}

// Where a link into the Forbidden zone can stand, and how it can point there.
function symlinkProbes(count: number): Probe[] {
  const arb = fc.record({
    host,
    at: fc.constantFrom('src/l', 'lib/deep/l', 'l', 'src/ok/l'),
    how: fc.constantFrom('dir', 'chain', 'parent', 'file', 'absolute'),
    tool: fc.constantFrom<Call['tool']>('write', 'shell'),
    existing: fc.boolean(),
    harmless: fc.boolean(),
  });
  return fc.sample(arb, { numRuns: count, seed: SEED + 200 }).map((p) => {
    const zone = p.harmless ? 'src/ok' : 'src/storage';
    const file = p.existing ? (p.harmless ? 'ok.js' : 'db.js') : 'new.js';
    const links: Record<string, string> = {};
    let path: string;
    if (p.how === 'parent') {
      links[p.at] = `@ROOT@/src`;
      path = `${p.at}/${zone.slice(4)}/${file}`;
    } else if (p.how === 'file') {
      links[p.at] = `@ROOT@/${zone}/${p.harmless ? 'ok.js' : 'db.js'}`;
      path = p.at;
    } else if (p.how === 'chain') {
      links['hop'] = `@ROOT@/${zone}`;
      links[p.at] = '@ROOT@/hop';
      path = `${p.at}/${file}`;
    } else {
      links[p.at] = p.how === 'absolute' ? `@ROOT@/${zone}` : `@REL@${zone}`;
      path = `${p.at}/${file}`;
    }
    const call: Call =
      p.tool === 'write'
        ? { tool: 'write', input: { file_path: path, content: 'x' } }
        : { tool: 'shell', input: { command: `echo x > ${path}` } };
    return {
      name: `symlink ${p.how} at ${p.at} → ${zone}: ${path}`,
      host: p.host,
      call,
      refuse: !p.harmless,
      links,
    };
  });
}

describe('the Forbidden guard against generated bypasses', () => {
  it(`${scaled(20)} wrapped commands ×2, ${scaled(16)} symlink layouts, ${scaled(20)} broken state files`, async () => {
    const template = await richRepo();
    mkdirSync(join(template, 'src/ok'), { recursive: true });
    writeFileSync(join(template, 'src/ok/ok.js'), 'ok\n');
    mkdirSync(join(template, 'lib/deep'), { recursive: true });
    const baselines = Object.fromEntries(
      Object.entries(STATE_FILES).map(([key, rel]) => [
        key,
        readFileSync(join(template, rel), 'utf8'),
      ]),
    ) as Record<StateFile, string>;
    const broken: Probe[] = fuzzedFiles(baselines, scaled(20), SEED + 300).map((f, i) => ({
      name: `broken ${STATE_FILES[f.file]} (${f.how})`,
      host: HOSTS[i % HOSTS.length]!,
      call: { tool: 'write', input: { file_path: 'src/storage/db.js', content: 'x' } },
      refuse: true,
      broken: f,
    }));
    const probes = [...wrapperProbes(scaled(20)), ...symlinkProbes(scaled(16)), ...broken];
    const slots = Array.from({ length: WIDTH }, () => copyRepo(template));
    const free = [...slots];
    const violations: Violation[] = [];
    let skipped = 0;
    await pool(probes, WIDTH, async (probe) => {
      const repo = free.pop()!;
      const made: string[] = [];
      try {
        for (const [at, target] of Object.entries(probe.links ?? {})) {
          const absolute = target.replace('@ROOT@', repo);
          symlinkSync(
            target.startsWith('@REL@')
              ? relative(join(repo, at, '..'), join(repo, target.slice(5))) || '.'
              : absolute,
            join(repo, at),
          );
          made.push(join(repo, at));
        }
        if (probe.broken) {
          writeFileSync(join(repo, STATE_FILES[probe.broken.file]), probe.broken.bytes);
          if (!stillEnforced(repo)) {
            skipped++; // the damage changed the rule or the mode itself: nothing to refuse
            return;
          }
        }
        const input = payload(probe.host, repo, probe.call);
        const run = await runBin(repo, ['hook', probe.host], { input, timeoutMs: 60_000 });
        const context = `${probe.host}: ${probe.name}`;
        violations.push(...checkRun(run, context, new Set([0])));
        let said: boolean;
        try {
          said = refused(run.stdout);
        } catch {
          violations.push({
            kind: 'hook stdout not JSON',
            detail: `${context}\n${clip(run.stdout)}`,
          });
          return;
        }
        if (said !== probe.refuse)
          violations.push({
            kind: probe.refuse ? 'Forbidden write let through' : 'harmless write refused',
            detail: `${context}\ninput: ${clip(input, 400)}\nstdout: ${clip(run.stdout)}\nstderr: ${clip(run.stderr)}`,
          });
      } finally {
        for (const link of made) rmSync(link, { force: true });
        for (const [key, rel] of Object.entries(STATE_FILES))
          writeFileSync(join(repo, rel), baselines[key as StateFile]);
        free.push(repo);
      }
    });
    report('guard-bypass', { probes: probes.length - skipped, skipped }, violations);
    expectNoViolations(violations);
  });
});

// Whether, by the library's own reading, the damaged state still forbids src/storage/db.js in
// enforce mode (or cannot say, which must refuse too).
function stillEnforced(repo: string): boolean {
  const paths = statePaths(repo);
  try {
    const config = readConfig(paths);
    if ((config.value?.integrations.forbidden ?? 'enforce') !== 'enforce') return false;
  } catch {
    /* unreadable config: enforce */
  }
  try {
    return compileForbidden(readGoals(paths).goals.forbidden)('src/storage/db.js') !== null;
  } catch {
    return true; // unreadable goals.md: every write is refused
  }
}
