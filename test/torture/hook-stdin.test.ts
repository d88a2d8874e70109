// Garbage on the stdin of every host's hook (and the statusline): bytes, JSON of any shape, and
// payloads shaped like each host's with hostile fields. A hook never breaks the host's session:
// exit 0, stdout empty or one JSON object whose strings hold no control character, at most one
// line on stderr, no stack trace; and the state stays valid.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { readProgress } from '../../src/state/store.js';
import { statePaths } from '../../src/state/paths.js';
import { CONTROL } from '../helpers/controls.js';
import { SECRETS } from '../helpers/secrets.js';
import {
  SEED,
  WIDTH,
  checkRun,
  clip,
  copyRepo,
  expectNoViolations,
  jsonStrings,
  pool,
  report,
  richRepo,
  runBin,
  scaled,
  type Violation,
} from './harness.js';

const HOSTS = ['claude', 'codex', 'gemini', 'opencode'] as const;
type Host = (typeof HOSTS)[number];

const EVENTS: Record<Host, string[]> = {
  claude: [
    'SessionStart',
    'UserPromptSubmit',
    'PreToolUse',
    'PostToolUse',
    'PostToolUseFailure',
    'PreCompact',
    'Stop',
    'SessionEnd',
    'Notification',
  ],
  codex: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'],
  gemini: [
    'SessionStart',
    'BeforeAgent',
    'BeforeTool',
    'AfterTool',
    'PreCompress',
    'AfterAgent',
    'SessionEnd',
  ],
  opencode: [
    'tool.execute.before',
    'tool.execute.after',
    'experimental.session.compacting',
    'session.idle',
  ],
};

const TOOLS = [
  'Write',
  'Edit',
  'MultiEdit',
  'Bash',
  'apply_patch',
  'shell',
  'write_file',
  'replace',
  'run_shell_command',
  'edit',
  'write',
  'bash',
  'Read',
  'x',
];

const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    '/',
    '.',
    '..',
    '../../etc/passwd',
    '/etc/passwd',
    '/nonexistent/dir',
    'src/storage/db.js',
    'C:\\x',
    '\u001b]0;pwned\u0007',
    '\u202eevil',
    '*** Begin Patch\n*** Add File: src/storage/x\n+x\n*** End Patch',
    'cd src/storage && echo x > db.js',
    ...Object.values(SECRETS),
  ),
  fc.string({ unit: 'binary', maxLength: 60 }),
);
const anyValue: fc.Arbitrary<unknown> = fc.oneof(hostileString, fc.jsonValue({ maxDepth: 3 }));

// A payload of the host's shape, its fields of the wrong type or hostile.
function shaped(host: Host, repo: string): fc.Arbitrary<string> {
  const name = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...EVENTS[host]) },
    { weight: 1, arbitrary: anyValue },
  );
  const cwd = fc.oneof(
    { weight: 4, arbitrary: fc.constant(repo) },
    { weight: 1, arbitrary: anyValue },
  );
  const toolInput = fc.oneof(
    fc.record({ file_path: hostileString, content: hostileString }),
    fc.record({ command: hostileString, workdir: hostileString }),
    fc.record({ edits: fc.array(fc.record({ file_path: hostileString }), { maxLength: 3 }) }),
    anyValue,
  );
  if (host === 'opencode')
    return fc
      .record({
        event: name,
        cwd,
        tool: fc.oneof(fc.constantFrom(...TOOLS), anyValue),
        args: toolInput,
        ok: anyValue,
      })
      .map((p) => JSON.stringify(p));
  return fc
    .record(
      {
        session_id: anyValue,
        transcript_path: anyValue,
        cwd,
        hook_event_name: name,
        source: fc.oneof(fc.constantFrom('startup', 'resume', 'clear', 'compact'), anyValue),
        trigger: fc.oneof(fc.constantFrom('manual', 'auto'), anyValue),
        tool_name: fc.oneof(fc.constantFrom(...TOOLS), anyValue),
        tool_input: toolInput,
        tool_response: anyValue,
        prompt: anyValue,
        stop_hook_active: anyValue,
      },
      { requiredKeys: ['hook_event_name'] },
    )
    .map((p) => JSON.stringify(p));
}

function garbage(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.constantFrom(
      '',
      ' ',
      '\n',
      'null',
      '[]',
      '{}',
      '"x"',
      '{"hook_event_name":',
      '\u0000\u0000',
    ),
    fc.integer({ min: 1, max: 6000 }).map((d) => `${'['.repeat(d)}${']'.repeat(d)}`),
    fc.integer({ min: 1, max: 6000 }).map((d) => `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`),
  );
}

function checkHookRun(
  run: Awaited<ReturnType<typeof runBin>>,
  context: string,
  json: boolean,
): Violation[] {
  const found = checkRun(run, context, new Set([0]));
  const stderr = run.stderr.trimEnd();
  if (stderr.split('\n').length > 1)
    found.push({
      kind: 'hook stderr over one line',
      detail: `${context}\nstderr: ${clip(run.stderr)}`,
    });
  if (!json || run.stdout === '') return found;
  try {
    const value = JSON.parse(run.stdout) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      found.push({
        kind: 'hook stdout not an object',
        detail: `${context}\nstdout: ${clip(run.stdout)}`,
      });
    const bad = jsonStrings(value).find((s) => CONTROL.test(s));
    if (bad !== undefined)
      found.push({
        kind: 'control character',
        detail: `${context}: to the model: ${JSON.stringify(clip(bad))}`,
      });
  } catch {
    found.push({ kind: 'hook stdout not JSON', detail: `${context}\nstdout: ${clip(run.stdout)}` });
  }
  return found;
}

describe('garbage on the stdin of the host hooks', () => {
  it(`${scaled(20)} payloads per host and for the statusline: exit 0, one JSON object or nothing`, async () => {
    const template = await richRepo();
    const slots = Array.from({ length: WIDTH }, () => copyRepo(template));
    const free = [...slots];
    const cases: { host: Host | 'statusline'; input: string }[] = [];
    HOSTS.forEach((host, i) => {
      const shapedCount = Math.ceil(scaled(20) * 0.6);
      const inputs = [
        ...fc.sample(shaped(host, '@REPO@'), { numRuns: shapedCount, seed: SEED + i }),
        ...fc.sample(garbage(), { numRuns: scaled(20) - shapedCount, seed: SEED + 10 + i }),
      ];
      for (const input of inputs) cases.push({ host, input });
    });
    for (const input of fc.sample(fc.oneof(garbage(), fc.constant('{"cwd":"@REPO@"}')), {
      numRuns: scaled(5),
      seed: SEED + 20,
    }))
      cases.push({ host: 'statusline', input });

    const violations: Violation[] = [];
    await pool(cases, WIDTH, async ({ host, input }) => {
      const repo = free.pop()!;
      try {
        const stdin = input.replaceAll('@REPO@', JSON.stringify(repo).slice(1, -1));
        const args = host === 'statusline' ? ['statusline'] : ['hook', host];
        const run = await runBin(repo, args, { input: stdin, timeoutMs: 60_000 });
        const context = `${args.join(' ')} < ${JSON.stringify(clip(stdin, 300))}`;
        violations.push(...checkHookRun(run, context, host !== 'statusline'));
        if (readProgress(statePaths(repo)).problems.length > 0)
          violations.push({ kind: 'state broken by a hook', detail: context });
      } finally {
        free.push(repo);
      }
    });
    report('hook-stdin', { payloads: cases.length, hosts: HOSTS.length }, violations);
    expectNoViolations(violations);
  });
});
