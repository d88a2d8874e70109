import { describe, expect, it } from 'vitest';
import {
  countWords,
  extractGlobs,
  parseGoals,
  renderGoals,
  setGoalAnchor,
} from '../../src/state/goals.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/fixtures.js';

const FULL = `# Payments refactor

Move card payments to the new gateway without downtime.

## Success criteria
- All payment tests pass
- p99 latency unchanged

## CONSTRAINTS:
* Keep the public API stable
* No new runtime dependencies,
  not even small ones

## Forbidden

- \`src/storage/**\` — frozen interface
- \`migrations/\` and \`*.sql\`: owned by the DBA team
- Never force-push

## Notes for reviewers

Some *free text* that the tool does not know.

\`\`\`
## not a heading (inside a code block)
\`\`\`

## Out of scope
1. Refunds
2. Multi-currency
`;

describe('parseGoals', () => {
  const { goals, warnings } = parseGoals(FULL);

  it('reads the title and the anchor paragraph', () => {
    expect(goals.title).toBe('Payments refactor');
    expect(goals.anchor).toBe('Move card payments to the new gateway without downtime.');
    expect(warnings).toEqual([]);
  });

  it('reads known sections in any case and order, with aliases and continuation lines', () => {
    expect(goals.successCriteria).toEqual(['All payment tests pass', 'p99 latency unchanged']);
    expect(goals.constraints).toEqual([
      'Keep the public API stable',
      'No new runtime dependencies,\nnot even small ones',
    ]);
    expect(goals.nonGoals).toEqual(['Refunds', 'Multi-currency']);
  });

  it('extracts backticked globs from Forbidden entries', () => {
    expect(goals.forbidden).toEqual([
      { text: '`src/storage/**` — frozen interface', globs: ['src/storage/**'] },
      { text: '`migrations/` and `*.sql`: owned by the DBA team', globs: ['migrations/', '*.sql'] },
      { text: 'Never force-push', globs: [] },
    ]);
  });

  it('keeps unknown sections verbatim, code blocks included', () => {
    expect(goals.extraSections).toHaveLength(1);
    expect(goals.extraSections[0]!.heading).toBe('Notes for reviewers');
    expect(goals.extraSections[0]!.body).toContain('## not a heading (inside a code block)');
    expect(goals.extraSections[0]!.body).toContain('Some *free text*');
  });

  it('understands Chinese headings and CJK text', () => {
    const { goals: zh, warnings: w } = parseGoals(`# 重构支付

将银行卡支付迁移到新网关，不停机。

## 验收标准
- 所有支付测试通过

## 约束
- 保持公共 API 稳定

## 禁区
- \`src/存储/**\` — 接口冻结

## 非目标
- 退款
`);
    expect(w).toEqual([]);
    expect(zh.anchor).toBe('将银行卡支付迁移到新网关，不停机。');
    expect(zh.successCriteria).toEqual(['所有支付测试通过']);
    expect(zh.constraints).toEqual(['保持公共 API 稳定']);
    expect(zh.forbidden[0]!.globs).toEqual(['src/存储/**']);
    expect(zh.nonGoals).toEqual(['退款']);
  });

  it('warns (never fails) about a missing anchor, a long anchor and empty sections', () => {
    const missing = parseGoals('# Title\n\n## Constraints\n- one\n', 'goals.md');
    expect(missing.goals.anchor).toBe('');
    expect(missing.warnings).toEqual([
      { file: 'goals.md', line: 1, message: expect.stringMatching(/no goal anchor/) },
    ]);

    const long = parseGoals(`# T\n\n${'word '.repeat(61)}\n`);
    expect(long.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/61 words/)]);

    const empty = parseGoals('# T\n\nGoal.\n\n## Forbidden\n\n<!-- guidance only -->\n');
    expect(empty.warnings).toEqual([
      {
        file: 'goals.md',
        line: 5,
        message: 'empty section: "Forbidden" (line 5): add a bullet, or delete the heading',
        once: 'goals.md empty sections: Forbidden',
      },
    ]);
  });

  it('warns, with its line, about a Forbidden glob that names no path inside the repository', () => {
    const source = [
      '# T',
      '',
      'Goal.',
      '',
      '## Forbidden',
      '',
      '- `src/storage/**` — frozen',
      '- `../**` — the parent directory',
      '- `/etc/**` and `~/.ssh/**`: system files',
      '- `C:\\Windows\\**`',
      '- `docs/../secret/**`',
    ].join('\n');
    const { goals, warnings } = parseGoals(source, 'goals.md');
    expect(goals.forbidden.map((f) => f.globs)).toEqual([
      ['src/storage/**'],
      ['../**'],
      ['/etc/**', '~/.ssh/**'],
      ['C:\\Windows\\**'],
      ['docs/../secret/**'],
    ]);
    expect(warnings.map((w) => [w.line, w.message])).toEqual([
      [8, expect.stringMatching(/^the Forbidden glob `\.\.\/\*\*` can never match: .*`\.\.`/)],
      [
        9,
        expect.stringMatching(
          /^the Forbidden glob `\/etc\/\*\*` is an absolute path: .*never \/etc/,
        ),
      ],
      [9, expect.stringMatching(/^the Forbidden glob `~\/\.ssh\/\*\*` can never match: .*`~`/)],
      [10, expect.stringMatching(/^the Forbidden glob `C:\\Windows\\\*\*` can never match/)],
      [11, expect.stringMatching(/^the Forbidden glob `docs\/\.\.\/secret\/\*\*` can never match/)],
    ]);
    for (const w of warnings) expect(w.message).toMatch(/\(fix: /);
  });

  it('treats the shipped template as having no anchor and empty sections', () => {
    const template = readFileSync(join(REPO_ROOT, 'templates', 'goals.md'), 'utf8');
    const { goals, warnings } = parseGoals(template);
    expect(goals.anchor).toBe('');
    expect(goals.forbidden).toEqual([]);
    // No anchor, and one line for the four empty sections.
    expect(warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(/no goal anchor/),
      expect.stringMatching(/^empty sections: "Success criteria" \(line \d+\), "Constraints"/),
    ]);
  });
});

