// `agent-state hook claude` end to end: the CLI, payloads shaped like Claude Code sends them
// (https://code.claude.com/docs/en/hooks), the JSON on stdout and the exit code as documented.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { gitdir, runCli, writeFiles } from '../helpers/fixtures.js';

const GOALS = `# Todo API pagination

Add pagination to GET /todos without changing the storage layer.

## Constraints

- Keep the response shape backward compatible

## Forbidden

- \`src/storage/**\` — the storage layer is frozen
`;

function payload(repo: string, fields: Record<string, unknown>): string {
  return JSON.stringify({
    session_id: 'e2e-session',
    transcript_path: join(repo, '.transcript.jsonl'),
    cwd: repo,
    permission_mode: 'default',
    ...fields,
  });
}

async function repoWithState(config = ''): Promise<string> {
  const repo = gitdir({
    'package.json': '{}\n',
    'src/storage/db.js': 'x\n',
    'src/api/todos.js': 'y\n',
  });
  const init = await runCli(repo, ['init', '--goal', 'Add pagination']);
  expect(init.code).toBe(0);
  writeFiles(repo, { '.agent/state/goals.md': GOALS });
  if (config) writeFiles(repo, { '.agent/config.yaml': `version: 1\n${config}` });
  return repo;
}

const hook = (repo: string, input: string) => runCli(repo, ['hook', 'claude'], { input });

