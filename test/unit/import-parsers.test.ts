// The importers' parsers on real files of each tool (test/fixtures/import/*, see their NOTES.md):
// titles, statuses, needs and source ids kept; and broken input refused at file:line with what
// was expected.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBeads } from '../../src/import/beads.js';
import { parseGsd } from '../../src/import/gsd.js';
import type { ImportSource, Reader, TextFile } from '../../src/import/import-source.js';
import { parseMemoryBank } from '../../src/import/memory-bank.js';
import { parseSpecKit } from '../../src/import/spec-kit.js';
import { parseTaskmaster } from '../../src/import/taskmaster.js';
import { REPO_ROOT } from '../helpers/fixtures.js';

const FIXTURES = join(REPO_ROOT, 'test/fixtures/import');
const file = (path: string): TextFile => ({
  text: readFileSync(join(FIXTURES, path), 'utf8'),
  display: path,
});
const text = (display: string, text: string): TextFile => ({ text, display });
// The files of a fixture folder, with some replaced or left out (undefined).
const reader =
  (dir: string, replace: Record<string, string | undefined> = {}): Reader =>
  (name) =>
    name in replace
      ? replace[name] === undefined
        ? undefined
        : text(name, replace[name]!)
      : existsSync(join(FIXTURES, dir, name))
        ? file(`${dir}/${name}`)
        : undefined;
// source → "status title <- needs" for compact, complete assertions.
const table = (source: ImportSource) =>
  Object.fromEntries(
    source.items.map((i) => [
      i.source,
      `${i.status} ${i.title}${i.needs.length ? ` <- ${i.needs.join(' ')}` : ''}`,
    ]),
  );
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    const e = error as {
      code: string;
      message: string;
      location?: { file: string; line?: number };
    };
    return { code: e.code, at: `${e.location?.file}:${e.location?.line}`, message: e.message };
  }
  throw new Error('expected a refusal');
};

describe('taskmaster', () => {
  it('reads the tagged layout: the current tag, subtasks, string dependencies, every status', () => {
    const source = parseTaskmaster(
      file('taskmaster/tagged/.taskmaster/tasks/tasks.json'),
      file('taskmaster/tagged/.taskmaster/state.json'),
    );
    expect(table(source)).toEqual({
      'taskmaster#1': 'done Set up the CSV writer module',
      'taskmaster#2': 'running Define the report row schema <- taskmaster#1',
      'taskmaster#3':
        'running Add the /export endpoint <- taskmaster#1 taskmaster#2 taskmaster#3.1 taskmaster#3.2 taskmaster#3.3',
      'taskmaster#3.1': 'done Route and content negotiation <- taskmaster#1 taskmaster#2',
      'taskmaster#3.2': 'pending Stream rows from the database cursor <- taskmaster#3.1',
      'taskmaster#3.3': 'pending Integration test with a 100k-row report <- taskmaster#3.2',
      'taskmaster#4': 'pending Document the CSV export <- taskmaster#3',
      'taskmaster#5': 'skipped Excel compatibility <- taskmaster#1',
      'taskmaster#6': 'blocked Rate-limit exports <- taskmaster#3',
    });
    expect(source.warnings).toEqual([
      'tag "feature-auth" not imported: `task-master use-tag feature-auth`, then import again',
    ]);
  });

  it('reads another current tag, with the tag in its source ids', () => {
    const source = parseTaskmaster(
      file('taskmaster/tagged/.taskmaster/tasks/tasks.json'),
      text('state.json', '{"currentTag": "feature-auth"}'),
    );
    expect(table(source)).toEqual({
      'taskmaster#feature-auth/1': 'running Token check middleware',
      'taskmaster#feature-auth/2':
        "blocked Scope export to the token's tenant <- taskmaster#feature-auth/1",
    });
  });

  it('reads the legacy layout, where a subtask dependency without a dot is a sibling', () => {
    const source = parseTaskmaster(file('taskmaster/legacy/.taskmaster/tasks/tasks.json'));
    expect(table(source)).toEqual({
      'taskmaster#1': 'done Parse the legacy config file',
      'taskmaster#2': 'running Map old keys to the new schema <- taskmaster#1',
      'taskmaster#3':
        'pending Write the migration command <- taskmaster#1 taskmaster#2 taskmaster#3.1 taskmaster#3.2 taskmaster#3.3',
      'taskmaster#3.1': 'done Dry-run output <- taskmaster#1 taskmaster#2',
      'taskmaster#3.2': 'pending Backup of the old file <- taskmaster#3.1',
      'taskmaster#3.3':
        'pending End-to-end test on three real configs <- taskmaster#3.1 taskmaster#3.2',
      'taskmaster#4': 'blocked Remove the INI reader <- taskmaster#3',
    });
    expect(source.warnings).toEqual([]);
  });

  it('refuses broken JSON, an unknown status, a missing title and an unknown tag at their line', () => {
    expect(
      refusal(() => parseTaskmaster(text('t.json', '{\n  "tasks": [\n    {"id": 1,}\n  ]\n}\n'))),
    ).toMatchObject({
      code: 'INVALID',
      at: 't.json:3',
    });
    const tasks = (status: string, title = '"B"') =>
      `{\n  "tasks": [\n    {"id": 1, "title": "A", "status": "done"},\n    {"id": 2, "title": ${title}, "status": "${status}"}\n  ]\n}\n`;
    expect(refusal(() => parseTaskmaster(text('t.json', tasks('someday'))))).toEqual({
      code: 'INVALID',
      at: 't.json:4',
      message:
        'task 2: status "someday" is not one of pending, in-progress, review, done, completed, blocked, deferred, cancelled',
    });
    expect(refusal(() => parseTaskmaster(text('t.json', tasks('done', '""'))))).toMatchObject({
      at: 't.json:4',
      message: 'task 2: expected a title',
    });
    expect(
      refusal(() =>
        parseTaskmaster(
          text('t.json', '{"master": {"tasks": []}}'),
          text('s.json', '{"currentTag": "x"}'),
        ),
      ),
    ).toMatchObject({ at: 't.json:1', message: 'no tag "x" in tasks.json (its tags: master)' });
    expect(refusal(() => parseTaskmaster(text('t.json', '[1, 2]')))).toMatchObject({
      message: 'expected Task Master tasks: {"tasks": [...]} or {"master": {"tasks": [...]}}',
    });
  });
});

