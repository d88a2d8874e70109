// Start-up cost of the CLI: `agent-state status` on a small initialized repository versus a bare
// `node -e 0`, interleaved, medians. Hooks call the CLI after every tool call, so this matters.
// Target: ratio ≤ 2.0.  Usage: node bench/startup.mjs [--runs N]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, interleave, report } from './lib.mjs';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 31;
const repo = mkdtempSync(join(tmpdir(), 'agent-state-bench-startup-'));
try {
  writeFileSync(join(repo, 'package.json'), '{}\n');
  execFileSync('git', ['init', '-q'], { cwd: repo });
  execFileSync(process.execPath, [BIN, 'init', '--goal', 'Benchmark the start-up cost'], {
    cwd: repo,
  });
  for (let i = 1; i <= 10; i++)
    execFileSync(process.execPath, [BIN, 'plan', 'add', `Step number ${i}`], { cwd: repo });
  execFileSync(process.execPath, [BIN, 'next', 'Measure', '--stage', 'bench'], { cwd: repo });

  const medians = interleave(
    {
      status: { cmd: process.execPath, args: [BIN, 'status'], cwd: repo },
      node: { cmd: process.execPath, args: ['-e', '0'], cwd: repo },
    },
    { runs },
  );
  console.log(`agent-state status start-up (${runs} interleaved runs, medians)`);
  report('status / node -e 0', medians.status, medians.node, 2.0);
} finally {
  rmSync(repo, { recursive: true, force: true });
}
