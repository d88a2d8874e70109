// `agent-state ui` (the real bin, until Ctrl-C) and `agent-state report --html` (the CLI): what they print, their
// exit codes, the server's refusals, and that neither writes anything but the report file.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { gitdir, runCli, testdir } from '../helpers/fixtures.js';
import { rawGet, startUi } from '../helpers/ui-server.js';

// A small task: a plan, a done step, evidence with a raw artifact, a checkpoint.
async function task(): Promise<string> {
  const dir = gitdir({ 'src/a.js': 'export const a = 1;\n' });
  const steps: string[][] = [
    ['init', '--goal', 'Show the state <b>safely</b>', '--test', 'node -e 0'],
    ['plan', 'add', 'First step', '--id', 't1'],
    ['plan', 'add', 'Second step', '--id', 't2'],
    ['plan', 'start', 't1'],
    ['done', 't1', '--files', 'src/a.js'],
    ['next', 'Do the second step'],
    ['checkpoint', '-m', 'First checkpoint'],
  ];
  for (const args of steps) {
    const result = await runCli(dir, args);
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
  }
  return dir;
}

// Every file under .agent/ with its hash (what "writes nothing" is checked against).
function agentFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel))) {
      const path = `${rel}/${name}`;
      if (statSync(join(dir, path)).isDirectory()) walk(path);
      else
        out[path] = createHash('sha256')
          .update(readFileSync(join(dir, path)))
          .digest('hex');
    }
  };
  walk('.agent');
  return out;
}

// Built once for the tests that only read it (each checks that nothing under .agent/ moved).
let shared: string;
beforeAll(async () => {
  shared = await task();
}, 120_000);

