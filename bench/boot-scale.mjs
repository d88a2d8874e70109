// Boot on a task that grew large: a 10,000-item plan (8,000 done), 20,000 working notes, 3,000
// completion markers, a goals.md with a 1 MB unbroken line; and the SessionStart hook (what the
// host runs, under its timeout) on the big plan. Each is timed against `boot` on an ordinary task
// in the same run (interleaved, medians) and must stay linear: ≤ 1.5 s each. Each boot is also
// timed with --dry-run, which reads the state and writes no stamp into progress.yaml.
// Usage: node bench/boot-scale.mjs [--runs N] [--only plan,notes,markers,goals,hook] [--keep]
// (--keep leaves the repositories in the temp directory and prints where, for profiling).
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BIN, ROOT, interleave, report } from './lib.mjs';

const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
};
const runs = Number(arg('--runs')) || 5;
const only = arg('--only')?.split(',');
const LIMIT_MS = 1500;
// A run that takes longer is stopped and counted as this long (the quadratic code took minutes).
const TIMEOUT_MS = Number(arg('--timeout')) || 60_000;
const AT = '2026-11-30T12:00:00.000Z';
const dirs = [];

const quote = (text) => JSON.stringify(text);

// A repository with the ordinary goals.md of the boot fixtures, `files` written and committed,
// and progress.yaml / goals.md replaced by what the case needs.
function repoWith({ files = {}, progress, goals }) {
  const repo = mkdtempSync(join(tmpdir(), 'agent-state-bench-scale-'));
  dirs.push(repo);
  const write = (path, text) => {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  };
  const git = (...args) =>
    execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.com', ...args], {
      cwd: repo,
    });
  git('init', '-q', '-b', 'main');
  write('package.json', '{ "name": "todo-api" }\n');
  for (const [path, text] of Object.entries(files)) write(path, text);
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  execFileSync(process.execPath, [BIN, 'init', '-q'], { cwd: repo });
  write('.agent/state/goals.md', goals ?? readFileSync(join(ROOT, 'test/fixtures/boot/goals.md')));
  // A high threshold keeps repeated real boots at the same level (no restart loop).
  write('.agent/config.yaml', 'version: 1\nboot:\n  stall_threshold: 1000000\n');
  if (progress) write('.agent/state/progress.yaml', progress);
  return repo;
}

function progressYaml({ plan = [], markers = {}, working = [] }) {
  const lines = [
    'version: 1',
    'revision: 1',
    'stage: implementing',
    'next_action: "Implement page and limit in src/routes/todos.js"',
  ];
  lines.push(plan.length ? 'plan:' : 'plan: []');
  for (const item of plan)
    lines.push(
      `  - id: ${item.id}`,
      `    title: ${quote(item.title)}`,
      `    status: ${item.status}`,
    );
  const ids = Object.keys(markers);
  lines.push(ids.length ? 'markers:' : 'markers: {}');
  for (const id of ids) {
    lines.push(`  ${id}:`, `    at: "${AT}"`, '    files:');
    for (const [path, hash] of Object.entries(markers[id])) lines.push(`      ${path}: "${hash}"`);
  }
  lines.push('memory:', '  durable: []', working.length ? '  working:' : '  working: []');
  for (const note of working) lines.push(`    - ${quote(note)}`);
  return `${lines.join('\n')}\n`;
}

// One timed run of the CLI: ms, or TIMEOUT_MS when it had to be stopped. A run that fails (or
// a hook that injects nothing) stops the bench: a fast wrong answer is not a figure.
function timed(args, cwd, input = '', ok = () => true) {
  return () => {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, args, {
      cwd,
      input,
      encoding: 'utf8',
      timeout: TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.signal) return TIMEOUT_MS;
    if (result.status !== 0 || !ok(result.stdout))
      throw new Error(
        `${args.slice(1).join(' ')} in ${cwd} exited ${result.status}: ${result.stderr}`,
      );
    return ms;
  };
}

const title = (i) => `Step ${i}: paginate page ${i}`;
const sha = (text) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

