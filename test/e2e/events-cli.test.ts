import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitdir, runCli } from '../helpers/fixtures.js';

async function initialized(): Promise<string> {
  const repo = gitdir({ 'README.md': '# payments\n' });
  const init = await runCli(repo, ['init', '--goal', 'Fix the payment callback signature check']);
  expect(init.code).toBe(0);
  return repo;
}

async function ok(repo: string, args: string[], input?: string) {
  const result = await runCli(repo, args, { input });
  expect(result.stderr, args.join(' ')).toBe('');
  expect(result.code, args.join(' ')).toBe(0);
  return result.stdout;
}

const logOf = (repo: string) => join(repo, '.agent', 'log', 'events.jsonl');

describe('agent-state event / events / status', () => {
  it('the seed example: three grep events → 3 calls, 2 with nothing new, and the signal to stop widening', async () => {
    const repo = await initialized();
    expect(
      await ok(repo, [
        'event',
        'tool.finished',
        '--field',
        'name=grep',
        '--field',
        'new_results=2',
      ]),
    ).toMatch(/^Recorded #\d+ tool.finished\n$/);
    await ok(repo, ['event', 'tool.finished', '--field', 'name=grep', '--field', 'new_results=0']);
    await ok(repo, [
      'event',
      'tool.finished',
      '--json',
      '{"name":"grep","ok":true,"new_results":0}',
    ]);

    const status = JSON.parse(await ok(repo, ['status', '--json'])) as {
      anchor: string;
      plan: { total: number };
      events_seq: number;
      sections: { tools: { items: { name: string; calls: number; no_new_results: number }[] } };
      signals: { id: string; message: string }[];
    };
    expect(status.anchor).toBe('Fix the payment callback signature check');
    expect(status.plan.total).toBe(0);
    expect(status.sections.tools.items).toEqual([{ name: 'grep', calls: 3, no_new_results: 2 }]);
    expect(status.signals.map((s) => s.id)).toEqual(['search.no_new_results']);
    expect(status.signals[0]!.message).toMatch(
      /stop widening the search and read the files you found/,
    );

    const human = await ok(repo, ['status']);
    expect(human).toMatch(/^Tools +grep 3 calls, last 2 calls found nothing new$/m);
    expect(human).toMatch(/^\[warn\] 2 calls of grep in a row found nothing new/m);

    const xml = await ok(repo, ['status', '--format', 'xml']);
    expect(xml).toMatch(/^<agent-status source="agent-state" generated-at="[^"]+Z" seq="\d+">\n/);
    expect(xml).toContain('<tool name="grep" calls="3" no-new-results-in-a-row="2"/>');
    expect(xml).toContain('<signal id="search.no_new_results" level="warn">');
  });

  it('signals.no_new_results in config.yaml sets when "stop widening the search" is raised', async () => {
    type Status = { signals: { id: string; level: string; message: string }[] };
    const signalsOf = async (repo: string) =>
      (JSON.parse(await ok(repo, ['status', '--json'])) as Status).signals;
    const grepFoundNothing = (repo: string) =>
      ok(repo, ['event', 'tool.finished', '--field', 'name=Grep', '--field', 'new_results=0']);

    // The default threshold (2): two empty searches raise it.
    const byDefault = await initialized();
    await grepFoundNothing(byDefault);
    expect(await signalsOf(byDefault)).toEqual([]);
    await grepFoundNothing(byDefault);
    expect((await signalsOf(byDefault)).map((s) => s.id)).toEqual(['search.no_new_results']);

    // Threshold 3 in config.yaml (the other keys left to their defaults): two do not, three do.
    const repo = await initialized();
    writeFileSync(join(repo, '.agent', 'config.yaml'), 'signals:\n  no_new_results: 3\n');
    await grepFoundNothing(repo);
    await grepFoundNothing(repo);
    const afterTwo = JSON.parse(await ok(repo, ['status', '--json'])) as Status & {
      sections: { tools: { items: unknown[] } };
    };
    expect(afterTwo.sections.tools.items).toEqual([{ name: 'Grep', calls: 2, no_new_results: 2 }]);
    expect(afterTwo.signals).toEqual([]);
    await grepFoundNothing(repo);
    expect(await signalsOf(repo)).toEqual([
      {
        id: 'search.no_new_results',
        key: 'search.no_new_results:Grep',
        level: 'warn',
        message:
          '3 calls of Grep in a row found nothing new: stop widening the search and read the files you found.',
      },
    ]);
  });

  it('publishes deltas: only the environment after a cwd change, nothing twice, a baseline after a compaction', async () => {
    const repo = await initialized();
    await ok(repo, ['event', 'cwd.changed', '--field', 'cwd=/repo']);
    await ok(repo, [
      'event',
      'verification.finished',
      '--field',
      'passed=41',
      '--field',
      'failed=1',
    ]);
    const baseline = await ok(repo, ['status', '--publish', 'delta', '--consumer', 'claude']);
    expect(baseline).toMatch(/^<agent-status [^>]*kind="baseline" epoch="1">/);
    expect(baseline).toContain('<environment cwd="/repo"/>');
    expect(baseline).toContain('<verification passed="41" failed="1"/>');

    expect(await ok(repo, ['status', '--publish', 'delta', '--consumer', 'claude'])).toBe('');

    await ok(repo, ['event', 'cwd.changed', '--field', 'cwd=/repo/services/payment']);
    const delta = JSON.parse(
      await ok(repo, [
        'status',
        '--publish',
        'delta',
        '--consumer',
        'claude',
        '--format',
        'text',
        '--json',
      ]),
    ) as { kind: string; changed: string[]; removed: string[]; output: string };
    expect(delta).toMatchObject({ kind: 'delta', changed: ['environment'], removed: [] });
    expect(delta.output.split('\n').slice(1)).toEqual(['Environment: cwd /repo/services/payment']);
    expect(await ok(repo, ['status', '--publish', 'delta', '--consumer', 'claude'])).toBe('');

    // Another consumer has its own cursor.
    expect(await ok(repo, ['status', '--publish', 'delta', '--consumer', 'codex'])).toContain(
      'kind="baseline"',
    );

    await ok(repo, ['event', 'compaction', '--field', 'reason=auto']);
    const after = await ok(repo, ['status', '--publish', 'delta', '--consumer', 'claude']);
    expect(after).toMatch(/^<agent-status [^>]*kind="baseline" epoch="2">/);
    expect(after).toContain('<environment cwd="/repo/services/payment"/>');
    expect(await ok(repo, ['status', '--publish', 'delta', '--consumer', 'claude'])).toBe('');

    const reset = await ok(repo, [
      'status',
      '--publish',
      'delta',
      '--consumer',
      'claude',
      '--reset',
    ]);
    expect(reset).toMatch(/kind="baseline" epoch="3"/);
    const cursor = JSON.parse(
      readFileSync(join(repo, '.agent', 'log', 'publish-claude.json'), 'utf8'),
    ) as {
      epoch: number;
      strategy: string;
    };
    expect(cursor).toMatchObject({ epoch: 3, strategy: 'delta' });
  });

  it('the foundation commands record their facts', async () => {
    const repo = await initialized();
    await ok(repo, ['plan', 'add', 'Read the callback handler', '--id', 't1']);
    await ok(repo, ['plan', 'start', 't1']);
    await ok(repo, ['next', 'Read src/payment/callback.ts', '--stage', 'exploring']);
    await ok(repo, ['next', 'Read src/payment/callback.ts', '--stage', 'exploring']); // unchanged: no event
    await ok(repo, ['goal', 'Fix the payment callback signature check for refunds']);
    await ok(repo, ['plan', 'block', 't1', '--note', 'waiting for the key']);
    const { events } = JSON.parse(await ok(repo, ['events', '--json'])) as {
      events: Record<string, unknown>[];
    };
    expect(events.map((e) => [e.seq, e.type, e.actor])).toEqual([
      [1, 'task.created', 'system'],
      [2, 'plan.updated', 'system'],
      [3, 'step.started', 'system'],
      [4, 'task.updated', 'system'],
      [5, 'task.updated', 'system'],
      [6, 'plan.updated', 'system'],
    ]);
    expect(events[0]).toMatchObject({ goal: 'Fix the payment callback signature check' });
    expect(events[2]).toMatchObject({
      step: 't1',
      title: 'Read the callback handler',
      plan: { total: 1, running: 1 },
    });
    expect(events[3]).toMatchObject({
      stage: 'exploring',
      next_action: 'Read src/payment/callback.ts',
    });
    expect(events[5]).toMatchObject({ item: 't1', status: 'blocked' });
    expect(await ok(repo, ['events', '--type', 'task.*', '--limit', '1'])).toMatch(
      /^#5 {2}\S+ {2}task.updated {2}\(system\) {2}goal="Fix the payment callback signature check for refunds"\n$/,
    );
  });

  it('`current` records the step it sets and the one it clears, and nothing when unchanged', async () => {
    const repo = await initialized();
    await ok(repo, ['current', '--objective', 'Verify refund signatures']);
    await ok(repo, ['current', '--objective', 'Verify refund signatures']); // unchanged: no event
    await ok(repo, ['current', '--deny-tools', 'WebFetch']); // a limit, same objective
    await ok(repo, ['current', '--clear']);
    await ok(repo, ['current']); // only shows it
    const { events } = JSON.parse(
      await ok(repo, ['events', '--type', 'task.updated', '--json']),
    ) as {
      events: Record<string, unknown>[];
    };
    expect(events.map((e) => e.current_step)).toEqual([
      'Verify refund signatures',
      'Verify refund signatures',
      '',
    ]);
    expect(await ok(repo, ['events', '--type', 'task.updated', '--limit', '1'])).toMatch(
      /task.updated {2}\(system\) {2}current_step=""\n$/,
    );
  });

  it('a log that cannot be written warns but never fails the command', async () => {
    const repo = await initialized();
    rmSync(join(repo, '.agent', 'log'), { recursive: true, force: true });
    writeFileSync(join(repo, '.agent', 'log'), 'not a directory\n');
    const result = await runCli(repo, ['plan', 'add', 'Still works', '--id', 't1']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Added t1: Still works\n');
    expect(result.stderr).toMatch(
      /^warning: .*could not record the plan.updated event .*the command itself succeeded\n$/,
    );
    expect(readFileSync(join(repo, '.agent', 'state', 'progress.yaml'), 'utf8')).toContain(
      'Still works',
    );
  });

  it('reads events from stdin (one object or JSON Lines) and prints them with --json', async () => {
    const repo = await initialized();
    const single = JSON.parse(
      await ok(
        repo,
        ['event', 'tool.started', '--stdin', '--json'],
        '{"name":"bash","id":"call-1"}',
      ),
    ) as { events: { seq: number; type: string; actor: string; id: string }[] };
    expect(single.events).toEqual([
      expect.objectContaining({ type: 'tool.started', actor: 'tool', id: 'call-1' }),
    ]);
    const lines = [
      '{"type":"tool.finished","name":"bash","ok":false,"causation_id":"call-1"}',
      '{"type":"permission.denied","permission":"Bash(rm -rf /)"}',
      '',
    ].join('\n');
    expect(await ok(repo, ['event', '--stdin'], lines)).toMatch(
      /^Recorded #3 tool.finished\nRecorded #4 permission.denied\n$/,
    );
    const status = JSON.parse(await ok(repo, ['status', '--json'])) as {
      sections: { tools: unknown; permissions: unknown };
    };
    expect(status.sections.tools).toEqual({
      items: [{ name: 'bash', calls: 1, failures: 1, consecutive_failures: 1 }],
      more: 0,
    });
    expect(status.sections.permissions).toEqual({
      requested: 0,
      granted: 0,
      denied: 1,
      last_denied: 'Bash(rm -rf /)',
    });
  });

  it('bad input: one line naming the problem, exit 2, the log unchanged', async () => {
    const repo = await initialized();
    await ok(repo, ['event', 'boot']);
    const before = readFileSync(logOf(repo));
    const cases: [string[], RegExp, string?][] = [
      [['event', 'tool.finished', '--field', 'new_results=0'], /field "name" is required/],
      [
        ['event', 'tool.finished', '--field', 'name=grep', '--field', 'ok=maybe'],
        /field "ok" must be true or false/,
      ],
      [['event', 'tool.finished', '--field', 'name'], /--field needs key=value/],
      [['event'], /event needs a TYPE/],
      [['event', 'tool.started', '--json', '{"name":'], /--json is not valid JSON/],
      [['event', 'tool.started', '--stdin'], /stdin:2 is not valid JSON/, '{"name":"a"}\n{oops}\n'],
      [
        ['event', 'tool.started', '--actor', 'robot'],
        /option '--actor <actor>' argument 'robot' is invalid. Allowed choices are user, agent, system, tool\./,
      ],
      [['event', 'tool.started', '--bogus'], /unknown option '--bogus'/],
      [['status', '--format', 'html'], /--format must be one of text, xml, markdown, json/],
      [['status', '--publish', 'sometimes'], /--publish must be one of append, replace, delta/],
      [['status', '--reset'], /--consumer and --reset only apply with --publish/],
      [['status', '--publish', 'delta', '--consumer', '../x'], /invalid consumer name/],
      [['events', '--limit', '0'], /--limit must be a whole number of 1 or more/],
    ];
    for (const [args, message, input] of cases) {
      const result = await runCli(repo, args, { input });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    const json = await runCli(repo, ['event', 'tool.finished', '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'USAGE', exit_code: 2 } });
    expect(readFileSync(logOf(repo))).toEqual(before);
  });

  it('works from a subdirectory and with --cwd; exits 3 before init', async () => {
    const repo = await initialized();
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    await ok(join(repo, 'src', 'deep'), ['event', 'boot']);
    await ok(join(repo, 'src'), ['-C', repo, 'event', 'boot', '--field', 'level=2']);
    await ok(repo, ['--cwd=src', 'event', 'cwd.changed', '--field', 'cwd=src']);
    expect(readFileSync(logOf(repo), 'utf8').trim().split('\n')).toHaveLength(4);
    const bare = gitdir();
    const result = await runCli(bare, ['event', 'boot']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^agent-state: no \.agent\/ directory found .*agent-state init/);
  });

  it('8 CLI processes appending at once never share a seq', async () => {
    const repo = await initialized();
    const writer = async (who: number) => {
      for (let i = 0; i < 6; i++)
        await ok(repo, [
          'event',
          'tool.finished',
          '--field',
          `name=w${who}`,
          '--field',
          `i=${i}`,
          '-q',
        ]);
    };
    await Promise.all(Array.from({ length: 8 }, (_, who) => writer(who)));
    const lines = readFileSync(logOf(repo), 'utf8').trim().split('\n');
    const seqs = lines.map((l) => (JSON.parse(l) as { seq: number }).seq);
    expect(seqs).toEqual(Array.from({ length: 49 }, (_, i) => i + 1)); // task.created + 48
  }, 120_000);

  it('rotates from both bundles, re-reading config.yaml when it changes, and keeps every count', async () => {
    const repo = await initialized();
    const config = join(repo, '.agent', 'config.yaml');
    const setConfig = (key: string, value: number) =>
      writeFileSync(
        config,
        readFileSync(config, 'utf8').replace(new RegExp(`(\\n\\s*${key}: ).*`), `$1${value}`),
      );
    const batch = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        JSON.stringify({ type: 'tool.finished', name: 'read', i, pad: 'x'.repeat(60) }),
      ).join('\n');
    await ok(repo, ['event', '--stdin', '-q'], batch(60)); // > 4 KiB, but the default is 10 MiB
    expect(existsSync(join(repo, '.agent', 'log', 'events.1.jsonl'))).toBe(false);
    setConfig('rotate_bytes', 4096);
    await ok(repo, ['plan', 'add', 'Rotate from the full program', '--id', 't1']); // main bundle re-reads config
    expect(existsSync(join(repo, '.agent', 'log', 'events.1.jsonl'))).toBe(true);
    setConfig('keep', 3);
    await ok(repo, ['event', '--stdin', '-q'], batch(60)); // the fast path re-reads config
    expect(existsSync(join(repo, '.agent', 'log', 'events.2.jsonl'))).toBe(true);
    const status = JSON.parse(await ok(repo, ['status', '--json'])) as {
      plan: { total: number };
      sections: { tools: { items: { name: string; calls: number }[] } };
    };
    expect(status.sections.tools.items).toEqual([{ name: 'read', calls: 120 }]);
    const first = JSON.parse(readFileSync(logOf(repo), 'utf8').split('\n')[0]!) as { type: string };
    expect(first.type).toBe('log.rotated');
  });

  it('--help documents the command, its --json JSON and an example', async () => {
    const repo = await initialized();
    const help = await ok(repo, ['event', '--help']);
    expect(help).toMatch(/Usage: agent-state event \[options\] \[type\]/);
    expect(help).toContain('--json JSON');
    expect(help).toContain(
      '$ agent-state event tool.finished --field name=grep --field new_results=0',
    );
    expect(await ok(repo, ['status', '--help'])).toContain('--publish <strategy>');
  });
});
