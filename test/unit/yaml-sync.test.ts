import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { syncDocument } from '../../src/state/yaml-sync.js';
import { detectYamlStyle } from '../../src/state/yaml-doc.js';

function sync(source: string, change: (value: Record<string, unknown>) => void): string {
  const doc = parseDocument(source);
  const value = doc.toJS() as Record<string, unknown>;
  change(value);
  syncDocument(doc, value);
  expect(doc.toJS()).toEqual(value);
  return doc.toString({ lineWidth: 0 });
}

describe('syncDocument', () => {
  it('keeps comments and key order of untouched parts', () => {
    const source = `# top comment
version: 1
stage: planning # inline comment
# about the plan
plan:
  - id: a # first
    title: A
    status: pending
next_action: ""
`;
    const out = sync(source, (v) => {
      v.next_action = 'Go';
    });
    expect(out).toBe(source.replace('next_action: ""', 'next_action: "Go"'));
  });

  it('matches list items by id, so an insertion keeps the comments of later items', () => {
    const source = `plan:
  - id: a
    title: A
  # the important one
  - id: b # keep me
    title: B
`;
    const out = sync(source, (v) => {
      (v.plan as unknown[]).splice(1, 0, { id: 'n', title: 'New' });
    });
    expect(out).toContain('# the important one');
    expect(out).toContain('- id: b # keep me');
    expect(out.indexOf('id: n')).toBeLessThan(out.indexOf('id: b'));
  });

  it('turns filled flow collections into block style and removes deleted keys', () => {
    const out = sync('plan: []\nmarkers: {}\nold: 1\n', (v) => {
      v.plan = [{ id: 't1', title: 'x' }];
      (v.markers as Record<string, unknown>).t1 = { at: 'now' };
      delete v.old;
    });
    expect(out).toBe('plan:\n  - id: t1\n    title: x\nmarkers:\n  t1:\n    at: now\n');
  });
});

describe('detectYamlStyle', () => {
  it('reproduces unindented lists, 4-space indentation and unpadded flow lists', () => {
    const source = `version: 1
plan:
- id: a
  title: 'Single quoted'
  depends_on: [x, y]
stage: old
`;
    const doc = parseDocument(source);
    doc.set('stage', 'new');
    expect(doc.toString(detectYamlStyle(source))).toBe(source.replace('stage: old', 'stage: new'));

    const four = 'memory:\n    durable:\n        - one\nstage: a\n';
    const doc4 = parseDocument(four);
    doc4.set('stage', 'b');
    expect(doc4.toString(detectYamlStyle(four))).toBe(four.replace('stage: a', 'stage: b'));
  });

  it('defaults to two spaces, indented lists and no padding', () => {
    expect(detectYamlStyle('a: 1\n')).toEqual({
      indent: 2,
      indentSeq: true,
      flowCollectionPadding: false,
      lineWidth: 0,
    });
    expect(detectYamlStyle('plan:\n  - id: a\n')).toMatchObject({ indent: 2, indentSeq: true });
  });
});
