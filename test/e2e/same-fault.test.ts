// One error mapper (src/error-report.ts): the same fault gives the same code and the same message
// on every route — the lean route (event, boot), the commander program (status), the git hooks
// (hook pre-commit) and the host hooks (hook claude, which exit 0 and say it on stderr).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitdir, runCli } from '../helpers/fixtures.js';

describe('the same fault on every route', () => {
  it('.agent/log replaced by a file: IO, exit 70, the path named — never "this is a bug"', async () => {
    const repo = gitdir({ 'README.md': '# x\n' });
    expect((await runCli(repo, ['init', '--goal', 'Ship it'])).code).toBe(0);
    rmSync(join(repo, '.agent', 'log'), { recursive: true, force: true });
    writeFileSync(join(repo, '.agent', 'log'), 'not a folder\n');
    // The path and the errno of the operation that met the file (a mkdir or a stat of the log).
    const message = /cannot access \S*\.agent\/log(\/events\.jsonl)?: E(NOTDIR|EXIST)/;

    for (const args of [
      ['event', 'tool.finished', '--field', 'name=Read', '--field', 'ok=true', '--json'],
      ['status', '--json'],
      ['boot', '--fast', '--json'],
    ]) {
      const result = await runCli(repo, args);
      expect(result.code, args.join(' ')).toBe(70);
      const { error } = JSON.parse(result.stdout) as { error: { code: string; message: string } };
      expect(error.code, args.join(' ')).toBe('IO');
      expect(error.message).toMatch(message);
      expect(result.stderr).not.toMatch(/this is a bug|\n\s+at /);
    }

    const hook = await runCli(repo, ['hook', 'claude'], {
      input: JSON.stringify({
        session_id: 's',
        cwd: repo,
        hook_event_name: 'PostToolUse',
        tool_name: 'Read',
        tool_input: { file_path: 'README.md' },
        tool_response: {},
      }),
    });
    expect(hook.code).toBe(0);
    expect(hook.stdout).toBe('');
    expect(hook.stderr).toMatch(message);
    expect(hook.stderr).toMatch(/the session continues/);
    expect(hook.stderr).not.toMatch(/this is a bug|internal error/);
  });
});
