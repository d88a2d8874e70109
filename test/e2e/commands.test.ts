// The foundation commands end to end: the CLI, real temp repo, exit codes, stdout and --json.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { gitdir, runCli } from '../helpers/fixtures.js';

describe('plan, next, goal, status', () => {
  let repo: string;
  const json = async (args: string[]) => {
    const result = await runCli(repo, [...args, '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    return JSON.parse(result.stdout) as Record<string, unknown>;
  };

  beforeAll(async () => {
    repo = gitdir({ 'src/a.ts': 'export {};\n' });
    expect((await runCli(repo, ['init', '--goal', 'Ship pagination'])).code).toBe(0);
  });

  // The ids the tool gives, read back from its answers (random: no two branches pick the same).
  let first = '';
  let second = '';
  let third = '';

  it('adds plan items with short random ids, inserting --after', async () => {
    const added = (await json(['plan', 'add', 'First'])) as { item: { id: string } };
    expect(added).toMatchObject({ item: { title: 'First', status: 'pending' }, revision: 1 });
    first = added.item.id;
    expect(first).toMatch(/^t-[0-9a-z]{5}$/);
    third = ((await json(['plan', 'add', 'Third'])) as { item: { id: string } }).item.id;
    const inserted = (await json([
      'plan',
      'add',
      'Second',
      '--after',
      first,
      '--depends-on',
      first,
    ])) as { item: { id: string } };
    expect(inserted).toMatchObject({ item: { depends_on: [first] } });
    second = inserted.item.id;
    expect(new Set([first, second, third]).size).toBe(3);
    await json(['plan', 'add', 'Custom', '--id', 'docs']);
    const list = (await json(['plan', 'list'])) as { plan: { id: string }[] };
    expect(list.plan.map((p) => p.id)).toEqual([first, second, third, 'docs']);
  });

  it('changes statuses with notes and makes a started item the current step', async () => {
    expect(await json(['plan', 'start', first])).toMatchObject({
      item: { status: 'running' },
      changed: true,
    });
    expect(await json(['plan', 'start', first])).toMatchObject({ changed: false });
    expect(await json(['plan', 'block', second, '--note', 'needs a decision'])).toMatchObject({
      item: { status: 'blocked', note: 'needs a decision' },
    });
    await json(['plan', 'skip', 'docs']);
    const human = await runCli(repo, ['plan', 'list']);
    expect(human.stdout).toBe(
      [
        `[>] ${first}  First`,
        `[!] ${second}  Second (after ${first}) — needs a decision`,
        `[ ] ${third}  Third`,
        '[-] docs     Custom',
        '',
      ].join('\n'),
    );
    const text = readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8');
    expect(text).toContain(`current_step:\n  id: ${first}\n  objective: First`);
  });

  it('sets and shows the next action and stage', async () => {
    expect(await json(['next', 'Write the test', '--stage', 'implementing'])).toEqual({
      stage: 'implementing',
      next_action: 'Write the test',
      changed: true,
    });
    expect(await json(['next'])).toEqual({
      stage: 'implementing',
      next_action: 'Write the test',
      changed: false,
    });
    expect((await runCli(repo, ['next'])).stdout).toBe('Write the test  [stage: implementing]\n');
  });

  it('shows and sets the goal anchor, touching only that paragraph', async () => {
    const file = join(repo, '.agent/state/goals.md');
    const before = readFileSync(file, 'utf8');
    expect(await json(['goal'])).toMatchObject({ anchor: 'Ship pagination', changed: false });
    expect(await json(['goal', 'Ship pagination and docs'])).toMatchObject({
      anchor: 'Ship pagination and docs',
      changed: true,
    });
    expect(readFileSync(file, 'utf8')).toBe(
      before.replace('Ship pagination', 'Ship pagination and docs'),
    );
  });

  it('summarizes the task in status', async () => {
    const status = await json(['status']);
    expect(status).toMatchObject({
      anchor: 'Ship pagination and docs',
      stage: 'implementing',
      next_action: 'Write the test',
      plan: { total: 4, running: 1, blocked: 1, pending: 1, skipped: 1, done: 0 },
      checkpoints: 0,
      last_checkpoint: null,
      boots: 0,
    });
    const human = await runCli(join(repo, 'src'), ['status']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^Goal {3}Ship pagination and docs$/m);
    expect(human.stdout).toMatch(/^Plan {3}4 items: 1 pending, 1 running, 1 blocked, 1 skipped$/m);
  });

  it('validates every file and reports ok', async () => {
    const result = await json(['validate']);
    expect(result.ok).toBe(true);
    expect((result.files as { file: string }[]).map((f) => f.file)).toEqual([
      '.agent/config.yaml',
      '.agent/state/goals.md',
      '.agent/state/progress.yaml',
      '.agent/state/evidence/',
    ]);
  });

  it('honours --quiet, --cwd, --version and --help', async () => {
    const quiet = await runCli(repo, ['plan', 'add', 'Silent', '-q']);
    expect(quiet).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const elsewhere = gitdir();
    const viaCwd = await runCli(elsewhere, ['--cwd', repo, 'next']);
    expect(viaCwd.stdout).toBe('Write the test  [stage: implementing]\n');
    const version = await runCli(repo, ['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    for (const command of [
      [],
      ['init'],
      ['status'],
      ['goal'],
      ['next'],
      ['plan'],
      ['plan', 'add'],
      ['plan', 'block'],
      ['plan', 'list'],
      ['plan', 'needs'],
      ['plan', 'ready'],
      ['import'],
      ['validate'],
    ]) {
      const help = await runCli(repo, [...command, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/Examples?:\n\s+\$ agent-state /);
    }
  });

  it('prints help for `help [command]` with exit 0, and with exit 2 when a command is missing', async () => {
    for (const args of [['help'], ['help', 'status'], ['help', 'plan']]) {
      const result = await runCli(repo, args);
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stdout).toMatch(/^Usage: agent-state /);
    }
    // No command, or a group without its subcommand, is a usage mistake: help on stderr, exit 2.
    for (const args of [[], ['plan']]) {
      const result = await runCli(repo, args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^Usage: agent-state /);
    }
  });

  it('colors only when asked', async () => {
    const ESC = String.fromCharCode(27);
    const plain = await runCli(repo, ['status'], { env: { NO_COLOR: '', FORCE_COLOR: '' } });
    expect(plain.stdout).not.toContain(`${ESC}[`);
    const forced = await runCli(repo, ['status'], { env: { NO_COLOR: '', FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain(`${ESC}[`);
    const off = await runCli(repo, ['status', '--no-color'], {
      env: { NO_COLOR: '', FORCE_COLOR: '1' },
    });
    expect(off.stdout).not.toContain(`${ESC}[`);
  });

  it('turns colours off with NO_COLOR alone, even with FORCE_COLOR set', async () => {
    const ESC = String.fromCharCode(27);
    const forced = await runCli(repo, ['status'], {
      env: { NO_COLOR: '', FORCE_COLOR: '1' },
    });
    expect(forced.stdout).toContain(`${ESC}[`);
    const noColor = await runCli(repo, ['status'], {
      env: { NO_COLOR: '1', FORCE_COLOR: '1' },
    });
    expect(noColor.code).toBe(0);
    expect(noColor.stdout).not.toContain(`${ESC}[`);
    // The same text, only without the escapes.
    expect(noColor.stdout).toBe(forced.stdout.replace(new RegExp(`${ESC}\\[[0-9;]*m`, 'g'), ''));
  });
});

describe('plan fail and reset', () => {
  it('fails an item with a note and resets it to pending', async () => {
    const repo = gitdir();
    expect((await runCli(repo, ['init'])).code).toBe(0);
    const json = async (args: string[]) => {
      const result = await runCli(repo, [...args, '--json']);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      return JSON.parse(result.stdout) as Record<string, unknown>;
    };
    await json(['plan', 'add', 'Flaky step', '--id', 'flaky']);
    expect(
      await json(['plan', 'fail', 'flaky', '--note', 'upstream API returns 500']),
    ).toMatchObject({
      item: { id: 'flaky', status: 'failed', note: 'upstream API returns 500' },
      changed: true,
    });
    const status = (id: string) =>
      json(['plan', 'list']).then((list) =>
        (list.plan as { id: string; status: string; note?: string }[]).find((p) => p.id === id),
      );
    expect(await status('flaky')).toEqual({
      id: 'flaky',
      title: 'Flaky step',
      status: 'failed',
      note: 'upstream API returns 500',
    });
    expect((await runCli(repo, ['plan', 'list'])).stdout).toContain(
      '[F] flaky  Flaky step — upstream API returns 500\n',
    );
    expect(await json(['plan', 'reset', 'flaky'])).toMatchObject({
      item: { status: 'pending' },
      changed: true,
    });
    // Without --note the note stays; an empty --note removes it.
    expect(await status('flaky')).toMatchObject({
      status: 'pending',
      note: 'upstream API returns 500',
    });
    await json(['plan', 'reset', 'flaky', '--note', '']);
    expect(await status('flaky')).toEqual({ id: 'flaky', title: 'Flaky step', status: 'pending' });
    expect(readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8')).toMatch(
      /- id: flaky\n {4}title: Flaky step\n {4}status: pending\n/,
    );
  });
});

describe('the current step ends with its plan item', () => {
  it('after `done t1` (or `plan skip`), status no longer shows it as the current step', async () => {
    const repo = gitdir();
    expect((await runCli(repo, ['init', '--goal', 'Finish steps'])).code).toBe(0);
    for (const [i, title] of ['One', 'Two', 'Three'].entries())
      expect((await runCli(repo, ['plan', 'add', title, '--id', `t${i + 1}`])).code).toBe(0);
    await runCli(repo, ['plan', 'start', 't1']);
    await runCli(repo, ['current', '--scope', 'src/**']);
    expect((await runCli(repo, ['status'])).stdout).toMatch(/^Step +t1 One$/m);
    expect((await runCli(repo, ['done', 't1'])).code).toBe(0);
    const after = await runCli(repo, ['status', '--json']);
    expect(JSON.parse(after.stdout)).toMatchObject({ current_step: null });
    expect((await runCli(repo, ['status'])).stdout).not.toMatch(/^Step /m);
    // Done for another item leaves the current step alone; skipping the current one ends it.
    await runCli(repo, ['plan', 'start', 't2']);
    await runCli(repo, ['done', 't3']);
    expect((await runCli(repo, ['status'])).stdout).toMatch(/^Step +t2 Two$/m);
    await runCli(repo, ['plan', 'skip', 't2']);
    expect((await runCli(repo, ['status'])).stdout).not.toMatch(/^Step /m);
  });
});

describe('plan retitle and remove', () => {
  it('retitles an item, and removes one with its marker, the dependencies on it and its step', async () => {
    const many = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`lib/f${i}.ts`, `export const f${i} = ${i};\n`]),
    );
    const repo = gitdir({ 'src/a.ts': 'export {};\n', ...many });
    const run = async (...args: string[]) => {
      const result = await runCli(repo, args);
      expect(result.code, result.stderr).toBe(0);
      return result.stdout;
    };
    await run('init', '--goal', 'Ship pagination');
    await run('plan', 'add', 'Wrte the parser', '--id', 't1');
    await run('plan', 'add', 'Use it', '--depends-on', 't1', '--id', 't2');
    expect(await run('plan', 'retitle', 't1', 'Write the parser')).toBe(
      'Retitled t1: Write the parser\n',
    );
    await run('done', 't1', '--files', 'src/a.ts');
    await run('plan', 'start', 't2');
    expect(await run('plan', 'remove', 't1')).toBe('Removed t1: Write the parser\n');
    await run('plan', 'add', 'Held by alice', '--id', 't3');
    await run('--agent', 'alice', 'plan', 'claim', 't3');
    const held = await runCli(repo, ['--agent', 'bob', 'plan', 'remove', 't3']);
    expect(held.code).toBe(4);
    expect(held.stderr).toContain('claimed by alice');
    await run('--agent', 'bob', 'plan', 'remove', 't3', '--force');
    // A marker over many files keeps its list beside progress.yaml: removed with the item.
    await run('done', 't2', '--files', 'lib/**');
    const lists = () => readdirSync(join(repo, '.agent/state/markers'));
    expect(lists()).toHaveLength(1);
    await run('plan', 'remove', 't2');
    expect(lists()).toEqual([]);
    const progress = readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8');
    expect(progress).not.toMatch(/\bt1\b/);
    expect(progress).toMatch(/current_step: null/);
    await run('validate');
    const missing = await runCli(repo, ['plan', 'remove', 't9']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no plan item "t9"');
    expect((await runCli(repo, ['plan', 'retitle', 't9', ' '])).code).toBe(2);
  });
});
