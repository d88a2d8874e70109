// The torture tier's global setup: a seed for the run and a folder for each campaign's report;
// at the end, the one summary line (counts and `violations: N`).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    tortureSeed: number;
    tortureReportDir: string;
  }
}

interface CampaignReport {
  campaign: string;
  counts: Record<string, number>;
  byKind: Record<string, number>;
  violations: number;
}

// What the summary says of each campaign, in this order.
const PHRASES: [string, (c: Record<string, number>) => string][] = [
  [
    'state-files',
    (c) =>
      `${c.files} malformed state files × ${c.commands} commands (${c.runs} runs, ${c.invalid} invalid)`,
  ],
  ['hook-stdin', (c) => `${c.payloads} garbage hook payloads (${c.hosts} hosts)`],
  ['mcp', (c) => `${c.probes} MCP probes`],
  ['writers', (c) => `${c.processes} × ${c.mutations} concurrent mutations (${c.busy} busy exits)`],
  ['kill9', (c) => `${c.trials} kill -9 trials`],
  ['probes', (c) => `${c.probes} path and escape probes`],
  [
    'guard',
    (c) =>
      `${c.names} Forbidden names with control characters (${c.decoys} decoys), ${c.runs} runs on ${c.layouts} symlink layouts`,
  ],
];

// The assertions of docs/reliability.md, each counted over every campaign.
const KINDS = [
  'exit 70',
  'stack trace',
  'rewrite of a bad file',
  'lost update',
  'control character',
  'secret on disk',
];

export default function setup(project: TestProject): () => void {
  const seed = Number(process.env.TORTURE_SEED ?? '') || Math.floor(Math.random() * 2 ** 31);
  const dir = mkdtempSync(join(tmpdir(), 'agent-state-torture-'));
  project.provide('tortureSeed', seed);
  project.provide('tortureReportDir', dir);
  const started = Date.now();
  return () => {
    const reports = readdirSync(dir).map(
      (name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as CampaignReport,
    );
    rmSync(dir, { recursive: true, force: true });
    if (reports.length === 0) return;
    // A campaign may report in parts (mcp-raw, mcp-sdk): their counts add up.
    const by = new Map<string, Record<string, number>>();
    for (const [name] of PHRASES) {
      const parts = reports.filter((r) => r.campaign === name || r.campaign.startsWith(`${name}-`));
      if (parts.length === 0) continue;
      const counts: Record<string, number> = {};
      for (const r of parts)
        for (const [k, n] of Object.entries(r.counts)) counts[k] = (counts[k] ?? 0) + n;
      by.set(name, counts);
    }
    const parts = PHRASES.filter(([name]) => by.has(name)).map(([name, say]) => say(by.get(name)!));
    const kinds: Record<string, number> = Object.fromEntries(KINDS.map((k) => [k, 0]));
    for (const r of reports)
      for (const [k, n] of Object.entries(r.byKind)) kinds[k] = (kinds[k] ?? 0) + n;
    const total = reports.reduce((n, r) => n + r.violations, 0);
    const scale = process.env.TORTURE_SCALE ?? '1';
    const minutes = ((Date.now() - started) / 60_000).toFixed(1);
    console.log(
      `torture (TORTURE_SCALE=${scale}, TORTURE_SEED=${seed}, ${minutes} min): ${parts.join(', ')}; ${Object.entries(
        kinds,
      )
        .map(([k, n]) => `${k}: ${n}`)
        .join(', ')}; violations: ${total}`,
    );
  };
}
