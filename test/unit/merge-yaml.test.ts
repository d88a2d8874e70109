// The merge of progress texts: comments and key order of our side kept, items from their side
// with their comments, conflicts marked in place with both values — and the validator's reading
// of those markers.
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { mergeYamlText } from '../../src/merge/merge-yaml.js';
import { conflictProblems } from '../../src/state/yaml-state.js';
import { parseProgress } from '../../src/state/progress.js';

const base = `# yaml-language-server: $schema=x
version: 1
revision: 2
plan:
  - id: t1 # the first step
    title: One
    status: pending
  - id: t2
    title: Two
    status: pending
markers: {}
`;

const ours = base
  .replace('revision: 2', 'revision: 4')
  .replace('title: Two\n    status: pending', 'title: Two\n    status: skipped')
  .concat('')
  .replace(
    'markers: {}',
    '  # alice added this\n  - id: alice-t1\n    title: A\n    status: pending\nmarkers: {}',
  );

const theirs = base
  .replace('revision: 2', 'revision: 3')
  .replace('title: Two\n    status: pending', 'title: Two\n    status: failed')
  .replace(
    'markers: {}',
    '  # bob added this\n  - id: bob-t1\n    title: B\n    status: pending\nmarkers: {}',
  );

describe('mergeYamlText', () => {
  it('keeps comments and key order, with the items and comments each side added', () => {
    const clean = mergeYamlText(base, ours, theirs.replace('status: failed', 'status: pending'))!;
    expect(clean.conflicts).toEqual([]);
    expect(clean.text).toBe(`# yaml-language-server: $schema=x
version: 1
revision: 5
plan:
  - id: t1 # the first step
    title: One
    status: pending
  - id: t2
    title: Two
    status: skipped
  # alice added this
  - id: alice-t1
    title: A
    status: pending
  # bob added this
  - id: bob-t1
    title: B
    status: pending
markers: {}
`);
  });

  it('marks a conflict in place, naming it and showing both values; the rest is merged', () => {
    const merged = mergeYamlText(base, ours, theirs)!;
    expect(merged.conflicts.map((c) => [c.what, c.ours, c.theirs])).toEqual([
      ['plan item t2 status', 'skipped', 'failed'],
    ]);
    expect(merged.text).toContain(
      [
        '  - id: t2',
        '    title: Two',
        '<<<<<<< ours (agent-state: plan item t2 status)',
        '    status: skipped',
        '=======',
        '    status: failed',
        '>>>>>>> theirs (agent-state: plan item t2 status)',
        '  # alice added this',
      ].join('\n'),
    );
    expect(merged.text).toContain('id: bob-t1');
    // Keeping either side gives a valid file holding everything else.
    const keepOurs = merged.text.replace(/<<<<<<< .*\n(.*\n)=======\n.*\n>>>>>>> .*\n/, '$1');
    const parsed = parseProgress(keepOurs, 'progress.yaml');
    expect(parsed.problems).toEqual([]);
    expect(parsed.value!.plan!.map((p) => p.id)).toEqual(['t1', 't2', 'alice-t1', 'bob-t1']);
  });

  it('marks a removed-versus-changed item as a whole item, nested collections as blocks', () => {
    const removed = base.replace('  - id: t2\n    title: Two\n    status: pending\n', '');
    const changed = base.replace(
      'title: Two\n    status: pending',
      'title: Two\n    status: running\n    depends_on: [t1]',
    );
    const merged = mergeYamlText(base, removed, changed)!;
    expect(merged.conflicts.map((c) => c.what)).toEqual([
      'plan item t2 (removed on one side, changed on the other)',
    ]);
    expect(merged.text).toContain(
      [
        '<<<<<<< ours (agent-state: plan item t2 (removed on one side, changed on the other))',
        '=======',
        '  - id: t2',
        '    title: Two',
        '    status: running',
        '    depends_on:',
        '      - t1',
        '>>>>>>> theirs (agent-state: plan item t2 (removed on one side, changed on the other))',
      ].join('\n'),
    );
  });

  it('returns null for a side that is not a YAML mapping (the driver merges it line by line)', () => {
    expect(mergeYamlText(base, ours, 'plan: [\n')).toBeNull();
    expect(mergeYamlText(base, ours, '- a list\n')).toBeNull();
  });

  it('merges into an empty ancestor (the file was added on both sides)', () => {
    const merged = mergeYamlText('', ours, theirs.replace('status: failed', 'status: skipped'))!;
    expect(merged.conflicts.map((c) => c.what)).toEqual([]);
    expect((parseDocument(merged.text).toJS() as { plan: unknown[] }).plan).toHaveLength(4);
  });
});

describe('conflictProblems', () => {
  it('explains each conflict block of the merge driver: what, both values, how to finish', () => {
    const text = mergeYamlText(base, ours, theirs)!.text;
    const problems = conflictProblems(text, '.agent/state/progress.yaml');
    expect(problems).toEqual([
      {
        location: {
          file: '.agent/state/progress.yaml',
          line: text.split('\n').indexOf('<<<<<<< ours (agent-state: plan item t2 status)') + 1,
          column: 1,
        },
        message:
          'unresolved merge conflict in plan item t2 status: ours status: skipped, theirs status: failed',
        hint: 'keep the lines of one side, delete the marker lines (<<<<<<<, =======, >>>>>>>), then `agent-state validate` and `git add .agent/state/progress.yaml`',
      },
    ]);
    // parseProgress reports the conflict instead of YAML's view of the marker lines.
    expect(
      parseProgress(text, '.agent/state/progress.yaml').problems.map((p) => p.message),
    ).toEqual([problems[0]!.message]);
  });

  it('explains git’s own conflict markers by their lines', () => {
    const text = 'version: 1\n<<<<<<< HEAD\nrevision: 4\n=======\nrevision: 3\n>>>>>>> b\n';
    expect(conflictProblems(text, 'p.yaml').map((p) => p.message)).toEqual([
      'unresolved merge conflict (lines 2–6): ours revision: 4, theirs revision: 3',
    ]);
  });
});

describe('a side agent-state would refuse', () => {
  it('with a YAML alias (undefined or defined) is merged by lines, never a crash', () => {
    const base = 'version: 1\nrevision: 1\nstage: a\n';
    const ours = 'version: 1\nrevision: 2\nstage: b\n';
    expect(mergeYamlText(base, ours, 'version: 1\nrevision: 2\nstage: *nope\n')).toBeNull();
    expect(mergeYamlText(base, ours, 'version: 1\nrevision: &r 2\nstage: *r\n')).toBeNull();
  });
});
