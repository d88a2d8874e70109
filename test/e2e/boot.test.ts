// `boot`, `remind`, `memory` and `current` end to end: the CLI on real temp repositories.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseProgress } from '../../src/state/progress.js';
import type { Progress } from '../../src/types.js';
import { BIN, git, gitdir, runCli } from '../helpers/fixtures.js';

const PROGRESS = '.agent/state/progress.yaml';
const plain = (text: string) => countTokens(text, { disallowedSpecial: new Set() });

function progressOf(repo: string): Progress {
  const parsed = parseProgress(readFileSync(join(repo, PROGRESS), 'utf8'), 'progress.yaml');
  expect(parsed.problems).toEqual([]);
  return parsed.value!;
}

async function ok(repo: string, args: string[]): Promise<string> {
  const result = await runCli(repo, args);
  expect(result.stderr, args.join(' ')).toBe('');
  expect(result.code, args.join(' ')).toBe(0);
  return result.stdout;
}

async function task(): Promise<string> {
  const repo = gitdir({ 'src/routes/todos.js': 'export const list = () => [];\n' });
  await ok(repo, [
    'init',
    '--goal',
    'Add pagination to GET /todos without changing the storage layer',
  ]);
  writeFileSync(
    join(repo, '.agent/state/goals.md'),
    readFileSync(join(import.meta.dirname, '..', 'fixtures', 'boot', 'goals.md'), 'utf8'),
  );
  await ok(repo, ['plan', 'add', 'Write a failing test for ?page and ?limit', '--id', 't1']);
  await ok(repo, ['plan', 'add', 'Implement pagination in the route handler', '--id', 't2']);
  await ok(repo, ['plan', 'start', 't1']);
  await ok(repo, [
    'next',
    'Add test/pagination.test.js covering page=2&limit=10',
    '--stage',
    'implementing',
  ]);
  return repo;
}

