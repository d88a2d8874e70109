// Payloads shaped like each host sends them (fields from the hosts' hook references).
import { describe, expect, it } from 'vitest';
import { claudeHost } from '../../src/hosts/claude/claude-host.js';
import { codexHost } from '../../src/hosts/codex/codex-host.js';
import { geminiHost } from '../../src/hosts/gemini/gemini-host.js';
import type { HostAdapter } from '../../src/hosts/host-adapter.js';
import type { HostHookEvent, HostHookOutcome } from '../../src/hosts/host-hook-event.js';
import { HostHookInputError, parseHostHookPayload } from '../../src/hosts/host-hook-payload.js';
import { opencodeHost } from '../../src/hosts/opencode/opencode-host.js';
import { renderHostHookOutput } from '../../src/hosts/run-host-hook.js';

const HOSTS: Record<HostHookEvent['host'], HostAdapter> = {
  claude: claudeHost,
  codex: codexHost,
  gemini: geminiHost,
  opencode: opencodeHost,
};

const parseHookPayload = (host: HostHookEvent['host'], text: string, cwd: string) =>
  parseHostHookPayload(HOSTS[host], text, cwd);
const renderHookOutput = (event: HostHookEvent, outcome: HostHookOutcome) =>
  renderHostHookOutput(HOSTS[event.host], event, outcome);

const common = {
  session_id: 'abc123',
  transcript_path: '/home/u/.claude/projects/x/t.jsonl',
  cwd: '/home/u/app',
};

describe('parseHostHookPayload', () => {
  it('Claude Code: every event we register', () => {
    const parse = (p: object) =>
      parseHookPayload('claude', JSON.stringify({ ...common, ...p }), '/fallback');
    expect(
      parse({ hook_event_name: 'SessionStart', source: 'compact', model: 'claude-sonnet-4-6' }),
    ).toMatchObject({
      kind: 'session-start',
      source: 'compact',
      cwd: '/home/u/app',
      sessionId: 'abc123',
    });
    expect(
      parse({ hook_event_name: 'UserPromptSubmit', permission_mode: 'default', prompt: 'go on' })
        .kind,
    ).toBe('prompt');
    expect(
      parse({
        hook_event_name: 'PreToolUse',
        tool_name: 'Edit',
        tool_input: { file_path: '/a' },
        tool_use_id: 't1',
      }),
    ).toMatchObject({ kind: 'pre-tool', tool: { name: 'Edit', input: { file_path: '/a' } } });
    expect(
      parse({
        hook_event_name: 'PostToolUse',
        tool_name: 'Write',
        tool_input: {},
        tool_response: { success: true },
      }).tool?.ok,
    ).toBe(true);
    expect(
      parse({
        hook_event_name: 'PostToolUseFailure',
        tool_name: 'Bash',
        tool_input: { command: 'npm test' },
        error: 'exit 1',
        is_interrupt: false,
      }).tool?.ok,
    ).toBe(false);
    expect(
      parse({ hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: '' }),
    ).toMatchObject({ kind: 'pre-compact', trigger: 'manual' });
    expect(parse({ hook_event_name: 'PreCompact', triggered_by: 'auto' }).trigger).toBe('auto');
    expect(
      parse({ hook_event_name: 'Stop', stop_hook_active: true, last_assistant_message: 'done' }),
    ).toMatchObject({ kind: 'stop', stopHookActive: true });
    expect(parse({ hook_event_name: 'Notification', message: 'hi' }).kind).toBe('other');
  });

  it('Codex: apply_patch, and a failed Bash read from tool_response', () => {
    const parse = (p: object) =>
      parseHookPayload(
        'codex',
        JSON.stringify({ ...common, model: 'gpt-5', turn_id: 'u1', ...p }),
        '/f',
      );
    expect(
      parse({
        hook_event_name: 'PreToolUse',
        tool_name: 'apply_patch',
        tool_use_id: 'c1',
        tool_input: { command: '*** Begin Patch' },
      }).tool?.name,
    ).toBe('apply_patch');
    expect(
      parse({
        hook_event_name: 'PostToolUse',
        tool_name: 'Bash',
        tool_use_id: 'c2',
        tool_input: { command: 'false' },
        tool_response: { exit_code: 1 },
      }).tool?.ok,
    ).toBe(false);
    expect(
      parse({
        hook_event_name: 'PostToolUse',
        tool_name: 'Bash',
        tool_use_id: 'c3',
        tool_input: { command: 'true' },
        tool_response: 'ok',
      }).tool?.ok,
    ).toBe(true);
    expect(parse({ hook_event_name: 'SessionStart', source: 'resume' }).source).toBe('resume');
  });

  it('Gemini CLI: its own event names', () => {
    const parse = (p: object) =>
      parseHookPayload(
        'gemini',
        JSON.stringify({ ...common, timestamp: '2026-01-01T00:00:00Z', ...p }),
        '/f',
      );
    expect(parse({ hook_event_name: 'SessionStart', source: 'clear' })).toMatchObject({
      kind: 'session-start',
      source: 'clear',
    });
    expect(parse({ hook_event_name: 'BeforeAgent', prompt: 'x' }).kind).toBe('prompt');
    expect(
      parse({
        hook_event_name: 'BeforeTool',
        tool_name: 'write_file',
        tool_input: { file_path: 'a', content: '' },
      }).kind,
    ).toBe('pre-tool');
    expect(
      parse({
        hook_event_name: 'AfterTool',
        tool_name: 'run_shell_command',
        tool_input: { command: 'x' },
        tool_response: { llmContent: '', error: 'boom' },
      }).tool?.ok,
    ).toBe(false);
    expect(parse({ hook_event_name: 'PreCompress', trigger: 'auto' })).toMatchObject({
      kind: 'pre-compact',
      trigger: 'auto',
    });
  });

  it("Gemini CLI: a shell command's exit code, read from llmContent (0.61 sends no error field)", () => {
    const after = (llmContent: unknown, extra: object = {}) =>
      parseHookPayload(
        'gemini',
        JSON.stringify({
          ...common,
          hook_event_name: 'AfterTool',
          tool_name: 'run_shell_command',
          tool_input: { command: 'x' },
          tool_response: { llmContent, returnDisplay: '', ...extra },
        }),
        '/f',
      ).tool?.ok;
    const wrap = (body: string) => `<untrusted_context>\n${body}\n</untrusted_context>`;
    expect(after(wrap('Output: failing\nExit Code: 3\nProcess Group PGID: 25755'))).toBe(false);
    expect(after(wrap('Output: (empty)\nProcess Group PGID: 25596'))).toBe(true);
    expect(after('Output: x\nError: spawn failed\nExit Code: 127')).toBe(false);
    expect(after(wrap('Output: \nSignal: 15\nProcess Group PGID: 1'))).toBe(false);
    expect(after([{ text: 'Output: a\nExit Code: 1' }])).toBe(false);
    // An "Exit Code:" line inside the command's own output, before the trailer, is output.
    expect(after(wrap('Output: Exit Code: 9\nmore output\nProcess Group PGID: 2'))).toBe(true);
    expect(after(wrap('Command was automatically cancelled because it exceeded the timeout'))).toBe(
      false,
    );
    expect(after(wrap('Command moved to background (PID: 12). Output hidden.'))).toBe(true);
  });

  it("OpenCode: the plugin's own payload", () => {
    const event = parseHookPayload(
      'opencode',
      JSON.stringify({
        event: 'tool.execute.after',
        tool: 'edit',
        args: { filePath: 'a.ts' },
        ok: false,
        cwd: '/r',
      }),
      '/f',
    );
    expect(event).toMatchObject({
      kind: 'post-tool',
      cwd: '/r',
      tool: { name: 'edit', ok: false },
    });
  });

  it('garbage is a HostHookInputError (the runner turns it into exit 0 and a note)', () => {
    for (const text of [
      '',
      'garbage',
      '[1,2]',
      '{"no_event": true}',
      '{"hook_event_name":"PreToolUse"}',
    ])
      expect(() => parseHookPayload('claude', text, '/f')).toThrow(HostHookInputError);
  });
});

