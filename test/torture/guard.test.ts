// The guard's security part: what an agent (or a hostile commit) could use to slip past Forbidden
// or out of the repository. Names with control characters in a Forbidden zone — in a file or a
// directory name — must be seen the same by verify, checkpoint, the pre-commit hook and a host
// hook, and printed on one line; a symlink anywhere in .agent/, pointing at a copy of what it
// replaced, must carry no command's write or delete out of the repository.
import { createHash } from 'node:crypto';
import {
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { safeText } from '../../src/text/safe-text.js';
import { git, testdir } from '../helpers/fixtures.js';
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

// What a name may hold but `/` and NUL: C0 (newline, CR, tab, ESC), DEL, C1, line and paragraph
// separators, bidi overrides, a zero-width space, a BOM.
const CONTROLS = [
  '\n',
  '\r',
  '\t',
  '\u0001',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u2028',
  '\u2029',
  '\u202e',
  '\u200b',
  '\ufeff',
];
const PLAIN = fc.constantFrom('a', 'b', 'z', '.', '-', ' ', '_');
const piece = fc.string({ unit: PLAIN, maxLength: 4 });
const hostileName = fc
  .tuple(piece, fc.constantFrom(...CONTROLS), piece, fc.constantFrom(...CONTROLS, ''))
  .map((parts) => parts.join(''))
  .filter((name) => name !== '.' && name !== '..');
// `src/storage/<name>.js` or `src/storage/<dir>/<name>.js`: each a Forbidden path.
const forbiddenPath = fc
  .tuple(fc.option(hostileName, { nil: undefined }), hostileName)
  .map(([dir, name]) => `src/storage/${dir === undefined ? '' : `${dir}/`}${name}.js`);

const hookPayload = (repo: string, path: string) =>
  JSON.stringify({
    session_id: 's',
    cwd: repo,
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_input: { file_path: path, content: 'x' },
  });

function diff(kind: string, context: string, expected: Set<string>, got: Set<string>): Violation[] {
  const missed = [...expected].filter((p) => !got.has(p));
  const extra = [...got].filter((p) => !expected.has(p));
  return [
    ...missed.map((p) => ({
      kind: `${kind}: Forbidden path missed`,
      detail: `${context}: ${JSON.stringify(p)}`,
    })),
    ...extra.map((p) => ({
      kind: `${kind}: not Forbidden, reported`,
      detail: `${context}: ${JSON.stringify(p)}`,
    })),
  ];
}

describe('Forbidden names with control characters', () => {
  it(`${scaled(20)} names: verify, checkpoint, pre-commit and the claude hook agree, each on one line`, async () => {
    const repo = copyRepo(await richRepo());
    const paths = [...new Set(fc.sample(forbiddenPath, { numRuns: scaled(20), seed: SEED + 100 }))];
    // The same names outside the zone, and a zone's name split by a control character: not Forbidden.
    const decoys = [
      ...paths.slice(0, scaled(6)).map((p) => p.replace('src/storage/', 'src/other/')),
      'src/stor\nage/x.js',
    ];
    for (const path of [...paths, ...decoys]) {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      writeFileSync(join(repo, path), 'x\n');
    }
    const expected = new Set(paths);
    const violations: Violation[] = [];

    const verifyJson = await runBin(repo, ['verify', '--json']);
    violations.push(...checkRun(verifyJson, 'verify --json'));
    const report_ = JSON.parse(verifyJson.stdout) as { forbidden?: { path: string }[] };
    violations.push(
      ...diff('verify', 'verify --json', expected, new Set(report_.forbidden?.map((f) => f.path))),
    );

    for (const args of [['verify'], ['checkpoint', '--no-test']]) {
      const run = await runBin(repo, args);
      violations.push(...checkRun(run, args.join(' ')));
      if (run.code !== 1)
        violations.push({
          kind: `${args[0]}: not refused`,
          detail: `exit ${run.code}\n${clip(run.stdout)}`,
        });
      for (const path of paths)
        if (
          !run.stdout.includes(
            `${safeText(path, { oneLine: true })} (untracked) is in a forbidden zone`,
          )
        )
          violations.push({
            kind: `${args[0]}: path not on one line`,
            detail: `${JSON.stringify(path)}\n${clip(run.stdout)}`,
          });
    }

    git(repo, 'add', '-A');
    const hook = await runBin(repo, ['hook', 'pre-commit', '--json']);
    violations.push(...checkRun(hook, 'hook pre-commit --json', new Set([1])));
    const findings =
      (JSON.parse(hook.stdout) as { findings?: { kind: string; path: string }[] }).findings ?? [];
    violations.push(
      ...diff(
        'pre-commit',
        'hook pre-commit',
        expected,
        new Set(findings.filter((f) => f.kind === 'forbidden').map((f) => f.path)),
      ),
    );
    const text = await runBin(repo, ['hook', 'pre-commit']);
    violations.push(...checkRun(text, 'hook pre-commit', new Set([1])));
    if (
      text.stderr
        .split('\n')
        .some((line) => /^[^ ]/.test(line) && !/^(agent-state|To skip)/.test(line))
    )
      violations.push({ kind: 'pre-commit: a path split its line', detail: clip(text.stderr) });

    const denied = new Set<string>();
    await pool([...paths, ...decoys], WIDTH, async (path) => {
      const run = await runBin(repo, ['hook', 'claude'], { input: hookPayload(repo, path) });
      violations.push(
        ...checkRun(run, `hook claude PreToolUse Write ${JSON.stringify(path)}`, new Set([0])),
      );
      if (run.stdout.includes('"deny"')) denied.add(path);
    });
    violations.push(...diff('hook claude', 'PreToolUse Write', expected, denied));

    report('guard-names', { names: paths.length, decoys: decoys.length }, violations);
    expectNoViolations(violations);
  });
});

// Where a link may sit in .agent/, and whether it replaces a folder or a file.
const LINKS = [
  '.agent',
  '.agent/state',
  '.agent/state/evidence',
  '.agent/state/agents',
  '.agent/state/agents/bob',
  '.agent/state/progress.yaml',
  '.agent/state/goals.md',
  '.agent/config.yaml',
  '.agent/log',
  '.agent/log/events.jsonl',
  '.agent/artifacts',
] as const;

const COMMANDS: { args: string[]; input?: (repo: string) => string }[] = [
  { args: ['evidence', 'add', '--kind', 'note', '--summary', 'through a link'] },
  { args: ['next', 'through a link'] },
  { args: ['next', 'as bob', '--agent', 'bob'] },
  { args: ['plan', 'add', 'through a link'] },
  { args: ['memory', 'add', 'through a link', '--durable'] },
  { args: ['remind', 'through a link'] },
  { args: ['event', 'note'] },
  { args: ['done', 't2', '--files', 'src/a.js'] },
  { args: ['checkpoint', '--no-test'] },
  { args: ['init'] },
  { args: ['goal', 'Through a link'] },
  { args: ['boot', '--fast'] },
  { args: ['status'] },
  {
    args: ['hook', 'claude'],
    input: (repo) =>
      JSON.stringify({
        session_id: 's',
        cwd: repo,
        hook_event_name: 'SessionStart',
        source: 'startup',
      }),
  },
  {
    args: ['hook', 'claude'],
    input: (repo) =>
      JSON.stringify({
        session_id: 's',
        cwd: repo,
        hook_event_name: 'PostToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
        tool_response: {},
      }),
  },
];

// Every file under `dir` with its bytes' hash, and every name: what "nothing changed" means.
function treeHash(dir: string): string {
  const lines: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    lines.push(
      entry.isFile()
        ? `${path} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`
        : path,
    );
  }
  return lines.sort().join('\n');
}