describe('beads', () => {
  it('reads issues with their statuses and blocking dependencies (not parent-child)', () => {
    const source = parseBeads(file('beads/.beads/issues.jsonl'));
    const t = table(source);
    expect(source.items).toHaveLength(22);
    expect(t['beads#bd-bvec']).toBe(
      'done Test coverage improvement initiative (47.8% → 65%) <- beads#bd-6sm6 beads#bd-9w3s beads#bd-a15d beads#bd-fx7v beads#bd-io8c beads#bd-llfl beads#bd-m8ro beads#bd-n386 beads#bd-sh4c beads#bd-thgk beads#bd-tvu3',
    );
    expect(t['beads#bd-wisp-3tmpl']).toBe('pending mol-refinery-patrol');
    expect(t['beads#bd-wisp-t7gxl']).toBe('pending Run test suite <- beads#bd-wisp-i27f2');
    expect(t['beads#bd-wisp-y7xh7']).toBe('pending Check refinery mail');
    expect(t['beads#bd-wisp-6awdl']).toBe('running mol-witness-patrol');
    expect(t['beads#bd-wisp-5xon7z']).toBe(
      'running Submit work and self-clean <- beads#bd-wisp-7k9ztg',
    );
  });

  it('takes memories as durable memory, skips tombstones, and refuses a bad line at its number', () => {
    const source = parseBeads(
      text(
        'i.jsonl',
        [
          '{"_type":"issue","id":"x-1","title":"One"}',
          '',
          '{"_type":"memory","key":"style","value":"tabs, not spaces"}',
          '{"id":"x-2","title":"Gone","status":"tombstone"}',
          '{"id":"x-3","title":"Three","status":"deferred","dependencies":[{"depends_on_id":"x-1","type":"waits-for"},{"depends_on_id":"x-2","type":"related"}]}',
        ].join('\n'),
      ),
    );
    expect(table(source)).toEqual({
      'beads#x-1': 'pending One',
      'beads#x-3': 'blocked Three <- beads#x-1',
    });
    expect(source.memory.durable).toEqual(['style: tabs, not spaces']);
    expect(
      refusal(() => parseBeads(text('i.jsonl', '{"id":"a","title":"A"}\n{"id":"b",\n'))),
    ).toMatchObject({ at: 'i.jsonl:2' });
    expect(
      refusal(() =>
        parseBeads(
          text('i.jsonl', '{"id":"a","title":"A"}\n{"id":"b","title":"B","status":"later"}\n'),
        ),
      ),
    ).toEqual({
      code: 'INVALID',
      at: 'i.jsonl:2',
      message:
        'issue b: status "later" is not one of open, pinned, in_progress, hooked, blocked, deferred, closed',
    });
    expect(
      refusal(() => parseBeads(text('i.jsonl', '{"_type":"event","id":"a"}\n'))),
    ).toMatchObject({
      at: 'i.jsonl:1',
      message: 'expected "_type" to be "issue" or "memory", got "event"',
    });
    expect(refusal(() => parseBeads(text('i.jsonl', '\n')))).toMatchObject({
      message: 'no issue in the file',
    });
  });
});

