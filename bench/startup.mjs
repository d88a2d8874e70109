// Start-up cost of the commands that hosts and hooks run most: `hook claude` with a PostToolUse
// payload (after every tool call of every host), `event` (after tool calls, from scripts),
// `status`, and `boot --level 2 --fast` (every session start), each versus a bare `node -e 0`,
// interleaved in one run (medians). With `--vs DIR` (another checkout of agent-state, built),
// that build's commands join the same interleaving and each gets a ratio to this one too.
// Targets (issue 23): hook ≤ 1.25, event ≤ 1.15, status ≤ 1.4, boot --fast ≤ 1.4.
// With `--cpu`, each figure is the process's CPU time instead of wall time (steadier on a loaded
// machine; none of these commands spawns a child).
// Usage: node bench/startup.mjs [--runs N] [--vs DIR] [--cpu]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BIN, interleave, report } from './lib.mjs';

const option = (name) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const runs = Number(option('--runs')) || 31;
const vs = option('--vs') && join(resolve(option('--vs')), 'bin', 'agent-state.js');

const repo = mkdtempSync(join(tmpdir(), 'agent-state-bench-startup-'));
try {
  const cli = (...args) => execFileSync(process.execPath, [BIN, ...args, '-q'], { cwd: repo });
  writeFileSync(join(repo, 'package.json'), '{}\n');
  execFileSync('git', ['init', '-q'], { cwd: repo });
  cli('init', '--goal', 'Benchmark the start-up cost');
  for (let i = 1; i <= 10; i++) cli('plan', 'add', `Step number ${i}`);
  cli('next', 'Measure', '--stage', 'bench');
  // The ordinary tool call: no control signal active. Hundreds of runs without a checkpoint
  // would otherwise raise checkpoint.overdue, and hundreds of boots without progress a restart
  // loop (then every hook and status also digests progress.yaml and asks git for HEAD): each a
  // different path. Only these keys, so that an older build (`--vs`) reads the same config.
  writeFileSync(
    join(repo, '.agent', 'config.yaml'),
    'version: 1\nsignals:\n  checkpoint_tool_calls: 1000000\nboot:\n  stall_threshold: 1000000\n',
  );
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
  const commands = {
    hook: {
      args: ['hook', 'claude'],
      input: payload,
      target: 1.25,
      label: 'hook claude (PostToolUse)',
    },
    event: {
      args: ['event', 'tool.finished', '--field', 'name=grep'],
      target: 1.15,
      label: 'event',
    },
    status: { args: ['status'], target: 1.4, label: 'status' },
    boot: { args: ['boot', '--level', '2', '--fast'], target: 1.4, label: 'boot --level 2 --fast' },
  };
  const cases = { node: { cmd: process.execPath, args: ['-e', '0'], cwd: repo } };
  for (const [name, { args, input }] of Object.entries(commands)) {
    cases[name] = { cmd: process.execPath, args: [BIN, ...args], cwd: repo, input };
    if (vs) cases[`${name}@vs`] = { cmd: process.execPath, args: [vs, ...args], cwd: repo, input };
  }
  const cpu = process.argv.includes('--cpu');
  const medians = interleave(cases, { runs, cpu });
  console.log(
    `start-up of the hot commands (${runs} interleaved runs, medians of ${cpu ? 'CPU' : 'wall'} time)`,
  );
  for (const [name, { label, target }] of Object.entries(commands)) {
    report(`${label} / node -e 0`, medians[name], medians.node, target);
    if (vs) report(`  ${label}: this / --vs`, medians[name], medians[`${name}@vs`]);
  }
} finally {
  rmSync(repo, { recursive: true, force: true });
}