const CASES = {
  // The torture run's worst plan: most of it done (those collapse first), the rest pending.
  plan: () =>
    repoWith({
      progress: progressYaml({
        plan: Array.from({ length: 10_000 }, (_, i) => ({
          id: `t${i + 1}`,
          title: title(i + 1),
          status: i < 8_000 ? 'done' : 'pending',
        })),
      }),
    }),
  notes: () =>
    repoWith({
      progress: progressYaml({
        plan: [{ id: 't1', title: title(1), status: 'running' }],
        working: Array.from({ length: 20_000 }, (_, i) => `Note ${i}: todos.js reads limit twice`),
      }),
    }),
  // Every marker covers a real committed file, so each is hashed and found valid.
  markers: () => {
    const files = {};
    const markers = {};
    const plan = [];
    for (let i = 1; i <= 3_000; i++) {
      const path = `src/m/f${i}.js`;
      files[path] = `export const v${i} = ${i};\n`;
      markers[`t${i}`] = { [path]: sha(files[path]) };
      plan.push({ id: `t${i}`, title: title(i), status: 'done' });
    }
    plan.push({ id: 't3001', title: title(3001), status: 'running' });
    return repoWith({ files, progress: progressYaml({ plan, markers }) });
  },
  // One unbroken 1 MB line (a pasted blob) in a Success criteria bullet.
  goals: () => {
    const goals = readFileSync(join(ROOT, 'test/fixtures/boot/goals.md'), 'utf8').replace(
      '## Success criteria\n\n',
      `## Success criteria\n\n- ${'a'.repeat(1_000_000)}\n`,
    );
    return repoWith({
      goals,
      progress: progressYaml({ plan: [{ id: 't1', title: title(1), status: 'running' }] }),
    });
  },
};

try {
  const ordinary = repoWith({
    progress: progressYaml({
      plan: Array.from({ length: 12 }, (_, i) => ({
        id: `t${i + 1}`,
        title: title(i + 1),
        status: i < 3 ? 'done' : i === 3 ? 'running' : 'pending',
      })),
      working: ['limit defaults to 50 in the old code path'],
    }),
  });
  const boot = (cwd) => timed([BIN, 'boot'], cwd);
  const cases = { ordinary: boot(ordinary) };
  const repos = {};
  for (const [name, build] of Object.entries(CASES)) {
    if (only && !only.includes(name) && !(name === 'plan' && only.includes('hook'))) continue;
    repos[name] = build();
    if (!only || only.includes(name)) {
      cases[name] = boot(repos[name]);
      cases[`${name}Dry`] = timed([BIN, 'boot', '--dry-run'], repos[name]);
    }
  }
  if (repos.plan && (!only || only.includes('hook'))) {
    const payload = JSON.stringify({
      session_id: 'bench',
      transcript_path: join(repos.plan, 'transcript.jsonl'),
      cwd: repos.plan,
      hook_event_name: 'SessionStart',
      source: 'compact',
      model: 'claude-sonnet-4-6',
    });
    cases.hook = timed([BIN, 'hook', 'claude'], repos.plan, payload, (stdout) =>
      /additionalContext/.test(stdout),
    );
  }
  const medians = interleave(cases, { runs, warmup: 1 });
  console.log(`agent-state boot on large tasks (${runs} interleaved runs, medians)`);
  console.log(`ordinary boot: ${medians.ordinary.toFixed(0)} ms`);
  const labels = {
    plan: 'boot, 10,000-item plan (8,000 done)',
    notes: 'boot, 20,000 working notes',
    markers: 'boot, 3,000 markers (3,000 files hashed)',
    goals: 'boot, goals.md with a 1 MB line',
    hook: 'hook claude SessionStart(compact), 10,000-item plan',
  };
  // The same boots without the stamp they write into progress.yaml (--dry-run reads only).
  for (const name of ['plan', 'notes', 'markers', 'goals'])
    labels[`${name}Dry`] = `${labels[name].replace('boot,', 'boot --dry-run,')}`;
  let failed = false;
  for (const name of Object.keys(labels)) {
    if (medians[name] === undefined) continue;
    report(`${labels[name]} / ordinary boot`, medians[name], medians.ordinary);
    const ok = medians[name] <= LIMIT_MS;
    const figure = medians[name] >= TIMEOUT_MS ? `> ${TIMEOUT_MS}` : medians[name].toFixed(0);
    console.log(`  ${figure} ms (target ≤ ${LIMIT_MS} ms) ${ok ? 'PASS' : 'FAIL'}`);
    failed ||= !ok;
  }
  process.exitCode = failed ? 1 : 0;
} finally {
  if (process.argv.includes('--keep')) console.log(`kept: ${dirs.join(' ')}`);
  else for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