describe('boot', () => {
  let repo: string;
  beforeAll(async () => {
    repo = await task();
  });

  it('prints the prompt and stamps the boot; --dry-run changes no byte', async () => {
    const before = readFileSync(join(repo, PROGRESS));
    const dry = await ok(repo, ['boot', '--dry-run']);
    expect(readFileSync(join(repo, PROGRESS))).toEqual(before);
    expect(dry).toMatch(
      /^# agent-state boot · level 2 \(restore\) · role execution · \d+\/12000 tokens\n/,
    );
    expect(dry).toContain(
      '## Goal\nAdd pagination to GET /todos without changing the storage layer.',
    );
    const out = await ok(repo, ['boot']);
    expect(out).toBe(dry);
    // A boot writes no committed file: the counters are local (.agent/log/recovery.json).
    expect(readFileSync(join(repo, PROGRESS))).toEqual(before);
    const after = JSON.parse(readFileSync(join(repo, '.agent/log/recovery.json'), 'utf8'));
    expect(after).toMatchObject({ boots: 1, stalled_boots: 1, recovery_level: 2 });
    expect(Date.parse(after.last_boot)).toBeGreaterThan(Date.now() - 60_000);
    expect(progressOf(repo).stamp).not.toHaveProperty('boots');
  });

  it('--json: the total is gpt-tokenizer’s o200k count of the printed text', async () => {
    const doc = JSON.parse(await ok(repo, ['boot', '--dry-run', '--json', '--level', '3']));
    expect(doc.tokens.total).toBe(plain(doc.text));
    expect(doc).toMatchObject({
      level: 3,
      level_name: 'rebuild',
      format: 'markdown',
      dry_run: true,
    });
    expect(doc.sections.map((s: { key: string }) => s.key).slice(0, 4)).toEqual([
      'header',
      'goal',
      'forbidden',
      'constraints',
    ]);
    const printed = await ok(repo, ['boot', '--dry-run', '--level', '3']);
    expect(plain(printed)).toBe(doc.tokens.total);
    const xml = await ok(repo, ['boot', '--dry-run', '--format', 'xml', '--level', '1']);
    expect(xml).toMatch(/^<agent-boot level="1" name="resume" role="execution">\n<header>/);
    expect(xml.trimEnd().endsWith('</agent-boot>')).toBe(true);
    const asJson = JSON.parse(await ok(repo, ['boot', '--dry-run', '--format', 'json']));
    expect(asJson.format).toBe('json');
    expect(asJson.tokens.total).toBe(plain(asJson.text));
  });

  it('--fast estimates without the tokenizer and says so', async () => {
    const doc = JSON.parse(await ok(repo, ['boot', '--dry-run', '--fast', '--json']));
    expect(doc.tokens.counter).toBe('heuristic');
  });

  it('respects --budget, cutting and saying what it cut', async () => {
    const full = JSON.parse(await ok(repo, ['boot', '--dry-run', '--json'])).tokens.total;
    const budget = String(full - 40);
    const doc = JSON.parse(await ok(repo, ['boot', '--dry-run', '--json', '--budget', budget]));
    expect(doc.tokens.total).toBeLessThanOrEqual(full - 40);
    expect(doc.omitted.length).toBeGreaterThan(0);
    expect(doc.text.split('\n')[0]).toContain('omitted');
  });

  it('refuses bad options with exit 2 and leaves the state alone', async () => {
    const before = readFileSync(join(repo, PROGRESS));
    for (const args of [
      ['--level', '4'],
      ['--budget', 'lots'],
      ['--budget', '0'],
      ['--format', 'yaml'],
      ['--role', 'boss'],
      ['--source', 'reboot'],
    ]) {
      const result = await runCli(repo, ['boot', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^agent-state: .+\n$/);
    }
    expect(readFileSync(join(repo, PROGRESS))).toEqual(before);
  });

  it("documents in --help exactly the options the lean parser takes, and refuses in commander's words", async () => {
    const help = await runCli(repo, ['boot', '--help']);
    expect(help.code).toBe(0);
    for (const option of [
      '--level <level>',
      '--budget <tokens>',
      '--format <format>',
      '--role <role>',
      '--source <source>',
      '--dry-run',
      '--fast',
    ])
      expect(help.stdout).toContain(option);
    expect(help.stdout).toContain('Examples:');
    const bad = await runCli(repo, ['boot', '--role', 'boss']);
    expect(bad.stderr).toBe(
      "agent-state: option '--role <role>' argument 'boss' is invalid. Allowed choices are execution, planning, review, recovery. (fix: see `agent-state --help` or `agent-state <command> --help`)\n",
    );
  });

  it('--role prints that role’s directive, and only that one', async () => {
    const directives = {
      planning: 'Role planning: revise the plan against the goal',
      recovery: 'Role recovery: reconcile the drift and the stale markers with the plan',
      execution: 'Role execution: act on the next action, within the current step’s limits',
    };
    for (const [role, directive] of Object.entries(directives)) {
      const out = await ok(repo, ['boot', '--dry-run', '--role', role]);
      expect(out.split('\n')[0], role).toMatch(new RegExp(` · role ${role} · `));
      expect(out, role).toContain(directive);
      for (const [other, text] of Object.entries(directives))
        if (other !== role) expect(out, `${role} shows ${other}`).not.toContain(text);
      const doc = JSON.parse(await ok(repo, ['boot', '--dry-run', '--json', '--role', role]));
      expect(doc.role).toBe(role);
    }
    // Without --role: execution.
    expect(await ok(repo, ['boot', '--dry-run'])).toContain(directives.execution);
  });

  it('honours boot.level and budget.total from config.yaml when no flag is given', async () => {
    const own = await task();
    const config = join(own, '.agent', 'config.yaml');
    const defaults = JSON.parse(await ok(own, ['boot', '--dry-run', '--json']));
    expect([defaults.level, defaults.tokens.budget]).toEqual([2, 12000]);
    const text = readFileSync(config, 'utf8');
    const edited = text
      .replace(/\n {2}level: auto\n/, '\n  level: 1\n')
      .replace(/\n {2}total: 12000\n/, '\n  total: 700\n');
    expect(edited.match(/\n {2}(level: 1|total: 700)\n/g)).toHaveLength(2);
    writeFileSync(config, edited);

    const doc = JSON.parse(await ok(own, ['boot', '--dry-run', '--json']));
    expect(doc).toMatchObject({ level: 1, level_name: 'resume', requested_level: 1 });
    expect(doc.tokens.budget).toBe(700);
    expect(doc.tokens.total).toBeLessThanOrEqual(700);
    expect(await ok(own, ['boot', '--dry-run'])).toMatch(
      /^# agent-state boot · level 1 \(resume\) · role execution · \d+\/700 tokens/,
    );
    // Flags still win over the config.
    const flagged = JSON.parse(
      await ok(own, ['boot', '--dry-run', '--json', '--level', '3', '--budget', '900']),
    );
    expect([flagged.level, flagged.tokens.budget]).toEqual([3, 900]);
  });

  // The fingerprint's `git status` says what HEAD is, even that there is none yet: a boot asks
  // git nothing more (each run costs a session start a process).
  it('runs git once in a repository without commits', async () => {
    const repo = gitdir({});
    await ok(repo, ['init', '-q', '--goal', 'Count the git runs']);
    const trace = join(repo, '..', `git-trace-${process.pid}.txt`);
    const result = await runCli(repo, ['boot', '--level', '2', '--fast'], {
      env: { GIT_TRACE: trace },
    });
    expect(result.code, result.stderr).toBe(0);
    const runs = readFileSync(trace, 'utf8').match(/trace: built-in: git \w[\w-]*/g);
    expect(runs).toEqual(['trace: built-in: git status']);
  });

  it('exits 3 outside an initialized repository', async () => {
    const result = await runCli(gitdir(), ['boot']);
    expect(result.code).toBe(3);
  });
});

describe('reminders', () => {
  it('four boots started at the same moment show a reminder exactly once between them', async () => {
    const repo = await task();
    await ok(repo, ['remind', 'Ask the user about the maximum page size before merging']);
    await ok(repo, ['remind', 'Keep the old default of 50']);
    expect(JSON.parse(await ok(repo, ['remind', '--json'])).reminders).toHaveLength(2);
    const boots = await Promise.all(
      Array.from(
        { length: 4 },
        () =>
          new Promise<string>((resolve, reject) => {
            const child = spawn(process.execPath, [BIN, 'boot', '--fast'], {
              cwd: repo,
              env: { ...process.env, NO_COLOR: '1' },
            });
            let out = '';
            child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
            child.on('error', reject);
            child.on('close', (code) =>
              code === 0 ? resolve(out) : reject(new Error(`boot exited ${code}`)),
            );
          }),
      ),
    );
    const shown = boots.filter((out) => out.includes('Ask the user about the maximum page size'));
    expect(shown).toHaveLength(1);
    expect(shown[0]).toContain('- Keep the old default of 50');
    expect(boots.filter((out) => out.includes('Keep the old default'))).toHaveLength(1);
    // The boots wrote no committed file: the shown reminders leave progress.yaml with its next write.
    expect(progressOf(repo).reminders).toHaveLength(2);
    expect(JSON.parse(readFileSync(join(repo, '.agent/log/recovery.json'), 'utf8')).boots).toBe(4);
    // Each real boot is a fact in the event log (the status bar counts them); dry runs are not.
    await ok(repo, ['boot', '--dry-run', '--fast']);
    const logged = JSON.parse(await ok(repo, ['events', '--type', 'boot', '--json'])).events;
    // Nothing moved between them: the third and fourth are a restart loop, and auto rebuilds. Each
    // boot is counted under the state lock but logged after it, so the log may hold them in
    // another order than they were counted.
    const counted = (logged as { level: number; stalled: number }[])
      .map((e) => [e.stalled, e.level])
      .sort((a, b) => a[0]! - b[0]!);
    expect(counted).toEqual([
      [1, 2],
      [2, 2],
      [3, 3],
      [4, 3],
    ]);
    expect(await ok(repo, ['boot', '--fast'])).not.toContain('Reminders');
    await ok(repo, ['next', 'Ask about the page size']);
    expect(progressOf(repo).reminders).toEqual([]);
  }, 60_000);

  it('a dry run shows the reminders without consuming them; an empty reminder is refused', async () => {
    const repo = await task();
    await ok(repo, ['remind', 'Rebase before the review']);
    expect(await ok(repo, ['boot', '--dry-run', '--fast'])).toContain(
      '## Reminders (shown once)\n- Rebase before the review (queued just now)',
    );
    expect(progressOf(repo).reminders).toHaveLength(1);
    const result = await runCli(repo, ['remind', '   ']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the reminder is empty');
  });
});

describe('stale markers', () => {
  it('make auto choose level 3 and name the stale files', async () => {
    const repo = await task();
    const file = join(repo, 'src/routes/todos.js');
    await ok(repo, ['done', 't1', '--files', 'src/routes/todos.js']);
    let doc = JSON.parse(await ok(repo, ['boot', '--dry-run', '--json']));
    expect(doc.level).toBe(2);
    expect(doc.text).toContain(
      '- [x] t1 Write a failing test for ?page and ?limit — done, verified',
    );
    writeFileSync(file, 'export const list = (page) => [];\n');
    // No host hooks record anything here: nothing says whose the change is, and that is no
    // reason for a rebuild.
    doc = JSON.parse(await ok(repo, ['boot', '--dry-run', '--json']));
    expect(doc.level).toBe(2);
    expect(doc.level_reason).toBe(
      'auto: no checkpoint yet to compare with, no restart loop; stale from unrecorded changes: t1',
    );
    expect(doc.text).toContain('STALE t1: src/routes/todos.js changed (unrecorded)');
    // Once a host's hooks record the agent's tool calls, a change none of them explains is
    // someone else's.
    await ok(repo, ['event', 'tool.finished', '--field', 'name=Read']);
    doc = JSON.parse(await ok(repo, ['boot', '--json']));
    expect(doc.level).toBe(3);
    expect(doc.stale_markers).toEqual(['t1']);
    expect(doc.level_reason).toBe(
      'auto: t1 is stale from a change no recorded edit of yours explains (src/routes/todos.js)',
    );
    expect(doc.text).toContain(
      'STALE t1: src/routes/todos.js changed (not your edit) — re-check t1 (`agent-state check t1`)',
    );
    expect(doc.text).toContain(
      'done, STALE: src/routes/todos.js changed — re-check before relying on it',
    );
    expect(JSON.parse(readFileSync(join(repo, '.agent/log/recovery.json'), 'utf8'))).toMatchObject({
      recovery_level: 3,
    });
    // Once the agent's own edit is on record, the stale step is named, and no rebuild is asked.
    await ok(repo, ['event', 'file.modified', '--field', 'path=src/routes/todos.js']);
    doc = JSON.parse(await ok(repo, ['boot', '--dry-run', '--json']));
    expect(doc.level).toBe(2);
    expect(doc.level_reason).toBe(
      'auto: no checkpoint yet to compare with, no restart loop; your uncheckpointed changes: 1 file; stale from your own edits: t1',
    );
    expect(doc.text).toContain('STALE t1: src/routes/todos.js changed (your edit)');
    expect(doc.text).not.toContain('a full rescan');
  });
});

describe('memory', () => {
  it('adds, lists, promotes and drops notes', async () => {
    const repo = await task();
    expect(
      JSON.parse(await ok(repo, ['memory', 'add', 'limit defaults to 50', '--json'])),
    ).toMatchObject({
      note: { kind: 'working', index: 1, label: 'w1', text: 'limit defaults to 50' },
    });
    await ok(repo, ['memory', 'add', 'Handlers live in src/routes/', '--durable']);
    await ok(repo, ['memory', 'add', 'The seed data has 137 todos']);
    expect(await ok(repo, ['memory', 'list'])).toBe(
      'Durable\n  d1  Handlers live in src/routes/\nWorking\n  w1  limit defaults to 50\n  w2  The seed data has 137 todos\n',
    );
    expect(await ok(repo, ['memory', 'promote', '2'])).toBe(
      'Promoted to d2 (durable): The seed data has 137 todos\n',
    );
    expect(await ok(repo, ['memory', 'drop', 'w1'])).toBe('Dropped w1: limit defaults to 50\n');
    expect(JSON.parse(await ok(repo, ['memory', 'list', '--json']))).toEqual({
      durable: ['Handlers live in src/routes/', 'The seed data has 137 todos'],
      working: [],
    });
    const before = readFileSync(join(repo, PROGRESS));
    for (const [args, message] of [
      [['memory', 'promote', 'd1'], 'd1 is already durable'],
      [['memory', 'drop', 'w4'], 'no memory note w4'],
      [['memory', 'drop', 'x'], '"x" is not a memory note number'],
      [['memory', 'add', ''], 'the note is empty'],
    ] as const) {
      const result = await runCli(repo, [...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
    }
    expect(readFileSync(join(repo, PROGRESS))).toEqual(before);
  });
});

describe('current', () => {
  it('sets, shows and clears the current step; boot shows it', async () => {
    const repo = await task();
    const set = JSON.parse(
      await ok(repo, [
        'current',
        '--expected',
        'page=2&limit=10 returns items 11-20',
        '--deny-tools',
        'WebFetch,WebSearch',
        '--scope',
        'src/routes/**',
        'test/**',
        '--constraint',
        'No storage calls',
        '--json',
      ]),
    );
    expect(set).toMatchObject({
      changed: true,
      current_step: {
        id: 't1',
        objective: 'Write a failing test for ?page and ?limit',
        expected_output: 'page=2&limit=10 returns items 11-20',
        denied_tools: ['WebFetch', 'WebSearch'],
        file_scopes: ['src/routes/**', 'test/**'],
        constraints: ['No storage calls'],
      },
    });
    expect(await ok(repo, ['boot', '--dry-run', '--level', '1', '--fast'])).toContain(
      '## Current step\nt1 — Write a failing test for ?page and ?limit\n- Done when: page=2&limit=10 returns items 11-20\n- Denied tools: WebFetch, WebSearch\n- May modify only: `src/routes/**`, `test/**`\n- Step constraint: No storage calls',
    );
    await ok(repo, ['current', '--deny-tools', '']);
    expect(
      JSON.parse(await ok(repo, ['current', '--json'])).current_step.denied_tools,
    ).toBeUndefined();
    const before = readFileSync(join(repo, PROGRESS));
    for (const args of [
      ['--scope', '../outside/**'],
      ['--scope', '/etc/**'],
      ['--allow-tools', 'Bash', '--deny-tools', 'Bash'],
    ]) {
      const result = await runCli(repo, ['current', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
    }
    expect(readFileSync(join(repo, PROGRESS))).toEqual(before);
    expect(JSON.parse(await ok(repo, ['current', '--clear', '--json'])).current_step).toBeNull();
  });
});

describe('next-action history', () => {
  it('keeps the last five next actions in the stamp, whoever sets them', async () => {
    const repo = await task();
    for (const n of [1, 2, 3, 4, 5, 6]) await ok(repo, ['next', `Step ${n}`]);
    await ok(repo, ['next', 'Step 6']);
    const history = progressOf(repo).stamp!.recent_next_actions!;
    expect(history.map((h) => h.text)).toEqual(['Step 2', 'Step 3', 'Step 4', 'Step 5', 'Step 6']);
  });
});

describe('drift', () => {
  it('after a checkpoint, new commits and edits make auto rebuild and report them', async () => {
    const repo = await task();
    await ok(repo, ['done', 't1', '--files', 'src/routes/todos.js']);
    // `--commit` commits .agent/state, and changes to .agent/ are never drift.
    await ok(repo, ['checkpoint', '-m', 'First step', '--no-test', '--commit']);
    let doc = JSON.parse(await ok(repo, ['boot', '--dry-run', '--json']));
    expect(doc.level).toBe(2);
    expect(doc.drifted).toBe(false);
    // A host's hooks record the agent's tool calls here.
    await ok(repo, ['event', 'tool.finished', '--field', 'name=Read']);
    writeFileSync(join(repo, 'README.md'), '# todo-api\n');
    git(repo, 'add', 'README.md');
    git(repo, 'commit', '-qm', 'Write the README');
    writeFileSync(join(repo, 'src/routes/other.js'), 'export {};\n');
    doc = JSON.parse(await ok(repo, ['boot', '--json']));
    expect(doc.level).toBe(3);
    expect(doc.drifted).toBe(true);
    expect(doc.foreign_drift).toBe(true);
    // The commit was made in this worktree (its reflog says so): the agent's own. The new file
    // no recorded fact explains.
    expect(doc.level_reason).toBe(
      'auto: 1 file changed that no recorded edit of yours explains (src/routes/other.js); your uncheckpointed changes: 1 file and 1 commit',
    );
    expect(doc.own_changes).toEqual({
      files: ['README.md'],
      commits: [expect.stringMatching(/^[0-9a-f]{7}$/)],
    });
    const drift = doc.sections.find((s: { key: string }) => s.key === 'drift').text;
    expect(drift).toContain('- src/routes/other.js (added, no recorded edit of yours)');
    expect(drift).not.toContain('Write the README');
    const own = doc.sections.find((s: { key: string }) => s.key === 'own-changes').text;
    expect(own).toMatch(/1 file \(README\.md\) and 1 commit \([0-9a-f]{7} Write the README\)/);
  });
});
