import { describe, expect, it } from 'vitest';
import { progressDigest } from '../../src/checkpoint/progress-digest.js';
import type { Progress } from '../../src/types.js';

const base: Progress = {
  version: 1,
  revision: 3,
  stage: 'implementing',
  next_action: 'Write the test',
  plan: [{ id: 't1', title: 'Test', status: 'running' }],
  markers: {},
  memory: { working: ['a note'] },
};

describe('progressDigest', () => {
  it('changes with stage, next action, plan statuses and markers only', () => {
    const d = progressDigest(base);
    expect(progressDigest({ ...base, revision: 9, memory: { working: ['other'] } })).toBe(d);
    expect(progressDigest({ ...base, next_action: 'Other' })).not.toBe(d);
    expect(
      progressDigest({ ...base, plan: [{ id: 't1', title: 'Test', status: 'done' }] }),
    ).not.toBe(d);
    expect(
      progressDigest({ ...base, markers: { t1: { at: '2026-01-01T00:00:00Z', files: {} } } }),
    ).not.toBe(d);
  });
});
