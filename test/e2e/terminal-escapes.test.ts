// A plan title like $'\e]0;pwned\a\e[2J' (a git pull can bring one, an agent can write one) must
// not drive the terminal that prints it, nor reach a model as raw control characters: every output
// shows visible stand-ins (␛ ␇ …), and the stored text stays exactly as it was written.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTROL } from '../helpers/controls.js';
import { gitdir, runCli, writeFiles, type CliResult } from '../helpers/fixtures.js';

// ESC sequences (window title, clear screen), BEL, a lone CR (overwrites the line), C1 CSI, DEL
// and a right-to-left override: everything a terminal obeys.
const HOSTILE = '\u001b]0;pwned\u0007\u001b[2J\rX\u009b31m\u007f\u202eevil';

function expectClean(result: CliResult, what: string): void {
  expect(result.code, `${what}: ${result.stderr}`).toBe(0);
  expect(CONTROL.exec(result.stdout), `${what} stdout`).toBeNull();
  expect(CONTROL.exec(result.stderr), `${what} stderr`).toBeNull();
}

// Every string of a parsed JSON value, keys included.
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => [k, ...strings(v)]);
  return [];
}

describe('control characters on output', () => {
  let repo: string;
  beforeAll(async () => {
    repo = gitdir({ 'src/a.ts': 'export const a = 1;\n' });
    expect((await runCli(repo, ['init', '--goal', 'Escapes'])).code).toBe(0);
    writeFiles(repo, {
      '.agent/state/goals.md': `# Escapes\n\nShip it ${HOSTILE}.\n\n## Notes ${HOSTILE}\n\n- a note ${HOSTILE}\n`,
    });
    const writes = [
      ['plan', 'add', `Title ${HOSTILE}`, '--id', 't1'],
      ['plan', 'start', 't1'],
      ['next', `Next ${HOSTILE}`],
      ['memory', 'add', `Memory ${HOSTILE}`],
      ['remind', `Remind ${HOSTILE}`],
      ['evidence', 'add', '--kind', 'note', '--summary', `Evidence ${HOSTILE}`],
      ['event', 'tool.finished', '--field', `name=tool${HOSTILE}`],
    ];
    for (const args of writes) expect((await runCli(repo, args)).code, args.join(' ')).toBe(0);
  });

  it('stores the text exactly as written', () => {
    const progress = readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8');
    // YAML writes them as escapes in a double-quoted scalar (\e, \a, \r); a title folds the CR.
    expect(progress).toMatch(/Title \\e\]0;pwned\\a\\e\[2J X/);
    expect(progress).toMatch(/Next \\e\]0;pwned\\a\\e\[2J\\rX/);
    const events = readFileSync(join(repo, '.agent/log/events.jsonl'), 'utf8');
    expect(events).toContain(JSON.stringify(`tool${HOSTILE}`).slice(1, -1));
  });

  it('neutralises them in every command that prints state, in every format', async () => {
    const commands = [
      ['status'],
      ['status', '--format', 'text'],
      ['status', '--format', 'xml'],
      ['status', '--format', 'markdown'],
      ['status', '--format', 'json'],
      ['status', '--json'],
      ['plan', 'list'],
      ['plan', 'list', '--json'],
      ['next'],
      ['current'],
      ['memory', 'list'],
      ['remind'],
      ['evidence', 'list'],
      ['evidence', 'show', readdirSync(join(repo, '.agent/state/evidence'))[0]!],
      ['events'],
      ['events', '--json'],
      ['boot', '--dry-run', '--fast'],
      ['boot', '--dry-run', '--fast', '--format', 'xml'],
      ['boot', '--dry-run', '--fast', '--format', 'json'],
      ['boot', '--dry-run', '--fast', '--json'],
    ];
    for (const args of commands) expectClean(await runCli(repo, args), args.join(' '));
    const status = await runCli(repo, ['status']);
    expect(status.stdout).toContain('Next ␛]0;pwned␇␛[2J␍X');
  });

  it('neutralises them in the statusline', async () => {
    const line = await runCli(repo, ['statusline'], { input: JSON.stringify({ cwd: repo }) });
    expectClean(line, 'statusline');
    expect(line.stdout).toContain('next: Next ␛]0;pwned');
  });

  it("sends none to the model through the hosts' hooks", async () => {
    const start = await runCli(repo, ['hook', 'claude'], {
      input: JSON.stringify({ hook_event_name: 'SessionStart', source: 'startup', cwd: repo }),
    });
    expectClean(start, 'hook claude SessionStart');
    const context = JSON.parse(start.stdout) as {
      hookSpecificOutput: { additionalContext: string };
    };
    expect(context.hookSpecificOutput.additionalContext).toContain('Title ␛]0;pwned');
    for (const text of strings(context)) expect(CONTROL.exec(text), text).toBeNull();

    const gemini = await runCli(repo, ['hook', 'gemini'], {
      input: JSON.stringify({
        hook_event_name: 'SessionStart',
        source: 'startup',
        cwd: repo,
        session_id: 's',
      }),
    });
    expectClean(gemini, 'hook gemini SessionStart');
    for (const text of strings(JSON.parse(gemini.stdout))) expect(CONTROL.exec(text)).toBeNull();
  });
});
