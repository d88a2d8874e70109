// agentStateHooks() called the way the Claude Agent SDK calls its hook callbacks, on real state
// directories: when the boot prompt comes, which agent it is counted for, and what is said (as a
// process warning) when the project's settings run the CLI hooks too. The real SDK session is in
// the host tier (test/hosts/claude-agent-sdk.test.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { HookCallback, HookInput, SyncHookJSONOutput } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { agentStateHooks } from '../../src/api/claude-agent-sdk.js';
import { integrate } from '../../src/hosts/integrate.js';
import { initState } from '../../src/state/init.js';
import { gitdir, testdir } from '../helpers/fixtures.js';

const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
process.on('warning', onWarning);
afterEach(() => {
  warnings.length = 0;
});

function taskRepo(): string {
  const dir = gitdir();
  initState({ cwd: dir, goal: 'Embed agent-state in a harness' });
  return dir;
}

/** Calls the session's callback for one event, as the SDK does. */
async function call(
  hooks: ReturnType<typeof agentStateHooks>,
  input: Record<string, unknown>,
): Promise<SyncHookJSONOutput> {
  const event = input.hook_event_name as keyof typeof hooks;
  const hook = hooks[event]![0]!.hooks[0] as HookCallback;
  const base = { session_id: 's1', transcript_path: '', permission_mode: 'default' };
  const out = await hook({ ...base, ...input } as HookInput, undefined, {
    signal: new AbortController().signal,
  });
  await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
  return out as SyncHookJSONOutput;
}

const context = (out: SyncHookJSONOutput) =>
  (out.hookSpecificOutput as { additionalContext?: string } | undefined)?.additionalContext ?? '';

describe('agentStateHooks()', () => {
  it('registers what `integrate claude` registers, PreToolUse only for the tools that write', () => {
    const hooks = agentStateHooks();
    expect(Object.keys(hooks)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'PreCompact',
      'PostCompact',
      'Stop',
    ]);
    expect(hooks.PreToolUse![0]!.matcher).toBe('Edit|Write|MultiEdit|NotebookEdit|Bash');
  });

  it('boots at the first prompt once, labelled as that prompt', async () => {
    const cwd = taskRepo();
    const hooks = agentStateHooks();
    const first = await call(hooks, { hook_event_name: 'UserPromptSubmit', prompt: 'go', cwd });
    expect(first.hookSpecificOutput?.hookEventName).toBe('UserPromptSubmit');
    expect(context(first)).toContain('# agent-state boot');
    expect(context(first)).toContain('Embed agent-state in a harness');
    const second = await call(hooks, { hook_event_name: 'UserPromptSubmit', prompt: 'on', cwd });
    expect(context(second)).not.toContain('# agent-state boot');
  });

  it('leaves the boot to a SessionStart that comes first', async () => {
    const cwd = taskRepo();
    const hooks = agentStateHooks();
    const start = await call(hooks, { hook_event_name: 'SessionStart', source: 'startup', cwd });
    expect(start.hookSpecificOutput?.hookEventName).toBe('SessionStart');
    expect(context(start)).toContain('# agent-state boot');
    const prompt = await call(hooks, { hook_event_name: 'UserPromptSubmit', prompt: 'go', cwd });
    expect(context(prompt)).not.toContain('# agent-state boot');
  });

  it("counts the boot for the session's agent, and leaves process.env as it was", async () => {
    const cwd = taskRepo();
    const hooks = agentStateHooks({ agent: 'alice' });
    await call(hooks, { hook_event_name: 'UserPromptSubmit', prompt: 'go', cwd });
    expect(existsSync(join(cwd, '.agent', 'log', 'recovery.alice.json'))).toBe(true);
    expect(existsSync(join(cwd, '.agent', 'log', 'recovery.json'))).toBe(false);
    expect(process.env.AGENT_STATE_AGENT).toBeUndefined();
  });

  it('warns once when the project settings run `agent-state hook claude` too', async () => {
    const cwd = taskRepo();
    await integrate({ host: 'claude', cwd, env: { ...process.env, HOME: testdir() } });
    const hooks = agentStateHooks();
    await call(hooks, { hook_event_name: 'UserPromptSubmit', prompt: 'go', cwd });
    await call(hooks, { hook_event_name: 'UserPromptSubmit', prompt: 'on', cwd });
    expect(warnings.map((w) => (w as Error & { code?: string }).code)).toEqual([
      'AGENT_STATE_DUPLICATE_HOOKS',
    ]);
    expect(warnings[0]!.message).toContain('.claude/settings.json runs `agent-state hook claude`');
    expect(warnings[0]!.message).toContain('settingSources');
  });

  it('says once, as a warning, that a directory has no .agent/, and answers nothing', async () => {
    const cwd = gitdir();
    const hooks = agentStateHooks();
    expect(await call(hooks, { hook_event_name: 'UserPromptSubmit', prompt: 'go', cwd })).toEqual(
      {},
    );
    expect(await call(hooks, { hook_event_name: 'UserPromptSubmit', prompt: 'on', cwd })).toEqual(
      {},
    );
    expect(warnings.map((w) => w.message)).toEqual([
      'agent-state hook claude: no .agent/ here (run `agent-state init` to use it); the session continues',
    ]);
  });
});
