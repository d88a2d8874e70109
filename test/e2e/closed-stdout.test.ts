// `agent-state ... | head` closes the pipe early: the CLI must stop quietly, not crash with EPIPE.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, gitdir, runCli } from '../helpers/fixtures.js';

function runWithClosedStdout(
  cwd: string,
  args: string[],
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy(); // the reader is gone before the CLI writes anything
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a closed stdout', () => {
  it('ends the CLI quietly with its normal exit code', async () => {
    const repo = gitdir();
    expect((await runCli(repo, ['init', '-q'])).code).toBe(0);
    for (const args of [['--help'], ['plan', 'list'], ['status', '--json'], ['events']]) {
      const result = await runWithClosedStdout(repo, args);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    }
  });
});
