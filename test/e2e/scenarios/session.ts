// The moves of the recovery scenarios, each a real call on a real temp repository: the CLI
// (`agent-state ...`, `agent-state hook <host>` with payloads shaped as each host sends them),
// real git, real file edits. An "agent edit" is what a host's edit tool does: the file is written,
// then the host runs PostToolUse with the tool's input; a "human edit" writes the file and nothing
// else. What a boot said is read back from the event log through `agent-state events`.
import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { initState } from '../../../src/state/init.js';
import { addPlanItem, setPlanStatus } from '../../../src/state/plan.js';
import { updateProgress } from '../../../src/task/update-progress.js';
import { BIN, git, gitdir, runCli, writeFiles, type CliResult } from '../../helpers/fixtures.js';

export const GOALS = `# Todo API pagination

Add pagination to GET /todos without changing the storage layer.

## Constraints

- Keep the response shape backward compatible

## Forbidden

- \`src/storage/**\` — the storage layer is frozen
`;

/** What one boot said, from its `boot` event and its text. */
export interface BootSeen {
  level: number;
  reason: string;
  stalled: number;
  source: string | null;
  text: string;
}

type Host = 'claude' | 'codex' | 'gemini' | 'opencode';

/** A real repository with agent-state set up, and the calls an agent, its host and people make. */
export class Session {
  /** The context each hook call handed to the agent, in order ('' for none). */
  readonly contexts: string[] = [];
  private turn = 0;

  private constructor(
    readonly repo: string,
    readonly transcript: string,
  ) {}

