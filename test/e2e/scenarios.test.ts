// The recovery scenarios (scenarios/table.ts), each run with the CLI on a real repository:
// the last boot's level, level_reason and directives must be what the table says, and
// docs/boot.md must show the table with these real outputs. AGENT_STATE_WRITE_DOCS=1 rewrites it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/fixtures.js';
import { Session } from './scenarios/session.js';
import { SCENARIOS, type Scenario } from './scenarios/table.js';

const DIRECTIVES = {
  loop: 'You are in a restart loop',
  rescan: 'a full rescan of the project is allowed',
  compacted: 'Your context was just compacted',
} as const;

interface Row {
  scenario: Scenario;
  level: string;
  reason: string;
  directives: string;
}

const rows: Row[] = [];

describe('recovery scenarios', () => {
  for (const scenario of SCENARIOS) {
    it(
      scenario.name,
      async () => {
        const s = await Session.start();
        await scenario.run(s);
        const want = scenario.expected;
        // What the agent was handed last (a hook that hands nothing, like PostToolUse without a
        // signal or OpenCode's session.compacted, leaves the previous context in force).
        const handed = s.contexts.filter((c) => c !== '');
        const last = handed[handed.length - 1] ?? '';
        const compactions = s.recovery().compactions;
        if (want.compactions !== undefined) expect(compactions).toBe(want.compactions);
        if (!want.boot) {
          // One boot at the session start, none after it: no compaction was confirmed.
          const boots = s.contexts.filter((c) => c.includes('# agent-state boot'));
          expect(boots.length).toBeLessThanOrEqual(1);
          expect(s.contexts.findLastIndex((c) => c.includes('# agent-state boot'))).toBeLessThan(2);
          expect(s.contexts.filter((c) => c.includes(DIRECTIVES.compacted))).toEqual([]);
          rows.push({
            scenario,
            level: '—',
            reason: '—',
            directives: `no boot; compactions: ${compactions}`,
          });
          return;
        }
        expect(last).toContain('# agent-state boot');
        const boot = await s.lastBoot();
        expect(boot.level).toBe(want.level);
        expect(boot.reason).toMatch(want.reason!);
        expect(last).toContain(`level ${want.level} (`);
        for (const key of ['loop', 'rescan', 'compacted'] as const) {
          if (want[key] === undefined) continue;
          if (want[key]) expect(last).toContain(DIRECTIVES[key]);
          else expect(last).not.toContain(DIRECTIVES[key]);
        }
        for (const text of want.shows ?? []) expect(last).toContain(text);
        const said = (Object.keys(DIRECTIVES) as (keyof typeof DIRECTIVES)[])
          .filter((key) => last.includes(DIRECTIVES[key]))
          .map(
            (key) =>
              ({ loop: 'loop warning', rescan: 'rescan allowed', compacted: '"just compacted"' })[
                key
              ],
          );
        if (last.includes('Uncheckpointed changes (yours)')) said.push('own changes named');
        if (last.includes('Uncheckpointed changes (unrecorded)'))
          said.push('unrecorded changes named');
        if (/STALE t\d/.test(last)) said.push('STALE named');
        rows.push({
          scenario,
          level: String(boot.level),
          reason: boot.reason,
          directives: `${said.join(', ') || 'none'}; compactions: ${compactions}`,
        });
      },
      120_000,
    );
  }
});

const DOC = join(REPO_ROOT, 'docs', 'boot.md');
const OPEN = '<!-- scenarios -->\n';
const CLOSE = '<!-- /scenarios -->';
const cell = (text: string) => text.replace(/\|/g, '\\|');

function table(): string {
  const ordered = SCENARIOS.map((s) => rows.find((r) => r.scenario === s)!);
  const lines = [
    '| Scenario | What happens | Level | `level_reason` | Directives |',
    '|---|---|---|---|---|',
    ...ordered.map(
      (r) =>
        `| ${cell(r.scenario.name)} | ${cell(r.scenario.story)} | ${r.level} | ${r.reason === '—' ? '—' : `\`${cell(r.reason)}\``} | ${cell(r.directives)} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

// Commit hashes differ from run to run.
const normalize = (text: string) => text.replace(/\b[0-9a-f]{7}\b/g, 'SHA');

afterAll(() => {
  // Only a run of every scenario may judge the table (a filtered run checks nothing here).
  if (rows.length !== SCENARIOS.length) return;
  const doc = readFileSync(DOC, 'utf8');
  const start = doc.indexOf(OPEN);
  const end = doc.indexOf(CLOSE, start);
  if (start === -1 || end === -1) throw new Error('docs/boot.md has no <!-- scenarios --> block');
  const next = doc.slice(0, start + OPEN.length) + table() + doc.slice(end);
  if (process.env.AGENT_STATE_WRITE_DOCS === '1') writeFileSync(DOC, next);
  else if (normalize(next) !== normalize(doc))
    throw new Error(
      'docs/boot.md: the scenario table is out of date: run `AGENT_STATE_WRITE_DOCS=1 npx vitest run test/e2e/scenarios.test.ts`',
    );
});
