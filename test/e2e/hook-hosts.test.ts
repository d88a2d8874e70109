// Codex, Gemini CLI and OpenCode hooks end to end: their payloads in, their documented output out,
// and the generated OpenCode plugin loaded and driven as OpenCode would.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, gitdir, runCli, writeFiles } from '../helpers/fixtures.js';

const GOALS = '# Demo\n\nShip the demo.\n\n## Forbidden\n\n- `secrets/**` — never touch\n';

async function repoWith(config: string): Promise<string> {
  const repo = gitdir({ 'package.json': '{}\n' });
  expect((await runCli(repo, ['init', '--goal', 'Ship the demo'])).code).toBe(0);
  writeFiles(repo, {
    '.agent/state/goals.md': GOALS,
    '.agent/config.yaml': `version: 1\n${config}`,
  });
  return repo;
}

describe('hook codex', () => {
  let repo: string;
  beforeAll(async () => {
    repo = await repoWith('integrations:\n  pre_tool_use: enforce\n');
  });

  it('denies an apply_patch that touches a Forbidden path, in the documented shape', async () => {
    const patch = '*** Begin Patch\n*** Add File: secrets/key.txt\n+x\n*** End Patch';
    const input = JSON.stringify({
      session_id: 's',
      transcript_path: null,
      cwd: repo,
      hook_event_name: 'PreToolUse',
      model: 'gpt-5',
      turn_id: 't',
      tool_name: 'apply_patch',
      tool_use_id: 'c1',
      tool_input: { command: patch },
    });
    const result = await runCli(repo, ['hook', 'codex'], { input });
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as { hookSpecificOutput: Record<string, string> };
    expect(out.hookSpecificOutput).toMatchObject({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
    });
    expect(out.hookSpecificOutput.permissionDecisionReason).toContain(
      'secrets/key.txt is Forbidden',
    );
  });
});

describe('hook gemini', () => {
  it('denies a write_file to a Forbidden path with decision/reason, warns the user in warn mode', async () => {
    const enforce = await repoWith('integrations:\n  pre_tool_use: enforce\n');
    const input = (repo: string) =>
      JSON.stringify({
        session_id: 's',
        transcript_path: '/t',
        cwd: repo,
        hook_event_name: 'BeforeTool',
        timestamp: '2026-01-01T00:00:00Z',
        tool_name: 'write_file',
        tool_input: { file_path: join(repo, 'secrets/a'), content: 'x' },
      });
    const denied = await runCli(enforce, ['hook', 'gemini'], { input: input(enforce) });
    expect(denied.code).toBe(0);
    expect(JSON.parse(denied.stdout)).toEqual({
      decision: 'deny',
      reason: expect.stringContaining('secrets/a is Forbidden'),
    });
    const warn = await repoWith('integrations:\n  forbidden: warn\n');
    const warned = await runCli(warn, ['hook', 'gemini'], { input: input(warn) });
    expect(JSON.parse(warned.stdout)).toEqual({
      systemMessage: expect.stringContaining('agent-state warning'),
    });
  });
  it("denies a shell write resolved against run_shell_command's dir_path (payload as Gemini CLI 0.61 sends it)", async () => {
    const repo = await repoWith('integrations:\n  pre_tool_use: enforce\n');
    const input = JSON.stringify({
      session_id: 's',
      transcript_path: '/t',
      cwd: repo,
      hook_event_name: 'BeforeTool',
      timestamp: '2026-01-01T00:00:00Z',
      tool_name: 'run_shell_command',
      tool_input: { command: 'echo x > key.txt', dir_path: 'secrets', description: 'write' },
    });
    const denied = await runCli(repo, ['hook', 'gemini'], { input });
    expect(JSON.parse(denied.stdout)).toEqual({
      decision: 'deny',
      reason: expect.stringContaining('secrets/key.txt is Forbidden'),
    });
  });
});

describe('the generated OpenCode plugin', () => {
  it('refuses a Forbidden edit by throwing, and passes allowed ones', async () => {
    const repo = await repoWith('integrations:\n  pre_tool_use: enforce\n');
    expect((await runCli(repo, ['integrate', 'opencode', '--bin', BIN])).code).toBe(0);
    const mod = (await import(
      pathToFileURL(join(repo, '.opencode/plugins/agent-state.js')).href
    )) as {
      AgentStatePlugin: (input: {
        directory: string;
      }) => Promise<Record<string, (input: object, output: object) => Promise<void>>>;
    };
    const hooks = await mod.AgentStatePlugin({ directory: repo });
    await expect(
      hooks['tool.execute.before']!(
        { tool: 'edit', sessionID: 's', callID: 'c1' },
        { args: { filePath: join(repo, 'secrets/x') } },
      ),
    ).rejects.toThrow(/secrets\/x is Forbidden/);
    await expect(
      hooks['tool.execute.before']!(
        { tool: 'edit', sessionID: 's', callID: 'c2' },
        { args: { filePath: join(repo, 'src/ok.js') } },
      ),
    ).resolves.toBeUndefined();
    await expect(
      hooks['tool.execute.after']!(
        { tool: 'edit', sessionID: 's', callID: 'c2' },
        { title: '', output: '', metadata: {} },
      ),
    ).resolves.toBeUndefined();
  });
});