describe('gsd', () => {
  const planning = (name: string) => file(`gsd/.planning/${name}`);

  it('reads phases and plans from ROADMAP, the goal from PROJECT, where work stopped from STATE', () => {
    const source = parseGsd(reader('gsd/.planning'));
    expect(table(source)).toEqual({
      'gsd#phase-1':
        'done Phase 1: Storage — Links are saved to and deleted from a local SQLite file <- gsd#01-01 gsd#01-02',
      'gsd#01-01': 'done Schema and migrations',
      'gsd#01-02': 'done add and rm commands',
      'gsd#phase-2':
        'pending Phase 2: Search — Any saved link is found again by a fuzzy query <- gsd#phase-1 gsd#02-01 gsd#02-02',
      'gsd#02-01': 'pending FTS5 index and the find command <- gsd#phase-1',
      'gsd#02-02': 'pending Benchmark with 10k links <- gsd#phase-1',
      'gsd#phase-3':
        "pending Phase 3: Import — A browser's bookmark export becomes saved links <- gsd#phase-1 gsd#03-01",
      'gsd#03-01': 'pending HTML export parser and import command <- gsd#phase-1',
    });
    expect(source.goal).toBe(
      'Saving a link and finding it again must take under a second, offline.',
    );
    expect(source.nextAction).toBe('Phase 2 planned; next: execute 02-01 FTS5 index');
    expect(source.memory).toEqual({
      durable: [
        '[Phase 1]: Store tags in a join table, not a CSV column — tag search needs an index',
        '[Phase 2]: Trigram tokenizer for fuzzy matching — FTS5 trigram handles typos without a second index',
      ],
      working: ['Phase 2: trigram tokenizer needs SQLite 3.34 or newer'],
    });
  });

  it('takes an In Progress row of the progress table as running, and the goal from REQUIREMENTS alone', () => {
    const roadmap = planning('ROADMAP.md').text.replace(
      '| 2. Search | 0/2 | Not started |',
      '| 2. Search | 1/2 | In Progress|',
    );
    const source = parseGsd(
      reader('gsd/.planning', { 'ROADMAP.md': roadmap, 'PROJECT.md': undefined }),
    );
    expect(source.items.find((i) => i.source === 'gsd#phase-2')!.status).toBe('running');
    expect(source.goal).toBe(
      'Saving a link and finding it again must take under a second, offline.',
    );
  });

  it('refuses a roadmap without phases', () => {
    expect(
      refusal(() => parseGsd(reader('none', { 'ROADMAP.md': '# Roadmap\n\nSoon.\n' }))),
    ).toEqual({
      code: 'INVALID',
      at: 'ROADMAP.md:1',
      message: 'expected phases in ROADMAP.md: headings like `### Phase 1: Name`',
    });
  });
});