describe('renderHostHookOutput', () => {
  const event = (
    host: 'claude' | 'codex' | 'gemini' | 'opencode',
    kind: string,
    hostEvent: string,
  ) =>
    ({ host, kind, hostEvent, cwd: '/r', sessionId: null }) as Parameters<
      typeof renderHookOutput
    >[0];

  it('Claude Code: additionalContext, the deny decision, and blocks', () => {
    expect(
      JSON.parse(
        renderHookOutput(event('claude', 'session-start', 'SessionStart'), { context: 'BOOT' }),
      ),
    ).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'BOOT' } });
    expect(
      JSON.parse(renderHookOutput(event('claude', 'pre-tool', 'PreToolUse'), { deny: 'no' })),
    ).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no',
      },
    });
    expect(
      JSON.parse(renderHookOutput(event('claude', 'stop', 'Stop'), { block: 'checkpoint first' })),
    ).toEqual({ decision: 'block', reason: 'checkpoint first' });
    expect(renderHookOutput(event('claude', 'post-tool', 'PostToolUse'), {})).toBe('');
  });

  it('Gemini CLI and Codex: their own deny and warning shapes', () => {
    expect(
      JSON.parse(renderHookOutput(event('gemini', 'pre-tool', 'BeforeTool'), { deny: 'no' })),
    ).toEqual({ decision: 'deny', reason: 'no' });
    expect(
      JSON.parse(renderHookOutput(event('gemini', 'prompt', 'BeforeAgent'), { context: 'C' })),
    ).toEqual({ hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'C' } });
    expect(
      JSON.parse(
        renderHookOutput(event('codex', 'pre-tool', 'PreToolUse'), { context: 'careful' }),
      ),
    ).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'careful' },
    });
    // Codex's PreCompact schema has no `decision`: a block is continue/stopReason.
    expect(
      JSON.parse(renderHookOutput(event('codex', 'pre-compact', 'PreCompact'), { block: 'wait' })),
    ).toEqual({ continue: false, stopReason: 'wait' });
    expect(renderHookOutput(event('codex', 'pre-compact', 'PreCompact'), { note: 'x' })).toBe('');
    expect(
      JSON.parse(
        renderHookOutput(event('opencode', 'pre-tool', 'tool.execute.before'), { deny: 'no' }),
      ),
    ).toEqual({ deny: 'no' });
  });
});