describe('hook claude: never breaks the session', () => {
  let repo: string;
  beforeAll(async () => {
    repo = await repoWithState();
  });

  it('garbage on stdin: exit 0, nothing on stdout, one note on stderr', async () => {
    for (const input of ['garbage', '', '[]', '{"hook_event_name":"PreToolUse"}']) {
      const result = await hook(repo, input);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/^agent-state hook claude: .*; the session continues$/m);
    }
  });

  it('a repository without .agent/: exit 0, silent on stdout', async () => {
    const bare = gitdir();
    const result = await hook(
      bare,
      payload(bare, { hook_event_name: 'UserPromptSubmit', prompt: 'hi' }),
    );
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toMatch(/no \.agent\/ here/);
  });

  it('an invalid state file: exit 0, the file:line on stderr', async () => {
    const broken = await repoWithState();
    writeFiles(broken, { '.agent/state/progress.yaml': 'version: 1\nrevision: [oops\n' });
    const result = await hook(
      broken,
      payload(broken, {
        hook_event_name: 'PreToolUse',
        tool_name: 'Edit',
        tool_input: { file_path: join(broken, 'a.js') },
      }),
    );
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toMatch(/progress\.yaml:\d+/);
  });

  it('events it does not handle: exit 0, nothing printed', async () => {
    const result = await hook(
      repo,
      payload(repo, {
        hook_event_name: 'Notification',
        message: 'Claude needs your permission',
        notification_type: 'permission_prompt',
      }),
    );
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

describe('hook claude: PreToolUse', () => {
  const edit = (repo: string, file: string) =>
    payload(repo, {
      hook_event_name: 'PreToolUse',
      tool_name: 'Edit',
      tool_input: { file_path: join(repo, file), old_string: 'x', new_string: 'z' },
      tool_use_id: 'toolu_01',
    });

  it('default: a Forbidden edit is refused, and the agent is told to ask the user and how they approve', async () => {
    const repo = await repoWithState();
    const result = await hook(repo, edit(repo, 'src/storage/db.js'));
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as { hookSpecificOutput: Record<string, string> };
    expect(out.hookSpecificOutput.permissionDecision).toBe('deny');
    const reason = out.hookSpecificOutput.permissionDecisionReason!;
    expect(reason).toContain(
      'src/storage/db.js is Forbidden (goals.md: "`src/storage/**` — the storage layer is frozen")',
    );
    expect(reason).toContain('ask the user');
    expect(reason).toContain('restarting Claude Code with AGENT_STATE_ALLOW_FORBIDDEN=1');
    // The user's approval in the host's environment turns the refusal into a warning.
    const approved = await runCli(repo, ['hook', 'claude'], {
      input: edit(repo, 'src/storage/db.js'),
      env: { AGENT_STATE_ALLOW_FORBIDDEN: '1' },
    });
    expect(JSON.parse(approved.stdout).hookSpecificOutput.additionalContext).toContain(
      'agent-state warning: src/storage/db.js is Forbidden',
    );
  });

  it('forbidden: warn: a Forbidden edit gets the warning as context, the tool still runs', async () => {
    const repo = await repoWithState('integrations:\n  forbidden: warn\n');
    const result = await hook(repo, edit(repo, 'src/storage/db.js'));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        additionalContext: expect.stringContaining(
          'src/storage/db.js is Forbidden (goals.md: "`src/storage/**` — the storage layer is frozen")',
        ),
      },
    });
  });

  it('enforce: the documented deny decision with a reason naming the rule', async () => {
    const repo = await repoWithState('integrations:\n  pre_tool_use: enforce\n');
    const result = await hook(repo, edit(repo, 'src/storage/db.js'));
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as { hookSpecificOutput: Record<string, string> };
    expect(out.hookSpecificOutput.hookEventName).toBe('PreToolUse');
    expect(out.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(out.hookSpecificOutput.permissionDecisionReason).toContain(
      '`src/storage/**` — the storage layer is frozen',
    );
    // A Bash command whose target can be read is checked too.
    const bash = await hook(
      repo,
      payload(repo, {
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'echo x >> src/storage/db.js' },
      }),
    );
    expect(JSON.parse(bash.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it("enforce: the current step's denied tools and file scopes", async () => {
    const repo = await repoWithState('integrations:\n  pre_tool_use: enforce\n');
    const progress = readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8');
    writeFiles(repo, {
      '.agent/state/progress.yaml':
        progress.replace(/^current_step:.*$/m, '') +
        'current_step:\n  id: t1\n  denied_tools: [Bash]\n  file_scopes: ["src/api/**"]\n',
    });
    const outside = await hook(repo, edit(repo, 'README.md'));
    expect(JSON.parse(outside.stdout).hookSpecificOutput.permissionDecisionReason).toContain(
      "README.md is outside the current step (t1)'s file scopes (src/api/**)",
    );
    const inside = await hook(repo, edit(repo, 'src/api/todos.js'));
    expect(inside).toEqual({ code: 0, stdout: '', stderr: '' });
    const bash = await hook(
      repo,
      payload(repo, {
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
      }),
    );
    expect(JSON.parse(bash.stdout).hookSpecificOutput.permissionDecisionReason).toContain(
      'denies the Bash tool',
    );
  });

  it('off, and an allowed edit: nothing on stdout', async () => {
    const off = await repoWithState('integrations:\n  forbidden: "off"\n  pre_tool_use: "off"\n');
    expect(await hook(off, edit(off, 'src/storage/db.js'))).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
    const repo = await repoWithState();
    expect(await hook(repo, edit(repo, 'src/api/todos.js'))).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });
});
describe('hook claude: prompts, tool facts, compaction, stop', () => {
  const context = (stdout: string, event: string): string => {
    const out = JSON.parse(stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(out.hookSpecificOutput.hookEventName).toBe(event);
    return out.hookSpecificOutput.additionalContext;
  };
  it('UserPromptSubmit: the status for this host once, then only what changed', async () => {
    const repo = await repoWithState();
    const ask = () =>
      hook(repo, payload(repo, { hook_event_name: 'UserPromptSubmit', prompt: 'go on' }));
    expect(context((await ask()).stdout, 'UserPromptSubmit')).toContain('<agent-status');
    expect((await ask()).stdout).toBe('');
    await runCli(repo, ['next', 'Write the pagination test', '--stage', 'implementing']);
    const text = context((await ask()).stdout, 'UserPromptSubmit');
    expect(text).toContain('Write the pagination test');
  });
  it('PostToolUse: records the tool and the file, silent while no signal fires; failures count', async () => {
    const repo = await repoWithState();
    const edit = payload(repo, {
      hook_event_name: 'PostToolUse',
      tool_name: 'Write',
      tool_input: { file_path: join(repo, 'src/api/page.js'), content: 'x' },
      tool_response: { filePath: join(repo, 'src/api/page.js'), success: true },
      tool_use_id: 'toolu_1',
    });
    expect(await hook(repo, edit)).toEqual({ code: 0, stdout: '', stderr: '' });
    const log = readFileSync(join(repo, '.agent/log/events.jsonl'), 'utf8');
    expect(log).toMatch(/"type":"tool.finished".*"name":"Write".*"ok":true/);
    expect(log).toMatch(/"type":"file.modified".*"path":"src\/api\/page.js"/);
    // Three failures in a row of one tool: the "change approach" signal fires, and the status delta is printed.
    const fail = payload(repo, {
      hook_event_name: 'PostToolUseFailure',
      tool_name: 'Bash',
      tool_input: { command: 'npm test' },
      tool_use_id: 'toolu_2',
      error: 'Command exited with non-zero status code 1',
      is_interrupt: false,
    });
    const outs = [];
    for (let i = 0; i < 3; i++) outs.push(await hook(repo, fail));
    expect(outs.slice(0, 2).map((o) => o.stdout)).toEqual(['', '']);
    const text = context(outs[2]!.stdout, 'PostToolUseFailure');
    expect(text).toContain('<agent-status');
    expect(text).toMatch(/Bash/);
    // One more failure: the same signal (its count moved, nothing else): nothing printed.
    expect((await hook(repo, fail)).stdout).toBe('');
    // Another tool: the streak's advice was taken, so the signal goes, and the agent is told.
    const read = payload(repo, {
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: join(repo, 'README.md') },
      tool_response: {},
    });
    const gone = context((await hook(repo, read)).stdout, 'PostToolUse');
    expect(gone).toContain('kind="delta"');
    expect(gone).toContain('<signals removed="true">');
    expect(gone).not.toContain('<tools>');
    expect((await hook(repo, read)).stdout).toBe('');
  });

  it('PreCompact: only a note, never blocks by default; SessionStart(compact) counts it, locally; block asks for a checkpoint on manual compactions', async () => {
    const repo = await repoWithState();
    const progress = () => readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8');
    const before = progress();
    expect(
      await hook(
        repo,
        payload(repo, {
          hook_event_name: 'PreCompact',
          trigger: 'manual',
          custom_instructions: '',
        }),
      ),
    ).toEqual({ code: 0, stdout: '', stderr: '' });
    // Claude Code may still say "not enough messages to compact": nothing is counted yet.
    const log = () => readFileSync(join(repo, '.agent/log/events.jsonl'), 'utf8');
    expect(existsSync(join(repo, '.agent/log/events.jsonl')) ? log() : '').not.toMatch(
      /"type":"compaction"/,
    );
    const recovery = () =>
      JSON.parse(readFileSync(join(repo, '.agent/log/recovery.json'), 'utf8')) as {
        compactions: number;
        last_compaction: string | null;
      };
    expect(recovery().compactions).toBe(0);
    await hook(repo, payload(repo, { hook_event_name: 'SessionStart', source: 'compact' }));
    expect(log()).toMatch(
      /"type":"compaction".*"trigger":"manual".*"confirmed_by":"session-start"/,
    );
    expect(recovery().compactions).toBe(1);
    expect(Date.now() - Date.parse(recovery().last_compaction!)).toBeLessThan(60_000);
    // The committed state did not change.
    expect(progress()).toBe(before);
    const strict = await repoWithState('integrations:\n  pre_compact: block\n');
    await runCli(strict, ['plan', 'add', 'Work']);
    await runCli(strict, ['plan', 'start', 't1']);
    const blocked = await hook(
      strict,
      payload(strict, { hook_event_name: 'PreCompact', trigger: 'manual' }),
    );
    expect(JSON.parse(blocked.stdout)).toEqual({
      decision: 'block',
      reason: expect.stringContaining('agent-state checkpoint'),
    });
    // A blocked compaction does not happen: nothing noted.
    expect(existsSync(join(strict, '.agent/log/recovery.json'))).toBe(false);
    expect(
      (await hook(strict, payload(strict, { hook_event_name: 'PreCompact', trigger: 'auto' })))
        .stdout,
    ).toBe('');
  });

  it('Stop: with stop_checkpoint block, blocks once per progress and honours stop_hook_active', async () => {
    const repo = await repoWithState('integrations:\n  stop_checkpoint: block\n');
    const stop = (active: boolean) =>
      hook(
        repo,
        payload(repo, {
          hook_event_name: 'Stop',
          stop_hook_active: active,
          last_assistant_message: 'Done.',
        }),
      );
    expect((await stop(false)).stdout).toBe(''); // nothing to save yet
    await runCli(repo, ['plan', 'add', 'Work']);
    await runCli(repo, ['plan', 'start', 't1']);
    expect((await stop(true)).stdout).toBe('');
    const first = await stop(false);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({
      decision: 'block',
      reason: expect.stringContaining('agent-state checkpoint'),
    });
    expect((await stop(false)).stdout).toBe(''); // once per progress
    const off = await repoWithState();
    await runCli(off, ['plan', 'add', 'Work']);
    await runCli(off, ['plan', 'start', 't1']);
    expect(
      (await hook(off, payload(off, { hook_event_name: 'Stop', stop_hook_active: false }))).stdout,
    ).toBe('');
  });

  it('Stop: progress saved by a checkpoint does not block; new progress after it does', async () => {
    const repo = await repoWithState('integrations:\n  stop_checkpoint: block\n');
    const stop = () =>
      hook(repo, payload(repo, { hook_event_name: 'Stop', stop_hook_active: false }));
    await runCli(repo, ['plan', 'add', 'Work']);
    await runCli(repo, ['plan', 'start', 't1']);
    const saved = await runCli(repo, ['checkpoint', '-m', 'started', '--no-test']);
    expect(saved.code, saved.stderr).toBe(0);
    expect((await stop()).stdout).toBe('');
    await runCli(repo, ['next', 'Write the pagination test']);
    expect(JSON.parse((await stop()).stdout)).toMatchObject({ decision: 'block' });
  });
});

describe('hook claude: SessionStart', () => {
  const context = (stdout: string, event: string): string => {
    const out = JSON.parse(stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(out.hookSpecificOutput.hookEventName).toBe(event);
    return out.hookSpecificOutput.additionalContext;
  };
  it('SessionStart(compact): the boot prompt at level 2 or more, with the Forbidden rule, under the cap', async () => {
    const repo = await repoWithState();
    const result = await hook(
      repo,
      payload(repo, {
        hook_event_name: 'SessionStart',
        source: 'compact',
        model: 'claude-sonnet-4-6',
      }),
    );
    expect(result.code).toBe(0);
    const text = context(result.stdout, 'SessionStart');
    expect(text).toMatch(/level [23]/);
    expect(text).toContain('`src/storage/**` — the storage layer is frozen');
    expect(text).toContain('Add pagination to GET /todos without changing the storage layer.');
    expect(text.length).toBeLessThan(10_000);
    const events = readFileSync(join(repo, '.agent/log/events.jsonl'), 'utf8');
    expect(events).toMatch(/"type":"boot".*"source":"compact"/);
  });

  it('SessionStart(resume) without drift: level 1; startup: auto', async () => {
    const repo = await repoWithState();
    const resume = context(
      (await hook(repo, payload(repo, { hook_event_name: 'SessionStart', source: 'resume' })))
        .stdout,
      'SessionStart',
    );
    expect(resume).toMatch(/level 1/);
    const startup = context(
      (await hook(repo, payload(repo, { hook_event_name: 'SessionStart', source: 'startup' })))
        .stdout,
      'SessionStart',
    );
    expect(startup).toMatch(/level [23]/);
  });

  it('the context is capped by integrations.max_context_chars', async () => {
    const repo = await repoWithState('integrations:\n  max_context_chars: 2000\n');
    const long = Array.from(
      { length: 60 },
      (_, i) =>
        `- Constraint number ${i}: keep the public API of module ${i} exactly as it is today`,
    ).join('\n');
    writeFiles(repo, {
      '.agent/state/goals.md': GOALS.replace('## Forbidden', `${long}\n\n## Forbidden`),
    });
    const text = context(
      (await hook(repo, payload(repo, { hook_event_name: 'SessionStart', source: 'compact' })))
        .stdout,
      'SessionStart',
    );
    expect(text.length).toBeLessThanOrEqual(2000);
    expect(text).toContain('Add pagination to GET /todos');
  });

  it('SessionStart then UserPromptSubmit: the boot prompt carries the status baseline, so the next prompt adds nothing', async () => {
    const repo = await repoWithState();
    const start = context(
      (await hook(repo, payload(repo, { hook_event_name: 'SessionStart', source: 'startup' })))
        .stdout,
      'SessionStart',
    );
    expect(start).toContain('<agent-status');
    expect(
      (await hook(repo, payload(repo, { hook_event_name: 'UserPromptSubmit', prompt: 'go on' })))
        .stdout,
    ).toBe('');
  });
});
