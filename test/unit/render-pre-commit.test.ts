import { describe, expect, it } from 'vitest';
import { ansiStyle } from '../../src/cli/output.js';
import { renderPreCommit } from '../../src/cli/render-pre-commit.js';
import type { PreCommitResult } from '../../src/git-hooks/pre-commit-hook.js';

const plain = ansiStyle(0);

describe('renderPreCommit', () => {
  it('says nothing when the commit is clean or the hook was skipped', () => {
    expect(renderPreCommit({ ok: true, skipped: null, staged: 3, findings: [] }, plain)).toEqual(
      [],
    );
    expect(
      renderPreCommit({ ok: true, skipped: 'AGENT_STATE=0', staged: 0, findings: [] }, plain),
    ).toEqual([]);
  });

  it('names the hook, each rule and its fix, blocking problems first', () => {
    const result: PreCommitResult = {
      ok: false,
      skipped: null,
      staged: 2,
      findings: [
        {
          kind: 'stale-marker',
          severity: 'warn',
          path: 'src/a.ts',
          marker: 't1',
          message: 'marker t1 goes stale',
          hint: 're-verify t1',
        },
        {
          kind: 'forbidden',
          severity: 'block',
          path: 'src/storage/db.ts',
          message: 'this commit changes a Forbidden path (matches src/storage/**)',
          hint: 'unstage it',
          rule: '`src/storage/**` — frozen',
          glob: 'src/storage/**',
        },
      ],
    };
    const lines = renderPreCommit(result, plain);
    expect(lines[0]).toBe('agent-state pre-commit hook: commit blocked (1 problem)');
    expect(lines[1]).toContain(
      'forbidden  src/storage/db.ts: this commit changes a Forbidden path',
    );
    expect(lines[2]).toBe(
      '      rule: `src/storage/**` — frozen (.agent/state/goals.md, Forbidden)',
    );
    expect(lines[3]).toBe('      fix:  unstage it');
    expect(lines[4]).toContain('stale marker (warning)  src/a.ts');
    expect(lines.at(-1)).toContain('AGENT_STATE=0 git commit');
  });

  it('says the commit goes ahead when there are only warnings', () => {
    const lines = renderPreCommit(
      {
        ok: true,
        skipped: null,
        staged: 1,
        findings: [
          { kind: 'local-file', severity: 'warn', path: '.agent/lock', message: 'm', hint: 'h' },
        ],
      },
      plain,
    );
    expect(lines[0]).toBe('agent-state pre-commit hook: 1 note; the commit goes ahead');
  });

  it('colors only when asked', () => {
    expect(ansiStyle(1).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(plain.red('x')).toBe('x');
  });
});
