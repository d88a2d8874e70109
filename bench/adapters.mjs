// What a Claude Agent SDK harness pays per hook call: agentStateHooks() in-process against
// spawning `agent-state hook claude` with the same payload (what a harness without the adapter
// shells out to), interleaved, on a fresh task. Both record the same facts.
// Usage: node bench/adapters.mjs [runs]   (npm run build first)
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { agentStateHooks } from '../dist/api/claude-agent-sdk.js';
import { initState } from '../dist/index.js';
import { BIN, median } from './lib.mjs';

const RUNS = Number(process.argv[2] ?? 41);
const cwd = mkdtempSync(join(tmpdir(), 'agent-state-bench-adapters-'));
spawnSync('git', ['init', '-q'], { cwd });
initState({ cwd, goal: 'Measure the hooks' });
const hooks = agentStateHooks();
const signal = new AbortController().signal;
const base = { session_id: 'bench', transcript_path: '', cwd, permission_mode: 'default' };
const calls = {
  PreToolUse: { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'true' } },
  PostToolUse: {
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'true' },
  },
  UserPromptSubmit: { hook_event_name: 'UserPromptSubmit', prompt: 'go on' },
};
// The first prompt boots; measure the ones after it.
await hooks.UserPromptSubmit[0].hooks[0]({ ...base, ...calls.UserPromptSubmit }, undefined, {
  signal,
});

console.log(
  `agentStateHooks() in-process vs spawning agent-state hook claude (${RUNS} interleaved runs, medians)`,
);
for (const [event, payload] of Object.entries(calls)) {
  const input = { ...base, ...payload };
  const inProcess = [];
  const spawned = [];
  for (let i = 0; i < RUNS + 3; i++) {
    let start = performance.now();
    await hooks[event][0].hooks[0](input, 'toolu_1', { signal });
    const a = performance.now() - start;
    start = performance.now();
    const child = spawnSync(process.execPath, [BIN, 'hook', 'claude'], {
      cwd,
      input: JSON.stringify(input),
    });
    if (child.status !== 0) throw new Error(`hook claude exited ${child.status}: ${child.stderr}`);
    const b = performance.now() - start;
    if (i < 3) continue; // warm-up
    inProcess.push(a);
    spawned.push(b);
  }
  const [a, b] = [median(inProcess), median(spawned)];
  console.log(
    `${event.padEnd(17)} in-process ${a.toFixed(1).padStart(6)} ms   spawned ${b.toFixed(1).padStart(6)} ms   spawned / in-process ${(b / a).toFixed(1)}`,
  );
}