describe('boot after compaction on hosts without a SessionStart(compact)', () => {
  it('gemini: PreCompress, then the next BeforeAgent carries the boot prompt, once', async () => {
    const repo = await repoWith('');
    const base = {
      session_id: 's',
      transcript_path: '/t',
      cwd: repo,
      timestamp: '2026-01-01T00:00:00Z',
    };
    const compress = await runCli(repo, ['hook', 'gemini'], {
      input: JSON.stringify({ ...base, hook_event_name: 'PreCompress', trigger: 'auto' }),
    });
    expect(compress).toEqual({ code: 0, stdout: '', stderr: '' });
    const prompt = JSON.stringify({ ...base, hook_event_name: 'BeforeAgent', prompt: 'continue' });
    const first = await runCli(repo, ['hook', 'gemini'], { input: prompt });
    const out = JSON.parse(first.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(out.hookSpecificOutput.hookEventName).toBe('BeforeAgent');
    expect(out.hookSpecificOutput.additionalContext).toMatch(/level [23]/);
    expect(out.hookSpecificOutput.additionalContext).toContain('`secrets/**` — never touch');
    expect((await runCli(repo, ['hook', 'gemini'], { input: prompt })).stdout).toBe('');
  });

  it('codex: SessionStart(startup) gives the boot prompt as additionalContext', async () => {
    const repo = await repoWith('');
    const input = JSON.stringify({
      session_id: 's',
      transcript_path: null,
      cwd: repo,
      hook_event_name: 'SessionStart',
      model: 'gpt-5',
      source: 'startup',
    });
    const result = await runCli(repo, ['hook', 'codex'], { input });
    expect(JSON.parse(result.stdout).hookSpecificOutput.additionalContext).toContain(
      'Ship the demo',
    );
  });

  it("opencode: the boot prompt in the agent turns' system prompt, renewed after session.compacted, never in the summarizer's", async () => {
    const repo = await repoWith('');
    expect((await runCli(repo, ['integrate', 'opencode', '--bin', BIN])).code).toBe(0);
    const mod = (await import(
      pathToFileURL(join(repo, '.opencode/plugins/agent-state.js')).href
    )) as {
      AgentStatePlugin: (input: {
        directory: string;
      }) => Promise<Record<string, (input: object, output?: object) => Promise<void>>>;
    };
    const hooks = await mod.AgentStatePlugin({ directory: repo });
    const messages = { messages: [{ info: { sessionID: 's', role: 'user' }, parts: [] }] };
    const agentTurn = async () => {
      const system = { system: ['You are OpenCode'] };
      await hooks['experimental.chat.messages.transform']!({}, messages);
      await hooks['experimental.chat.system.transform']!({ sessionID: 's' }, system);
      return system.system;
    };
    await hooks.event!({ event: { type: 'session.created', properties: { info: { id: 's' } } } });
    const title = { system: ['You are a title generator'] };
    await hooks['experimental.chat.system.transform']!({ sessionID: 's' }, title);
    expect(title.system).toHaveLength(1);
    const first = await agentTurn();
    expect(first[1]).toContain('# agent-state boot');
    expect(first[1]).toContain('A new session started');
    expect((await agentTurn())[1]).toBe(first[1]);
    const compaction = { context: [] as string[], prompt: undefined };
    await hooks['experimental.session.compacting']!({ sessionID: 's' }, compaction);
    expect(compaction.context).toEqual([]);
    await hooks['experimental.chat.messages.transform']!({}, messages);
    const summarizer = { system: ['You are a summarizer'] };
    await hooks['experimental.chat.system.transform']!({ sessionID: 's' }, summarizer);
    expect(summarizer.system).toHaveLength(1);
    await hooks.event!({ event: { type: 'session.compacted', properties: { sessionID: 's' } } });
    const after = await agentTurn();
    expect(after[1]).toContain('# agent-state boot');
    expect(after[1]).not.toBe(first[1]);
  });
});
