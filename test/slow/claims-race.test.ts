// 8 agents × 25 claims on 10 items, all at once, through the real bin: every item ends with at
// most one live claimer, no claim is ever granted to a second agent, and every loser is told who
// holds the item. Many processes: the slow tier.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentRepo, cli, readShared } from '../helpers/agents.js';
import { BIN, testdir } from '../helpers/fixtures.js';

const AGENTS = 8;
const CLAIMS = 25;
const ITEMS = 10;

// One agent: a shell loop of 25 `plan claim` runs, each leaving its JSON and exit code in `out`.
function agentLoop(repo: string, out: string, k: number): Promise<number | null> {
  const script = [
    'i=0',
    `while [ $i -lt ${CLAIMS} ]; do`,
    `  item=t$(( (i * 7 + ${k} * 3) % ${ITEMS} + 1 ))`,
    `  "$NODE" "$BIN" --agent a${k} --json plan claim $item > "$OUT/${k}-$i.json" 2> "$OUT/${k}-$i.err"`,
    `  echo $? > "$OUT/${k}-$i.code"`,
    '  i=$((i + 1))',
    'done',
  ].join('\n');
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', script], {
      cwd: repo,
      env: {
        ...process.env,
        NODE: process.execPath,
        BIN,
        OUT: out,
        NO_COLOR: '1',
        AGENT_STATE_LOCK_TIMEOUT_MS: '120000',
      },
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

interface Attempt {
  agent: string;
  item: string;
  code: number;
  json: {
    item?: { id: string };
    action?: string;
    error?: { message: string; details?: { claimed_by: string; item: string } };
  };
}

describe('claims under contention', () => {
  it('8 agents × 25 claims on 10 items: one live claimer per item; the losers are told who holds it', async () => {
    const repo = await agentRepo();
    for (let i = 1; i <= ITEMS; i++) await cli(repo, ['plan', 'add', `Item ${i}`, '--id', `t${i}`]);
    const out = testdir();
    const codes = await Promise.all(
      Array.from({ length: AGENTS }, (_, k) => agentLoop(repo, out, k)),
    );
    expect(codes).toEqual(Array(AGENTS).fill(0));

    const attempts: Attempt[] = readdirSync(out)
      .filter((f) => f.endsWith('.code'))
      .map((f) => {
        const [k] = f.split('-');
        const base = join(out, f.replace(/\.code$/, ''));
        const json = JSON.parse(readFileSync(`${base}.json`, 'utf8')) as Attempt['json'];
        const item = json.item?.id ?? json.error?.details?.item ?? '?';
        return { agent: `a${k}`, item, code: Number(readFileSync(join(out, f), 'utf8')), json };
      });
    expect(attempts).toHaveLength(AGENTS * CLAIMS);
    // Every run either claimed (exit 0) or was refused because another agent holds the item (exit 4).
    expect(new Set(attempts.map((a) => a.code))).toEqual(new Set([0, 4]));

    const holders = new Map<string, Set<string>>();
    for (const a of attempts.filter((x) => x.code === 0)) {
      expect(['claimed', 'renewed']).toContain(a.json.action);
      holders.set(a.item, (holders.get(a.item) ?? new Set()).add(a.agent));
    }
    // No item was ever granted to two agents (no claim expires within the run, none is released).
    for (const [item, agents] of holders)
      expect([item, [...agents]]).toEqual([item, [...agents].slice(0, 1)]);

    const final = readShared(repo);
    for (const item of final.plan!) {
      expect(item.claim, item.id).toBeDefined();
      expect([...holders.get(item.id)!]).toEqual([item.claim!.agent]);
    }
    for (const a of attempts.filter((x) => x.code === 4)) {
      const holder = [...holders.get(a.item)!][0]!;
      expect(a.json.error!.details!.claimed_by).toBe(holder);
      expect(a.json.error!.message).toMatch(
        new RegExp(`^plan item ${a.item} is already claimed by ${holder} \\(claimed `),
      );
      expect(a.agent).not.toBe(holder);
    }
    expect((await cli(repo, ['validate'])).includes('All state files are valid.')).toBe(true);
  });
});
