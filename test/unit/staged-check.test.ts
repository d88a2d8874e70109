import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checkStagedForbidden,
  checkStagedMarkers,
  markerCoverage,
  mayBeCovered,
  passes,
  stateFileKind,
} from '../../src/verify/staged-check.js';
import { checkStagedStateFiles } from '../../src/verify/staged-state.js';
import { parseGoals } from '../../src/state/goals.js';
import type { Marker } from '../../src/types.js';

const forbidden = parseGoals(`# T

Anchor.

## Forbidden

- \`src/storage/**\` — the storage layer is frozen
- \`*.pem\`: never commit keys
`).goals.forbidden;

const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('checkStagedForbidden', () => {
  it('blocks staged Forbidden paths, naming the rule and the fix', () => {
    const findings = checkStagedForbidden(
      [
        { path: 'src/app.ts', status: 'M' },
        { path: 'src/storage/db.ts', status: 'M' },
        { path: 'deploy/server.pem', status: 'D' },
      ],
      forbidden,
      false,
    );
    expect(findings.map((f) => [f.path, f.severity, f.glob])).toEqual([
      ['src/storage/db.ts', 'block', 'src/storage/**'],
      ['deploy/server.pem', 'block', '*.pem'],
    ]);
    expect(findings[0]!.rule).toBe('`src/storage/**` — the storage layer is frozen');
    expect(findings[0]!.hint).toContain('git restore --staged -- src/storage/db.ts');
    expect(findings[0]!.hint).toContain('AGENT_STATE_ALLOW_FORBIDDEN=1');
    expect(findings[1]!.message).toContain('deletes');
    expect(passes(findings)).toBe(false);
  });

  it('lets them through, still listed, with the one-commit override', () => {
    const findings = checkStagedForbidden(
      [{ path: 'src/storage/db.ts', status: 'A' }],
      forbidden,
      true,
    );
    expect(findings[0]!.severity).toBe('allowed');
    expect(passes(findings)).toBe(true);
  });

  it('does nothing without Forbidden globs', () => {
    const none = parseGoals('# T\n\nA.\n\n## Forbidden\n\n- no globs here\n').goals.forbidden;
    expect(checkStagedForbidden([{ path: 'a', status: 'M' }], none, false)).toEqual([]);
  });
});

describe('markers', () => {
  const markers: Record<string, Marker> = {
    t1: { at: '2026-01-01T00:00:00Z', files: { 'src/a.ts': sha('a1'), 'src/b.ts': sha('b1') } },
    t2: { at: '2026-01-02T00:00:00Z', files: { 'src/b.ts': sha('b1') } },
  };

  it('finds which markers cover which staged paths', () => {
    const coverage = markerCoverage(markers, ['src/a.ts', 'src/b.ts', 'src/c.ts']);
    expect(Object.fromEntries(coverage)).toEqual({ 'src/a.ts': ['t1'], 'src/b.ts': ['t1', 't2'] });
  });

  it('warns when the staged content no longer hashes as recorded, blocks in block mode', () => {
    const coverage = markerCoverage(markers, ['src/a.ts', 'src/b.ts']);
    const hashes = new Map([
      ['src/a.ts', sha('a1')], // unchanged: the marker was refreshed before the commit
      ['src/b.ts', sha('b2')],
    ]);
    const warn = checkStagedMarkers(markers, coverage, hashes, 'warn');
    expect(warn.map((f) => [f.marker, f.path, f.severity])).toEqual([
      ['t1', 'src/b.ts', 'warn'],
      ['t2', 'src/b.ts', 'warn'],
    ]);
    expect(passes(warn)).toBe(true);
    const block = checkStagedMarkers(markers, coverage, hashes, 'block');
    expect(passes(block)).toBe(false);
    expect(block[0]!.hint).toContain('hooks.stale_markers: warn');
  });

  it('treats a deletion of a covered file as stale', () => {
    const coverage = markerCoverage(markers, ['src/a.ts']);
    const findings = checkStagedMarkers(markers, coverage, new Map([['src/a.ts', null]]), 'warn');
    expect(findings[0]!.message).toContain('deletes src/a.ts');
  });

  it('skips parsing when no staged path appears in progress.yaml', () => {
    const text = 'markers:\n  t1:\n    files:\n      src/a.ts: sha256:00\n';
    expect(mayBeCovered(text, 'src/a.ts')).toBe(true);
    expect(mayBeCovered(text, 'src/other.ts')).toBe(false);
    expect(mayBeCovered(text, 'src/we"ird.ts')).toBe(true); // might be escaped: parse to be sure
  });
});

