// Evidence ids: the old six-digit sequence stays readable next to unique ids that cannot collide
// across agents or branches, and both sort in one order (oldest first).
import { describe, expect, it } from 'vitest';
import { compareEntryIds, isSequenceId, uniqueEntryId } from '../../src/evidence/entry-id.js';
import { ENTRY_FILE } from '../../src/evidence/evidence-file.js';

describe('evidence ids', () => {
  it('makes a unique id from the time to the millisecond and six random hex digits', () => {
    const id = uniqueEntryId(new Date('2026-11-30T14:05:00.123Z'), '3f9c2a');
    expect(id).toBe('20261130T140500123Z-3f9c2a');
    expect(isSequenceId(id)).toBe(false);
    expect(isSequenceId('000012')).toBe(true);
  });

  it('reads both kinds of file name, and nothing else', () => {
    expect(ENTRY_FILE.exec('000012-tests-pass.md')?.[1]).toBe('000012');
    expect(ENTRY_FILE.exec('20261130T140500123Z-3f9c2a-tests-pass.md')?.[1]).toBe(
      '20261130T140500123Z-3f9c2a',
    );
    expect(ENTRY_FILE.exec('20261130T140500123Z-3f9c2a.md')).toBeNull();
    expect(ENTRY_FILE.exec('12-x.md')).toBeNull();
    expect(ENTRY_FILE.exec('20261130T140500Z-3f9c2a-x.md')).toBeNull();
  });

  it('sorts sequence ids first by number, then unique ids by time', () => {
    const ids = [
      '20261130T140500123Z-ffffff',
      '900000',
      '20261129T000000000Z-000000',
      '000002',
      '20261130T140500123Z-000001',
    ];
    expect([...ids].sort(compareEntryIds)).toEqual([
      '000002',
      '900000',
      '20261129T000000000Z-000000',
      '20261130T140500123Z-000001',
      '20261130T140500123Z-ffffff',
    ]);
  });
});