  /** A repository with a committed state: goal, Forbidden zone, a three-step plan. */
  static async start(files: Record<string, string> = {}): Promise<Session> {
    const repo = gitdir({
      'package.json': '{ "name": "todo-api", "private": true }\n',
      'src/server.js': 'export const port = 3000;\n',
      'src/storage/db.js': 'export const db = new Map();\n',
      'README.md': '# todo-api\n',
      ...files,
    });
    const session = new Session(repo, join(repo, '.git', 'gemini-chat.jsonl'));
    // The set-up is not what the scenarios test: done in-process, with the same library.
    initState({ cwd: repo, goal: 'Add pagination to GET /todos' });
    writeFiles(repo, { '.agent/state/goals.md': GOALS });
    await updateProgress(
      (p) => {
        addPlanItem(p, { title: 'Write the pagination test', id: 't1' });
        addPlanItem(p, { title: 'Implement pagination in the route handler', id: 't2' });
        addPlanItem(p, { title: 'Document the query parameters', id: 't3' });
        setPlanStatus(p, 't1', 'running');
        p.next_action = 'Write test/pagination.test.js';
      },
      { cwd: repo },
    );
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'agent-state: the task');
    writeFileSync(session.transcript, `${JSON.stringify({ sessionId: 's', projectHash: 'p' })}\n`);
    return session;
  }

  /** Runs the CLI; fails the test on an unexpected exit code. */
  async cli(...args: string[]): Promise<CliResult> {
    return this.cliExpect(0, ...args);
  }

  async cliExpect(code: number, ...args: string[]): Promise<CliResult> {
    const result = await runCli(this.repo, args);
    expect(result.code, `agent-state ${args.join(' ')}: ${result.stderr}`).toBe(code);
    return result;
  }

  /** `agent-state hook <host>` with a payload; returns the context it handed the agent ('' when none). */
  async hook(host: Host, fields: Record<string, unknown>): Promise<string> {
    const base =
      host === 'opencode'
        ? { session_id: 'ses_1', cwd: this.repo }
        : {
            session_id: `${host}-session`,
            transcript_path: host === 'gemini' ? this.transcript : join(this.repo, '.t.jsonl'),
            cwd: this.repo,
            ...(host === 'gemini' ? { timestamp: new Date().toISOString() } : {}),
          };
    const result = await runCli(this.repo, ['hook', host], {
      input: JSON.stringify({ ...base, ...fields }),
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const context = contextOf(host, result.stdout);
    this.contexts.push(context);
    return context;
  }

  /** `agent-state boot` run by hand or by an agent without host hooks; its prompt is handed over. */
  async boot(...args: string[]): Promise<string> {
    const text = (await this.cli('boot', ...args)).stdout;
    this.contexts.push(text);
    return text;
  }

  /** Claude Code: a new session, resumed session, cleared or compacted one. */
  sessionStart(source: 'startup' | 'resume' | 'clear' | 'compact', host: Host = 'claude') {
    return this.hook(host, { hook_event_name: 'SessionStart', source, model: 'm' });
  }

  prompt(text = 'go on', host: Host = 'claude') {
    return this.hook(host, {
      hook_event_name: host === 'gemini' ? 'BeforeAgent' : 'UserPromptSubmit',
      prompt: text,
    });
  }

  /** The agent's edit tool writes `path` (the file first, then the host's PostToolUse). */
  async agentEdit(path: string, content: string, host: Host = 'claude'): Promise<string> {
    writeFiles(this.repo, { [path]: content });
    const abs = join(this.repo, path);
    if (host === 'gemini')
      return this.hook('gemini', {
        hook_event_name: 'AfterTool',
        tool_name: 'write_file',
        tool_input: { file_path: abs, content },
        tool_response: { llmContent: 'ok' },
      });
    return this.hook(host, {
      hook_event_name: 'PostToolUse',
      tool_name: 'Write',
      tool_input: { file_path: abs, content },
      tool_response: { filePath: abs, success: true },
      tool_use_id: `toolu_${++this.turn}`,
    });
  }

  /** The agent reads a file (a tool call that moves nothing). */
  agentRead(path = 'README.md', host: Host = 'claude') {
    return this.hook(host, {
      hook_event_name: host === 'gemini' ? 'AfterTool' : 'PostToolUse',
      tool_name: host === 'gemini' ? 'read_file' : 'Read',
      tool_input: { file_path: join(this.repo, path) },
      tool_response: {},
    });
  }

  /** The agent runs a shell command through its host (PreToolUse, the command, PostToolUse). */
  async agentShell(command: string, host: Host = 'claude'): Promise<void> {
    const tool = { tool_name: 'Bash', tool_input: { command } };
    await this.hook(host, { hook_event_name: 'PreToolUse', ...tool });
    execFileSync('sh', ['-c', command], { cwd: this.repo, env: gitEnv() });
    await this.hook(host, { hook_event_name: 'PostToolUse', ...tool, tool_response: {} });
  }

  /** A person edits a file: nothing is told to agent-state. */
  humanEdit(path: string, content: string): void {
    writeFiles(this.repo, { [path]: content });
  }

  read(path: string): string {
    return readFileSync(join(this.repo, path), 'utf8');
  }

  /** Claude Code's PreCompact (it may still decide not to compact). */
  preCompact(trigger: 'auto' | 'manual' = 'auto', host: Host = 'claude') {
    if (host === 'gemini') return this.hook('gemini', { hook_event_name: 'PreCompress', trigger });
    return this.hook(host, { hook_event_name: 'PreCompact', trigger, custom_instructions: '' });
  }

  postCompact(trigger: 'auto' | 'manual' = 'auto', host: Host = 'claude') {
    return this.hook(host, {
      hook_event_name: 'PostCompact',
      trigger,
      compact_summary: 'The user asked for pagination; the test is being written.',
    });
  }

  /** A compaction as Claude Code runs one: PreCompact, then SessionStart(compact). */
  async compaction(): Promise<string> {
    await this.preCompact('auto');
    return this.sessionStart('compact');
  }

  /** Gemini CLI's chat recording gets a compression: the history replaced by summary + ack. */
  geminiCompresses(): void {
    const at = new Date().toISOString();
    const messages = [
      {
        id: 'env',
        timestamp: '2026-01-01T00:00:00.000Z',
        type: 'user',
        content: [{ text: 'env' }],
      },
      {
        id: `sum-${this.turn}`,
        timestamp: at,
        type: 'user',
        content: [{ text: '<state_snapshot>Writing the test</state_snapshot>' }],
      },
      {
        id: `ack-${this.turn}`,
        timestamp: at,
        type: 'gemini',
        content: [{ text: 'Got it. Thanks for the additional context!' }],
      },
    ];
    appendFileSync(this.transcript, `${JSON.stringify({ $set: { messages, lastUpdated: at } })}\n`);
  }

  /** A Gemini CLI turn: BeforeAgent, then PreCompress before the model call (every turn, #18083). */
  async geminiTurn(compresses = false): Promise<string> {
    const context = await this.prompt('next step', 'gemini');
    await this.preCompact('auto', 'gemini');
    if (compresses) this.geminiCompresses();
    return context;
  }

  /** The agent commits its work (through its shell tool). */
  async agentCommit(message: string): Promise<void> {
    await this.agentShell(`git add -A && git commit -q -m ${JSON.stringify(message)}`);
  }

  /** The last boot the event log recorded, and the text the hooks handed over with it. */
  async lastBoot(): Promise<BootSeen> {
    const events = JSON.parse((await this.cli('events', '--type', 'boot', '--json')).stdout) as {
      events: { level: number; reason: string; stalled: number; source?: string }[];
    };
    const last = events.events[events.events.length - 1]!;
    const text = [...this.contexts].reverse().find((c) => c.includes('# agent-state boot')) ?? '';
    return {
      level: last.level,
      reason: last.reason,
      stalled: last.stalled,
      source: last.source ?? null,
      text,
    };
  }

  /** How many boots the event log recorded. */
  async bootCount(): Promise<number> {
    const events = JSON.parse((await this.cli('events', '--type', 'boot', '--json')).stdout) as {
      events: unknown[];
    };
    return events.events.length;
  }

  /** This worktree's counters (.agent/log/recovery.json). */
  recovery(): { boots: number; compactions: number; stalled_boots: number } {
    return JSON.parse(this.read('.agent/log/recovery.json')) as {
      boots: number;
      compactions: number;
      stalled_boots: number;
    };
  }

  /** `git status --porcelain -- .agent/state`: what a boot must leave empty. */
  stateStatus(): string {
    return git(this.repo, 'status', '--porcelain', '--', '.agent/state');
  }

  get bin(): string {
    return BIN;
  }
}

function gitEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_AUTHOR_NAME: 'Agent',
    GIT_AUTHOR_EMAIL: 'agent@example.com',
    GIT_COMMITTER_NAME: 'Agent',
    GIT_COMMITTER_EMAIL: 'agent@example.com',
    GIT_CONFIG_NOSYSTEM: '1',
  };
}

/** The context a hook's stdout hands the agent, in each host's output shape. */
export function contextOf(host: Host, stdout: string): string {
  if (stdout.trim() === '') return '';
  const out = JSON.parse(stdout) as {
    hookSpecificOutput?: { additionalContext?: string };
    context?: string;
  };
  return host === 'opencode'
    ? (out.context ?? '')
    : (out.hookSpecificOutput?.additionalContext ?? '');
}
