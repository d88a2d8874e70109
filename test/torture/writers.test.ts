// Concurrent mixed writers: P processes, each making M mutations one after the other (plan add,
// next, memory add, remind, evidence add, event), all at once on one task. No update is lost:
// every mutation that reported success is in the state, the revision counts them exactly, the
// log's seqs are unique and increasing; no run ends in exit 70 or a stack trace. Busy exits (the
// lock not acquired in time) are counted and reported.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { parse } from 'yaml';
import { SECRETS } from '../helpers/secrets.js';
import {
  SEED,
  checkRun,
  expectNoViolations,
  readTree,
  report,
  richRepo,
  runBin,
  scaled,
  secretIn,
  type Violation,
} from './harness.js';

type Kind = 'plan' | 'next' | 'memory' | 'remind' | 'evidence' | 'event';

// What one mutation runs; `tag` is unique across the whole run.
function argsOf(kind: Kind, tag: string): string[] {
  switch (kind) {
    case 'plan':
      return ['plan', 'add', `item ${tag}`];
    case 'next':
      return ['next', `next ${tag} ${SECRETS.github_token}`];
    case 'memory':
      return ['memory', 'add', `note ${tag}`];
    case 'remind':
      return ['remind', `reminder ${tag}`];
    case 'evidence':
      return [
        'evidence',
        'add',
        '--kind',
        'note',
        '--summary',
        `evidence ${tag} ${SECRETS.aws_access_key}`,
      ];
    case 'event':
      return ['event', 'tool.finished', '--field', `name=tool-${tag}`];
  }
}

// The mutations that change progress.yaml once each (evidence and events do not).
const PROGRESS_KINDS = new Set<Kind>(['plan', 'next', 'memory', 'remind']);

describe('concurrent mixed writers', () => {
  const processes = Math.min(16, Math.max(2, Math.round(4 * Math.sqrt(scaled(1)))));
  const mutations = Math.min(50, scaled(10));
  it(`${processes} processes × ${mutations} mutations at once: no lost update`, async () => {
    const repo = await richRepo();
    const before = parse(readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8')) as {
      revision: number;
    };
    const plans = fc.sample(
      fc.array(
        fc.constantFrom<Kind>('plan', 'plan', 'next', 'memory', 'remind', 'evidence', 'event'),
        {
          minLength: mutations,
          maxLength: mutations,
        },
      ),
      { numRuns: processes, seed: SEED },
    );
    const violations: Violation[] = [];
    const succeeded: { kind: Kind; tag: string }[] = [];
    let busy = 0;
    await Promise.all(
      plans.map(async (kinds, p) => {
        for (const [i, kind] of kinds.entries()) {
          const tag = `w${p}-${i}`;
          const run = await runBin(repo, argsOf(kind, tag), { timeoutMs: 120_000 });
          violations.push(...checkRun(run, `writer ${tag}`));
          if (run.code === 0) succeeded.push({ kind, tag });
          else if (run.code === 4) busy++;
          else if (!run.timedOut && run.code !== 70)
            violations.push({
              kind: 'writer failed',
              detail: `${tag}: exit ${run.code}: ${run.stderr}`,
            });
        }
      }),
    );

    const text = readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8');
    const progress = parse(text) as {
      revision: number;
      plan: { title: string }[];
      memory?: { working?: string[] };
      reminders?: { text: string }[];
    };
    const titles = progress.plan.map((p) => p.title);
    const notes = progress.memory?.working ?? [];
    const reminders = (progress.reminders ?? []).map((r) => r.text);
    for (const { kind, tag } of succeeded) {
      const present =
        kind === 'plan'
          ? titles.filter((t) => t === `item ${tag}`).length === 1
          : kind === 'memory'
            ? notes.includes(`note ${tag}`)
            : kind === 'remind'
              ? reminders.includes(`reminder ${tag}`)
              : true;
      if (!present)
        violations.push({
          kind: 'lost update',
          detail: `${kind} ${tag} exited 0 and is not in progress.yaml`,
        });
    }
    const writes = succeeded.filter((s) => PROGRESS_KINDS.has(s.kind)).length;
    if (progress.revision !== before.revision + writes)
      violations.push({
        kind: 'lost update',
        detail: `revision ${progress.revision} after ${writes} successful writes from revision ${before.revision}`,
      });
    const events = readFileSync(join(repo, '.agent/log/events.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { seq: number; type: string; name?: string });
    const seqs = events.map((e) => e.seq);
    if (seqs.some((s, i) => i > 0 && s <= seqs[i - 1]!))
      violations.push({ kind: 'lost update', detail: 'the event log seqs are not increasing' });
    for (const { tag } of succeeded.filter((s) => s.kind === 'event'))
      if (!events.some((e) => e.name === `tool-${tag}`))
        violations.push({
          kind: 'lost update',
          detail: `event ${tag} exited 0 and is not in the log`,
        });
    for (const [path, content] of Object.entries(readTree(join(repo, '.agent')))) {
      const secret = secretIn(Buffer.from(content, 'latin1').toString());
      if (secret)
        violations.push({
          kind: 'secret on disk',
          detail: `${path} holds ${secret.slice(0, 12)}…`,
        });
    }
    report('writers', { processes, mutations, busy, succeeded: succeeded.length }, violations);
    expectNoViolations(violations);
  });
});