describe('countWords', () => {
  it('counts Latin words by spaces and CJK words by segmentation', () => {
    expect(countWords('Add OAuth login — now')).toBe(4);
    const zh = countWords('将银行卡支付迁移到新网关');
    expect(zh).toBeGreaterThan(3);
    expect(zh).toBeLessThan(12);
  });

  it('counts a word of letters or digits in any script, and never a run of punctuation', () => {
    expect(countWords('ελληνικά — Ω · № 42 ...')).toBe(3);
    expect(countWords('Café – ünïcode ¿¡ ٣')).toBe(3);
  });
});

describe('renderGoals', () => {
  it('round-trips through parseGoals', () => {
    const { goals } = parseGoals(FULL);
    const again = parseGoals(renderGoals(goals)).goals;
    expect(again).toEqual(goals);
  });
});

describe('setGoalAnchor', () => {
  it('replaces only the anchor paragraph', () => {
    const next = setGoalAnchor(FULL, 'Ship the new gateway.');
    expect(parseGoals(next).goals.anchor).toBe('Ship the new gateway.');
    expect(
      next.replace(
        'Ship the new gateway.',
        'Move card payments to the new gateway without downtime.',
      ),
    ).toBe(FULL);
  });

  it('inserts the anchor after the template guidance and keeps everything else', () => {
    const template = readFileSync(join(REPO_ROOT, 'templates', 'goals.md'), 'utf8');
    const next = setGoalAnchor(template, 'Make the build reproducible');
    expect(parseGoals(next).goals.anchor).toBe('Make the build reproducible');
    expect(
      next
        .split('\n')
        .filter((l) => l !== 'Make the build reproducible')
        .join('\n'),
    ).toBe(template);
  });

  it('adds a title when the file has none', () => {
    expect(setGoalAnchor('', 'Goal')).toBe('# Task\n\nGoal\n\n');
    expect(parseGoals(setGoalAnchor('## Constraints\n- x\n', 'Goal')).goals).toMatchObject({
      anchor: 'Goal',
      constraints: ['x'],
    });
  });
});

describe('extractGlobs', () => {
  it('takes every backticked span', () => {
    expect(extractGlobs('`a/**` and `b` but not ``')).toEqual(['a/**', 'b']);
  });
});
