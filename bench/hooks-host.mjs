// Cost of the hook every host runs after each tool call: `agent-state hook claude` with a
// PostToolUse payload (an Edit that succeeded) on an initialized repository, versus a bare
// `node -e 0`, interleaved, medians. Target: ratio ≤ 2.0.  Usage: node bench/hooks-host.mjs [--runs N]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, interleave, report } from './lib.mjs';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 31;
const repo = mkdtempSync(join(tmpdir(), 'agent-state-bench-hooks-'));
try {
  writeFileSync(join(repo, 'package.json'), '{}\n');
  execFileSync('git', ['init', '-q'], { cwd: repo });
  execFileSync(process.execPath, [BIN, 'init', '--goal', 'Benchmark the hook cost'], { cwd: repo });
  for (let i = 1; i <= 10; i++)
    execFileSync(process.execPath, [BIN, 'plan', 'add', `Step number ${i}`], { cwd: repo });
  execFileSync(process.execPath, [BIN, 'next', 'Measure', '--stage', 'bench'], { cwd: repo });
  const payload = JSON.stringify({
    session_id: 'bench',
    transcript_path: join(repo, 'transcript.jsonl'),
    cwd: repo,
    permission_mode: 'default',
    hook_event_name: 'PostToolUse',
    tool_name: 'Edit',
    tool_input: { file_path: join(repo, 'src', 'app.js'), old_string: 'a', new_string: 'b' },
    tool_response: { filePath: join(repo, 'src', 'app.js'), success: true },
    tool_use_id: 'toolu_bench',
  });

  const medians = interleave(
    {
      hook: { cmd: process.execPath, args: [BIN, 'hook', 'claude'], cwd: repo, input: payload },
      node: { cmd: process.execPath, args: ['-e', '0'], cwd: repo },
    },
    { runs },
  );
  console.log(`agent-state hook claude, PostToolUse (${runs} interleaved runs, medians)`);
  report('hook claude (PostToolUse) / node -e 0', medians.hook, medians.node, 2.0);
} finally {
  rmSync(repo, { recursive: true, force: true });
}