describe('symlink layouts in .agent/', () => {
  const perLink = scaled(2, COMMANDS.length);
  it(`${LINKS.length} layouts × ${perLink} commands, and a link inside artifacts/: nothing changes outside`, async () => {
    const template = await richRepo();
    mkdirSync(join(template, '.agent/state/agents/bob'), { recursive: true });
    mkdirSync(join(template, '.agent/artifacts'), { recursive: true });
    writeFileSync(
      join(template, '.agent/state/agents/bob/progress.yaml'),
      'version: 1\nrevision: 0\n',
    );
    const cases = LINKS.flatMap((link, i) =>
      fc
        .sample(fc.constantFrom(...COMMANDS), { numRuns: perLink, seed: SEED + 200 + i })
        .map((command) => ({ link, command })),
    );
    const violations: Violation[] = [];
    await pool(cases, WIDTH, async ({ link, command }) => {
      const repo = copyRepo(template);
      const outside = testdir({ 'victim.txt': 'outside\n' });
      // The link points at a copy of what it replaced: followed, every command would work there.
      const target = join(outside, 'target');
      cpSync(join(repo, link), target, { recursive: true });
      rmSync(join(repo, link), { recursive: true, force: true });
      symlinkSync(target, join(repo, link));
      const before = treeHash(outside);
      const hook = command.args[0] === 'hook';
      const run = await runBin(repo, command.args, { input: command.input?.(repo) });
      const context = `${link} -> outside, agent-state ${command.args.join(' ')}`;
      violations.push(...checkRun(run, context, new Set(hook ? [0] : [2])));
      if (treeHash(outside) !== before)
        violations.push({
          kind: 'write outside the repository',
          detail: `${context}\n${clip(run.stderr)}`,
        });
      if (!hook && !run.stderr.includes(`${link}: is a symbolic link`))
        violations.push({ kind: 'link not named', detail: `${context}\n${clip(run.stderr)}` });
    });

    // A link inside artifacts/ and a hand-edited ref through it: pruning deletes nothing outside.
    const repo = copyRepo(template);
    const outside = testdir({ 'victim.txt': 'outside\n' });
    symlinkSync(outside, join(repo, '.agent/artifacts/out'));
    writeFileSync(join(repo, '.agent/config.yaml'), 'version: 1\nevidence:\n  keep: 1\n');
    writeFileSync(
      join(repo, '.agent/state/evidence/000001-old.md'),
      `---\nid: "000001"\nat: 2026-01-01T00:00:00.000Z\nkind: note\nsummary: old\nrefs:\n  - path: .agent/artifacts/out/victim.txt\n    sha256: sha256:${'0'.repeat(64)}\n---\n`,
    );
    const before = treeHash(outside);
    const prune = await runBin(repo, ['evidence', 'add', '--kind', 'note', '--summary', 'prune']);
    violations.push(...checkRun(prune, 'evidence add with a link inside artifacts/', new Set([0])));
    if (treeHash(outside) !== before)
      violations.push({
        kind: 'write outside the repository',
        detail: 'pruning through artifacts/out',
      });

    report('guard-links', { layouts: LINKS.length, runs: cases.length + 1 }, violations);
    expectNoViolations(violations);
  });
});