describe('memory-bank', () => {
  it('takes the goal from projectbrief, the next step and working memory from activeContext, items from progress', () => {
    const source = parseMemoryBank(reader('memory-bank/memory-bank'));
    expect(source.goal).toBe(
      'The Travel Stipend Calculator is a TypeScript application designed to calculate fair travel stipends for employees attending conferences.',
    );
    expect(source.nextAction).toBe('Expand Test Coverage');
    expect(source.memory.working).toContain(
      'Current Focus: Refining the flight price lookup to provide more accurate estimates',
    );
    expect(source.memory.working).toContain('Known Issues: City Name Matching');
    expect(source.memory.working).toHaveLength(13);
    expect(source.items).toHaveLength(22);
    const t = table(source);
    expect(t['memory-bank#basic-stipend-calculation']).toBe('done Basic Stipend Calculation');
    expect(t['memory-bank#flight-price-api-integration']).toBe(
      'running Flight Price API Integration',
    );
    expect(t['memory-bank#currency-conversion']).toBe('pending Currency Conversion');
  });

  it('reads checkbox progress lines too, and keeps two items of one title apart', () => {
    const source = parseMemoryBank(
      reader('none', {
        'progress.md': '## Done\n- [x] Login\n## Left\n- [ ] Login\n- [ ] Sign-up flow\n',
      }),
    );
    expect(table(source)).toEqual({
      'memory-bank#login': 'done Login',
      'memory-bank#login-2': 'pending Login',
      'memory-bank#sign-up-flow': 'pending Sign-up flow',
    });
  });
});

describe('spec-kit', () => {
  it('reads tasks in order: [P] runs in parallel, a heading ends a group, sub-tasks follow their task', () => {
    const source = parseSpecKit(
      file('spec-kit/specs/003-apply-fluent-paradigms/tasks.md'),
      '003-apply-fluent-paradigms',
    );
    const t = Object.fromEntries(
      Object.entries(table(source)).map(([k, v]) => [
        k.replace('spec-kit#003-apply-fluent-paradigms/', ''),
        v.replaceAll('spec-kit#003-apply-fluent-paradigms/', ''),
      ]),
    );
    expect(source.items).toHaveLength(40);
    expect(t.T001).toBe('done Capture baseline metrics via script');
    expect(t.T004).toBe('done Add base fluent wrapper in src/ZodBuilder/fluent.ts <- T003');
    expect(t.T009a).toBe(
      'done Gate: Run tests BEFORE code changes; confirm baseline green <- T009',
    );
    expect(t.T010).toBe('done Implement StringBuilder in src/ZodBuilder/string.ts <- T009b');
    expect(t.T011).toBe(
      'done Wire `build.string()` and integrate in src/parsers/parseString.ts <- T009b',
    );
    expect(t.T012).toBe('done Run tests and verify parity <- T010 T011');
    expect(t.T017).toBe(
      'pending Integrate in src/parsers/parseObject.ts (deferred: complex logic) <- T015b',
    );
    expect(t.T022).toBe(
      'done Update exports and integrations where needed <- T016 T017 T018 T019 T020 T021',
    );
    expect(t.T027).toBe('pending Update README.md with internal fluent notes (non-public) <- T032');
    expect(t.T029).toBe(
      'pending Ensure ESM/CJS outputs unchanged; inspect post-build scripts <- T032',
    );
  });

  it('adds the needs a task names with "(depends on ...)", and keeps the story label', () => {
    const source = parseSpecKit(
      text(
        'tasks.md',
        '## Phase 1\n\n- [ ] T001 [P] [US1] Model A\n- [ ] T002 [P] [US1] Model B\n\n## Phase 2\n\n- [X] T003 [US1] Service (depends on T001)\n',
      ),
      'f',
    );
    expect(table(source)).toEqual({
      'spec-kit#f/T001': 'pending [US1] Model A',
      'spec-kit#f/T002': 'pending [US1] Model B',
      'spec-kit#f/T003': 'done [US1] Service (depends on T001) <- spec-kit#f/T001 spec-kit#f/T002',
    });
  });

  it("refuses spec-kit's own template (its placeholder TXXX tasks), a duplicate id and a file without tasks", () => {
    const template = file('spec-kit/template/tasks.md');
    const line = template.text.split('\n').findIndex((l) => l.startsWith('- [ ] TXXX')) + 1;
    expect(refusal(() => parseSpecKit(template, 'template'))).toEqual({
      code: 'INVALID',
      at: `spec-kit/template/tasks.md:${line}`,
      message: 'expected a task id like T001 after the checkbox',
    });
    expect(
      refusal(() =>
        parseSpecKit(text('tasks.md', '- [x] T001 A\n- [ ] T002 B\n- [ ] T001 C\n'), 'f'),
      ),
    ).toMatchObject({
      at: 'tasks.md:3',
      message: 'T001 is used twice (lines 1 and 3)',
    });
    expect(
      refusal(() => parseSpecKit(text('tasks.md', '# Tasks\n\nNone yet.\n'), 'f')),
    ).toMatchObject({ at: 'tasks.md:1' });
  });
});
