import { describe, expect, it } from 'vitest';
import {
  parseEntry,
  renderEntry,
  slugify,
  truncateUtf8,
} from '../../src/evidence/evidence-file.js';

describe('evidence entries', () => {
  it('round-trips front matter and body; the id stays a six-digit string', () => {
    const meta = {
      id: '000012',
      at: '2026-01-31T12:00:00.000Z',
      kind: 'test',
      summary: 'All 42 tests pass: "quoted" and # hashed',
      redactions: 1,
      truncated_bytes: 0,
      refs: [{ path: '.agent/artifacts/x.log', sha256: `sha256:${'a'.repeat(64)}`, bytes: 10 }],
    };
    const text = renderEntry(meta, 'Body line\n---\nmore');
    expect(text).toContain('id: "000012"');
    const parsed = parseEntry(text, 'e.md');
    expect(parsed.problems).toEqual([]);
    expect(parsed.meta).toEqual(meta);
    expect(parsed.body).toBe('Body line\n---\nmore\n');
  });

  it('locates problems at the line of the file', () => {
    const parsed = parseEntry(
      '---\nid: "000001"\nat: yesterday\nkind: test\nsummary: s\n---\nbody\n',
      'e.md',
    );
    expect(parsed.meta).toBeUndefined();
    expect(parsed.problems[0]).toMatchObject({ location: { file: 'e.md', line: 3 } });
    expect(parseEntry('no front matter', 'e.md').problems[0]?.message).toMatch(/no front matter/);
    const escaping = `---\nid: "000001"\nat: 2026-01-01T00:00:00Z\nkind: test\nsummary: s\nrefs:\n  - path: ../../etc/passwd\n    sha256: sha256:${'a'.repeat(64)}\n---\n`;
    expect(parseEntry(escaping, 'e.md').problems[0]).toMatchObject({ location: { line: 7 } });
  });

  it('slugs summaries', () => {
    expect(slugify('Fix: the Token refresh (v2)!', 'note')).toBe('fix-the-token-refresh-v2');
    expect(slugify('日本語', 'note')).toBe('note');
  });
});

describe('truncateUtf8', () => {
  it('keeps short text and cuts long text on a character boundary with a note', () => {
    expect(truncateUtf8('short', 10)).toEqual({ text: 'short', truncatedBytes: 0 });
    const { text, truncatedBytes } = truncateUtf8('ééééé', 5); // 10 bytes; cut inside the 3rd é
    expect(truncatedBytes).toBe(6);
    expect(text).toBe('éé\n\n[truncated 6 bytes]\n');
  });
});