describe('staged state files', () => {
  it('classifies paths under .agent/', () => {
    expect(stateFileKind('config.yaml')).toBe('config');
    expect(stateFileKind('state/progress.yaml')).toBe('progress');
    expect(stateFileKind('state/goals.md')).toBe('goals');
    expect(stateFileKind('state/evidence/000001-tests.md')).toBe('evidence');
    expect(stateFileKind('log/events.jsonl')).toBe('local');
    expect(stateFileKind('.gitignore')).toBe('other');
  });

  it('blocks an invalid staged progress.yaml at its line and column', () => {
    const findings = checkStagedStateFiles([
      {
        path: '.agent/state/progress.yaml',
        inAgent: 'state/progress.yaml',
        bytes: bytes(
          'version: 1\nrevision: 0\nplan:\n  - id: t1\n    title: Do\n    status: finished\n',
        ),
      },
    ]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      kind: 'invalid-state',
      severity: 'block',
      path: '.agent/state/progress.yaml',
      line: 6,
      column: 13,
    });
    expect(findings[0]!.message).toContain('must be one of');
  });

  it('blocks YAML syntax errors, bad config, bad evidence front matter and binary bytes', () => {
    const findings = checkStagedStateFiles([
      {
        path: '.agent/config.yaml',
        inAgent: 'config.yaml',
        bytes: bytes('hooks:\n  stale_markers: sometimes\n'),
      },
      {
        path: '.agent/state/evidence/000001-x.md',
        inAgent: 'state/evidence/000001-x.md',
        bytes: bytes('---\nid: "000001"\nat: yesterday\nkind: test\nsummary: ok\n---\nbody\n'),
      },
      {
        path: '.agent/state/progress.yaml',
        inAgent: 'state/progress.yaml',
        bytes: bytes('a: [1,\n'),
      },
      {
        path: '.agent/state/evidence/000002-y.md',
        inAgent: 'state/evidence/000002-y.md',
        bytes: bytes('no front matter\n'),
      },
      {
        path: '.agent/config.yaml',
        inAgent: 'config.yaml',
        bytes: Buffer.from([0x61, 0x00, 0x62]),
      },
    ]);
    expect(findings.map((f) => [f.path, f.line])).toEqual([
      ['.agent/config.yaml', 2],
      ['.agent/state/evidence/000001-x.md', 3],
      ['.agent/state/progress.yaml', 2],
      ['.agent/state/evidence/000002-y.md', 1],
      ['.agent/config.yaml', 1],
    ]);
    expect(findings.every((f) => f.severity === 'block')).toBe(true);
  });

  it('accepts valid files, warns on goals.md and on staged local files, skips deletions', () => {
    const findings = checkStagedStateFiles([
      {
        path: '.agent/config.yaml',
        inAgent: 'config.yaml',
        bytes: bytes('hooks:\n  stale_markers: block\n'),
      },
      { path: '.agent/state/progress.yaml', inAgent: 'state/progress.yaml', bytes: null },
      { path: '.agent/state/goals.md', inAgent: 'state/goals.md', bytes: bytes('# Title only\n') },
      { path: '.agent/log/events.jsonl', inAgent: 'log/events.jsonl', bytes: bytes('{}\n') },
    ]);
    expect(findings.map((f) => [f.kind, f.severity])).toEqual([
      ['state-warning', 'warn'],
      ['local-file', 'warn'],
    ]);
    expect(passes(findings)).toBe(true);
  });
});
