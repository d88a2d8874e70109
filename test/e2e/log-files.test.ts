// docs/architecture.md names every file agent-state keeps under .agent/log/: a session that
// touches each writer (events, status, a boot, host hooks, a marker, a warning, a named agent)
// leaves no file the table does not name.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, gitdir, runCli, writeFiles } from '../helpers/fixtures.js';

// The names of the table, as patterns (`events.N.jsonl`, `publish-<consumer>.json`).
function documented(): RegExp[] {
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'architecture.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## What lives under `.agent/log/`'));
  const table = section.slice(0, section.indexOf('\n## '));
  return [...table.matchAll(/^\| ([^|]+) \|/gm)]
    .flatMap((m) => [...m[1]!.matchAll(/`([^`]+)`/g)].map((n) => n[1]!))
    .map((name) => {
      const escaped = name.replace(/[.+?^${}()[\]\\]/g, '\\$&');
      return new RegExp(`^${escaped.replace(/<[^>]+>|\bN\b/g, '[^/]+').replace(/\/$/, '')}$`);
    });
}

describe('.agent/log/ (docs/architecture.md)', () => {
  it('holds only files the table names', async () => {
    const dir = gitdir({ 'src/a.ts': 'export const a = 1;\n' });
    const run = async (args: string[], input?: string) => {
      const r = await runCli(dir, args, { input });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    };
    await run(['init']);
    writeFiles(dir, { '.agent/state/goals.md': '# Goal\n\nShip it.\n\n## Constraints\n' });
    await run(['plan', 'add', 'Write a', '--id', 't1']);
    await run(['done', 't1', '--files', 'src/a.ts']);
    await run(['check', 't1']);
    await run(['event', 'tool.finished', '--field', 'name=Bash']);
    await run(['status']);
    await run(['status', '--publish', 'delta', '--consumer', 'me']);
    await run(['boot']);
    const payload = {
      session_id: 's',
      cwd: dir,
      hook_event_name: 'SessionStart',
      source: 'startup',
    };
    await run(['hook', 'claude'], JSON.stringify(payload));
    await run(['next', 'Review a', '--agent', 'alice']);
    await run(['boot', '--agent', 'alice']);
    const names = readdirSync(join(dir, '.agent', 'log'));
    const patterns = documented();
    expect(patterns.length).toBeGreaterThan(5);
    expect(names.filter((n) => !patterns.some((p) => p.test(n)))).toEqual([]);
  });
});