describe('agent-state report --html', () => {
  it('writes one self-contained file and nothing else', async () => {
    const dir = shared;
    const before = agentFiles(dir);
    const out = join(testdir(), 'r.html');
    const result = await runCli(dir, ['report', '--html', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Wrote .*r\.html \(\d+ KB, \d+ events through #\d+\)\.\n$/);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('Show the state &lt;b&gt;safely&lt;/b&gt;');
    expect(html).not.toMatch(/<(link|script|img)[^>]+(src|href)="https?:/);
    expect(html).toContain("default-src 'none'".replace(/'/g, '&#39;'));
    expect(agentFiles(dir)).toEqual(before);
  });

  it('prints its result as JSON with --json', async () => {
    const dir = shared;
    const out = join(testdir(), 'out.html');
    const result = await runCli(dir, ['report', '--html', out, '--json']);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({ file: out, events: expect.any(Number) });
    expect(json.bytes).toBe(statSync(out).size);
  });

  it('says what is wrong with its arguments (exit 2) and needs a task (exit 3)', async () => {
    const dir = shared;
    const missing = await runCli(dir, ['report']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('report needs --html FILE');
    const folder = await runCli(dir, ['report', '--html', 'no/such/dir/r.html']);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toMatch(/is not a directory/);
    const events = await runCli(dir, ['report', '--html', 'r.html', '--events', '0']);
    expect(events.code).toBe(2);
    expect(existsSync(join(dir, 'r.html'))).toBe(false);
    const outside = await runCli(testdir(), ['report', '--html', 'r.html']);
    expect(outside.code).toBe(3);
    for (const r of [missing, folder, events]) expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('agent-state ui', () => {
  it('serves the page with the token, refuses without it or for another host, writes nothing', async () => {
    const dir = shared;
    const before = agentFiles(dir);
    const ui = await startUi(dir);
    try {
      expect(ui.stdout()).toContain('Serving the task state (read-only) at');
      expect(ui.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32}$/);
      const page = await fetch(ui.url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(await page.text()).toContain('Show the state &lt;b&gt;safely&lt;/b&gt;');
      const model = await (await fetch(`${ui.base}api/model?token=${ui.token}`)).json();
      expect(model.plan.map((i: { id: string }) => i.id)).toEqual(['t1', 't2']);
      expect(model.checkpoints[0].summary).toBe('First checkpoint');
      expect(model.checkpoints[0].head).toMatch(/^[0-9a-f]{40}$/);
      expect((await fetch(ui.base)).status).toBe(403);
      // One character off (never the token itself: a random token may start with x).
      const wrong = `${ui.token!.startsWith('x') ? 'y' : 'x'}${ui.token!.slice(1)}`;
      expect((await fetch(`${ui.base}?token=${wrong}`)).status).toBe(403);
      const foreign = await rawGet(ui.port, `/?token=${ui.token}`, { Host: 'attacker.example' });
      expect(foreign.status).toBe(403);
      const post = await rawGet(ui.port, `/?token=${ui.token}`, {}, 'POST');
      expect(post.status).toBe(405);
      const timeline = await fetch(
        `${ui.base}api/timeline?token=${ui.token}&types=checkpoint.created`,
      );
      expect((await timeline.json()).rows).toContain('First checkpoint');
      expect(agentFiles(dir)).toEqual(before);
    } finally {
      expect(await ui.stop()).toBe(0);
    }
  });

  it('serves raw artifacts as plain text, and nothing outside .agent/artifacts/', async () => {
    const dir = shared;
    const artifact = readdirSync(join(dir, '.agent', 'artifacts'))[0]!;
    writeFileSync(join(dir, '.secret.txt'), 'not for the page');
    const ui = await startUi(dir);
    try {
      const get = (path: string) =>
        fetch(`${ui.base}artifact?token=${ui.token}&path=${encodeURIComponent(path)}`);
      const ok = await get(`.agent/artifacts/${artifact}`);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(ok.headers.get('content-security-policy')).toContain('sandbox');
      for (const path of [
        '.secret.txt',
        '.agent/artifacts/../../.secret.txt',
        '/etc/passwd',
        '.agent/state/goals.md',
      ])
        expect((await get(path)).status, path).toBe(404);
    } finally {
      await ui.stop();
    }
  });

  it('streams updates: a change of the state is sent to an open stream', async () => {
    const dir = await task();
    const ui = await startUi(dir);
    try {
      const response = await fetch(`${ui.base}api/stream?token=${ui.token}`);
      const reader = response.body!.getReader();
      let text = '';
      type Update = { sections: Record<string, string> };
      const updates = () =>
        [...text.matchAll(/event: update\ndata: (.*)\n/g)].map((m) => JSON.parse(m[1]!) as Update);
      // Reads the stream until one update satisfies `done`.
      const until = async (done: (u: Update) => boolean) => {
        while (!updates().some(done)) text += new TextDecoder().decode((await reader.read()).value);
      };
      await until((u) => 'goal' in u.sections);
      text = '';
      await runCli(dir, ['next', 'Streamed next action']);
      // The log and progress.yaml may be seen in two refreshes: the new next action comes in one.
      await until((u) => u.sections.now?.includes('Streamed next action') === true);
      // Only what changed is sent: the goal did not.
      for (const u of updates()) expect(Object.keys(u.sections)).not.toContain('goal');
      await reader.cancel();
    } finally {
      await ui.stop();
    }
  });

  it('warns for --host beyond loopback and for --no-token; prints a ready line with --json', async () => {
    const dir = shared;
    const open = await startUi(dir, ['--no-token', '--host', '0.0.0.0', '--json']);
    try {
      const ready = JSON.parse(open.stdout().split('\n')[0]!);
      expect(ready).toMatchObject({ type: 'ready', host: '0.0.0.0', port: open.port });
      expect(open.token).toBeNull();
      expect((await fetch(open.base)).status).toBe(200);
      await expect.poll(() => open.stderr()).toContain('listening on 0.0.0.0');
      expect(open.stderr()).toContain('--no-token');
    } finally {
      await open.stop();
    }
  });

  it('refuses a bad --port (exit 2) and a port in use (exit 2), and needs a task (exit 3)', async () => {
    const dir = shared;
    const bad = await runCli(dir, ['ui', '--port', 'eighty']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--port eighty is not a port number');
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const taken = await runCli(dir, ['ui', '--port', String(port)]);
      expect(taken.code).toBe(2);
      expect(taken.stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
    } finally {
      busy.close();
    }
    expect((await runCli(testdir(), ['ui'])).code).toBe(3);
  });
});

describe('what the page reads from the log', () => {
  it('a boot records what it left out, with the command that shows it', async () => {
    const dir = gitdir();
    expect((await runCli(dir, ['init', '--goal', 'Boot small'])).code).toBe(0);
    for (let i = 0; i < 6; i++) {
      const added = await runCli(dir, [
        'evidence',
        'add',
        '--kind',
        'note',
        '--summary',
        `Note ${i}`,
        '--body',
        `${'detail '.repeat(300)}`,
      ]);
      expect(added.code).toBe(0);
    }
    const boot = await runCli(dir, ['boot', '--level', '3', '--budget', '900', '--fast']);
    expect(boot.code, boot.stderr).toBe(0);
    const events = JSON.parse((await runCli(dir, ['events', '--type', 'boot', '--json'])).stdout);
    const omitted = events.events.at(-1).omitted as { kind: string; how: string }[];
    expect(omitted.length).toBeGreaterThan(0);
    expect(omitted.map((o) => o.kind)).toContain('evidence_body');
    expect(omitted.find((o) => o.kind === 'evidence_body')?.how).toContain(
      'agent-state evidence show',
    );
  });
});
