import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { syncDocument } from '../../src/state/yaml-sync.js';

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
