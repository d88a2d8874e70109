// `agent-state import` through the real bin, on each tool's real files (test/fixtures/import):
// a dry run writes no byte under .agent/, the import keeps titles, statuses, needs and source
// ids, a second import changes nothing, and broken input exits 2 with file:line, writing nothing.
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cli } from '../helpers/agents.js';
import { REPO_ROOT, gitdir, runCli, writeFiles } from '../helpers/fixtures.js';
import type { PlanItem, Progress } from '../../src/types.js';

const FIXTURES = join(REPO_ROOT, 'test/fixtures/import');

// Every file under .agent/, by path, with its bytes.
function snapshot(repo: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(repo, path)] = readFileSync(path).toString('base64');
    }
  };
  walk(join(repo, '.agent'));
  return files;
}

async function repoWith(fixture: string, goal?: string): Promise<string> {
  const repo = gitdir();
  await cli(repo, ['init', ...(goal ? ['--goal', goal] : [])]);
  cpSync(join(FIXTURES, fixture), repo, { recursive: true });
  return repo;
}

const progress = (repo: string) =>
  parse(readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8')) as Progress;
// Plan ids are agent-state's to choose: tests find items by their source.
const idOf = (repo: string) => {
  const ids = new Map(progress(repo).plan!.map((i) => [i.source, i.id]));
  return (source: string) => ids.get(source)!;
};

interface Imported {
  dry_run: boolean;
  changed: boolean;
  added: PlanItem[];
  unchanged: string[];
  goal: { action: string; text: string | null };
  next_action: { action: string; text: string | null };
  memory: { durable: string[]; working: string[] };
  warnings: string[];
}

async function importJson(repo: string, args: string[]): Promise<Imported> {
  const result = await runCli(repo, ['--json', 'import', ...args]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Imported;
}

const CASES: { format: string; fixture: string; items: number; ready: string[] }[] = [
  { format: 'taskmaster', fixture: 'taskmaster/tagged', items: 9, ready: ['taskmaster#3.2'] },
  {
    format: 'beads',
    fixture: 'beads',
    items: 22,
    ready: ['beads#bd-wisp-3tmpl', 'beads#bd-wisp-y7xh7'],
  },
  { format: 'gsd', fixture: 'gsd', items: 8, ready: ['gsd#02-01', 'gsd#02-02', 'gsd#03-01'] },
  {
    format: 'memory-bank',
    fixture: 'memory-bank',
    items: 22,
    ready: [
      'multiple-origin-support',
      'currency-conversion',
      'advanced-cost-adjustments',
      'interactive-mode',
      'visualization',
      'reporting',
      'expanded-test-suite',
      'documentation',
      'refactoring',
    ].map((s) => `memory-bank#${s}`),
  },
  {
    format: 'spec-kit',
    fixture: 'spec-kit',
    items: 40,
    ready: ['spec-kit#003-apply-fluent-paradigms/T017', 'spec-kit#003-apply-fluent-paradigms/T026'],
  },
];

describe.each(CASES)('import $format', ({ format, fixture, items, ready }) => {
  it('dry run writes nothing; the import keeps statuses, needs and sources; a second import is a no-op', async () => {
    const repo = await repoWith(fixture);
    const before = snapshot(repo);
    const dry = await importJson(repo, [format, '--dry-run']);
    expect(dry).toMatchObject({ dry_run: true, changed: true });
    expect(dry.added).toHaveLength(items);
    expect(snapshot(repo)).toEqual(before);

    const done = await importJson(repo, [format]);
    expect(done).toMatchObject({ dry_run: false, changed: true });
    expect(done.added).toEqual(dry.added);
    const plan = progress(repo).plan!;
    expect(plan).toEqual(done.added);
    // Every need points at an item of the plan.
    const ids = new Set(plan.map((i) => i.id));
    expect(plan.flatMap((i) => i.depends_on ?? []).every((id) => ids.has(id))).toBe(true);
    const readyNow = JSON.parse((await runCli(repo, ['--json', 'plan', 'ready'])).stdout) as {
      ready: PlanItem[];
    };
    expect(readyNow.ready.map((i) => i.source)).toEqual(ready);
    expect((await runCli(repo, ['validate'])).code).toBe(0);

    const after = snapshot(repo);
    const again = await importJson(repo, [format]);
    expect(again).toMatchObject({ changed: false, added: [] });
    expect(again.unchanged).toHaveLength(items);
    expect(again.goal.action).not.toBe('set');
    expect(again.next_action.action).not.toBe('set');
    expect(again.memory).toEqual({ durable: [], working: [] });
    expect(snapshot(repo)).toEqual(after);
  });
});

describe('import, the rest', () => {
  it('fills an empty goal and next action, keeps ones already set, and adds memory once', async () => {
    const repo = await repoWith('gsd');
    const first = await importJson(repo, ['gsd']);
    expect(first.goal).toEqual({
      action: 'set',
      text: 'Saving a link and finding it again must take under a second, offline.',
    });
    expect(first.next_action).toEqual({
      action: 'set',
      text: 'Phase 2 planned; next: execute 02-01 FTS5 index',
    });
    expect(first.memory.durable).toHaveLength(2);
    expect((await runCli(repo, ['goal'])).stdout).toBe(
      'Saving a link and finding it again must take under a second, offline.\n',
    );
    const boot = (await runCli(repo, ['boot', '--level', '2'])).stdout;
    const id = idOf(repo);
    expect(boot).toContain('Phase 2 planned; next: execute 02-01 FTS5 index');
    expect(boot).toContain(
      `Ready to start: ${id('gsd#02-01')} FTS5 index and the find command · ${id('gsd#02-02')} Benchmark with 10k links · ${id('gsd#03-01')} HTML export parser and import command`,
    );
    expect(boot).toContain('Store tags in a join table');

    const other = await repoWith('gsd', 'Ship Markbook 1.0');
    await cli(other, ['next', 'Review the roadmap first']);
    const kept = await runCli(other, ['import', 'gsd']);
    expect(kept.stdout).toContain(
      'goal: kept, not replaced by "Saving a link and finding it again must take under a second, offline."',
    );
    expect(kept.stdout).toContain('next action: kept, not replaced by');
    expect((await runCli(other, ['goal'])).stdout).toBe('Ship Markbook 1.0\n');
  });

  it('imports as a named agent: the plan and durable memory shared, its next action and notes its own', async () => {
    const repo = await repoWith('gsd');
    const result = await runCli(repo, ['--json', '--agent', 'alice', 'import', 'gsd']);
    expect(result.code, result.stderr).toBe(0);
    const added = (JSON.parse(result.stdout) as Imported).added;
    const shared = progress(repo);
    expect(shared.plan).toEqual(added);
    expect(shared.memory!.durable).toHaveLength(2);
    expect(shared.next_action).toBe('');
    const own = parse(
      readFileSync(join(repo, '.agent/state/agents/alice/progress.yaml'), 'utf8'),
    ) as Progress;
    expect(own).toMatchObject({
      next_action: 'Phase 2 planned; next: execute 02-01 FTS5 index',
      memory: { working: ['Phase 2: trigram tokenizer needs SQLite 3.34 or newer'] },
    });
    expect((await runCli(repo, ['validate'])).code).toBe(0);
  });

  it('prints what it did, and what a dry run would do', async () => {
    const repo = await repoWith('taskmaster/legacy');
    const dry = await runCli(repo, ['import', 'taskmaster', '--dry-run']);
    await cli(repo, ['import', 'taskmaster']);
    const id = idOf(repo);
    const tm = (n: string) => id(`taskmaster#${n}`);
    expect(dry.stdout).toBe(
      [
        'Would import from taskmaster: .taskmaster/tasks/tasks.json',
        `  + [x] ${tm('1')} Parse the legacy config file taskmaster#1`,
        `  + [>] ${tm('2')} Map old keys to the new schema (after ${tm('1')}) taskmaster#2`,
        `  + [ ] ${tm('3')} Write the migration command (after ${['1', '2', '3.1', '3.2', '3.3'].map(tm).join(', ')}) taskmaster#3`,
        `  + [x] ${tm('3.1')} Dry-run output (after ${tm('1')}, ${tm('2')}) taskmaster#3.1`,
        `  + [ ] ${tm('3.2')} Backup of the old file (after ${tm('3.1')}) taskmaster#3.2`,
        `  + [ ] ${tm('3.3')} End-to-end test on three real configs (after ${tm('3.1')}, ${tm('3.2')}) taskmaster#3.3`,
        `  + [!] ${tm('4')} Remove the INI reader (after ${tm('3')}) taskmaster#4`,
        '(dry run: nothing was written)',
        '',
      ].join('\n'),
    );
    expect((await runCli(repo, ['import', 'taskmaster'])).stdout).toBe(
      'Imported from taskmaster: .taskmaster/tasks/tasks.json\n  = 7 items imported before, left as they are\nNothing new: nothing was written\n',
    );
  });

  it('adds only what is new when the source grew, needs pointing at items imported before', async () => {
    const repo = await repoWith('spec-kit');
    await cli(repo, ['import', 'spec-kit']);
    const id = (t: string) => idOf(repo)(`spec-kit#003-apply-fluent-paradigms/${t}`);
    await cli(repo, ['done', id('T017')]);
    const tasks = join(repo, 'specs/003-apply-fluent-paradigms/tasks.md');
    writeFileSync(
      tasks,
      readFileSync(tasks, 'utf8').replace(
        '## Dependencies (Story Order)',
        '- [ ] T045 Publish the release\n\n## Dependencies (Story Order)',
      ),
    );
    const grown = await importJson(repo, ['spec-kit']);
    expect(grown.added).toMatchObject([
      {
        title: 'Publish the release',
        depends_on: ['T027', 'T028', 'T029'].map(id),
        source: 'spec-kit#003-apply-fluent-paradigms/T045',
      },
    ]);
    // What was done here since the first import stays done.
    expect(progress(repo).plan!.find((i) => i.id === id('T017'))!.status).toBe('done');
  });

  it('finds the files from a folder or a file given as the path, and names several features', async () => {
    const repo = await repoWith('spec-kit');
    writeFiles(repo, { 'specs/004-more/tasks.md': '- [ ] T001 One more\n' });
    const several = await runCli(repo, ['import', 'spec-kit']);
    expect(several.code).toBe(2);
    expect(several.stderr).toBe(
      'agent-state: several spec-kit features under ./specs: 003-apply-fluent-paradigms, 004-more (fix: name one: agent-state import spec-kit specs/003-apply-fluent-paradigms)\n',
    );
    expect((await importJson(repo, ['spec-kit', 'specs/004-more'])).added).toMatchObject([
      { source: 'spec-kit#004-more/T001' },
    ]);
    const sub = join(repo, 'specs');
    const fromSub = await runCli(sub, [
      '--json',
      'import',
      'spec-kit',
      '003-apply-fluent-paradigms/tasks.md',
      '--dry-run',
    ]);
    expect(JSON.parse(fromSub.stdout).added).toHaveLength(40);
    const none = await runCli(repo, ['import', 'beads']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(
      'no beads files found at . (looked for .beads/issues.jsonl, issues.jsonl)',
    );
  });

  it('refuses broken input with exit 2 and file:line, before writing anything', async () => {
    const repo = await repoWith('beads');
    const jsonl = join(repo, '.beads/issues.jsonl');
    const lines = readFileSync(jsonl, 'utf8').split('\n');
    lines[15] = lines[15]!.replace('"status": "open"', '"status": "someday"');
    writeFileSync(jsonl, lines.join('\n'));
    const before = snapshot(repo);
    for (const args of [['beads'], ['beads', '--dry-run']]) {
      const result = await runCli(repo, ['import', ...args]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /^agent-state: \.beads\/issues\.jsonl:16: issue bd-wisp-\w+: status "someday" is not one of open, .*\(fix: /,
      );
    }
    expect(snapshot(repo)).toEqual(before);

    const template = await repoWith('spec-kit');
    const refused = await runCli(template, [
      '--json',
      'import',
      'spec-kit',
      join(FIXTURES, 'spec-kit/template'),
    ]);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout).error).toMatchObject({
      code: 'INVALID',
      message: 'expected a task id like T001 after the checkbox',
      line: 154,
    });

    const unknown = await runCli(template, ['import', 'jira']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      'Allowed choices are taskmaster, beads, gsd, memory-bank, spec-kit',
    );
  });

  it('refuses needs that go round in a circle, naming the sources', async () => {
    const repo = await repoWith('beads');
    writeFiles(repo, {
      '.beads/issues.jsonl': [
        '{"id":"c-1","title":"One","dependencies":[{"depends_on_id":"c-2","type":"blocks"}]}',
        '{"id":"c-2","title":"Two","dependencies":[{"depends_on_id":"c-1","type":"blocks"}]}',
      ].join('\n'),
    });
    const before = snapshot(repo);
    const result = await runCli(repo, ['import', 'beads']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'the needs in the files go round in a circle: beads#c-1 → beads#c-2 → beads#c-1',
    );
    expect(snapshot(repo)).toEqual(before);
  });
});
