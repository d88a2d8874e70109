import { describe, expect, it } from 'vitest';
import { checkToolCall, denyReason, toolCheckModes } from '../../src/hosts/tool-check.js';
import { toolNames } from '../../src/events/tool-names.js';
import { repoRelative, toolWrittenPaths } from '../../src/hosts/tool-paths.js';
import { patchPaths } from '../../src/hosts/patch-text.js';

const forbidden = [
  { text: '`src/storage/**` — frozen interface', globs: ['src/storage/**'] },
  { text: 'no keys: `*.pem`', globs: ['*.pem'] },
];

describe('toolWrittenPaths', () => {
  it("reads every host's edit tools", () => {
    expect(toolWrittenPaths({ name: 'Edit', input: { file_path: '/r/a.js' } })).toEqual([
      '/r/a.js',
    ]);
    expect(
      toolWrittenPaths({ name: 'MultiEdit', input: { file_path: 'a.js', edits: [] } }),
    ).toEqual(['a.js']);
    expect(toolWrittenPaths({ name: 'NotebookEdit', input: { notebook_path: 'n.ipynb' } })).toEqual(
      ['n.ipynb'],
    );
    expect(toolWrittenPaths({ name: 'write_file', input: { file_path: 'b.js' } })).toEqual([
      'b.js',
    ]);
    expect(toolWrittenPaths({ name: 'replace', input: { file_path: 'c.js' } })).toEqual(['c.js']);
    expect(toolWrittenPaths({ name: 'edit', input: { filePath: 'd.js' } })).toEqual(['d.js']);
    expect(toolWrittenPaths({ name: 'run_shell_command', input: { command: 'rm x' } })).toEqual([
      'x',
    ]);
    expect(toolWrittenPaths({ name: 'Read', input: { file_path: 'e.js' } })).toEqual([]);
    const patch =
      '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** Add File: src/b.ts\n+z\n*** Delete File: c.ts\n*** End Patch';
    expect(toolWrittenPaths({ name: 'apply_patch', input: { command: patch } })).toEqual([
      'src/a.ts',
      'src/b.ts',
      'c.ts',
    ]);
    expect(patchPaths('*** Update File: a\n*** Move to: b')).toEqual(['a', 'b']);
  });

  // Codex's parser trims each header line before it reads it (codex-rs/apply-patch/src/parser.rs).
  it('reads indented and CRLF patch headers as Codex applies them', () => {
    const patch =
      '*** Begin Patch\r\n *** Add File: src/storage/n.js\r\n+x\r\n\t*** Delete File: src/storage/db.ts\n   *** Update File: a \n *** Move to: b\n*** End Patch';
    expect(patchPaths(patch)).toEqual(['src/storage/n.js', 'src/storage/db.ts', 'a', 'b']);
  });

  it("resolves shell writes against the tool's working directory", () => {
    // Gemini CLI: run_shell_command { dir_path }; OpenCode and Codex: { workdir }.
    expect(
      toolWrittenPaths({
        name: 'run_shell_command',
        input: { command: 'echo x > db.ts', dir_path: 'src/storage' },
      }),
    ).toEqual(['src/storage/db.ts']);
    expect(
      toolWrittenPaths({ name: 'bash', input: { command: 'rm db.ts', workdir: '/r/src/storage' } }),
    ).toEqual(['/r/src/storage/db.ts']);
    expect(
      toolWrittenPaths({
        name: 'bash',
        input: { command: 'cd storage && rm db.ts /tmp/x', workdir: 'src' },
      }),
    ).toEqual(['src/storage/db.ts', '/tmp/x']);
    expect(repoRelative('/r', '/r', 'src/storage/db.ts')).toBe('src/storage/db.ts');
  });

  it('maps paths onto the repository, and outside paths to null', () => {
    expect(repoRelative('/r', '/r/sub', 'x.js')).toBe('sub/x.js');
    expect(repoRelative('/r', '/r', '/r/src/storage/db.js')).toBe('src/storage/db.js');
    expect(repoRelative('/r', '/r', '/etc/passwd')).toBeNull();
    expect(repoRelative('/r', '/r', '../elsewhere')).toBeNull();
  });

  it('names tools across hosts', () => {
    expect(toolNames('run_shell_command')).toContain('bash');
    expect(toolNames('apply_patch')).toEqual(expect.arrayContaining(['edit', 'write']));
    // A tool named like an Object.prototype key (an MCP tool can be) is only itself.
    expect(toolNames('constructor')).toEqual(['constructor']);
    expect(toolNames('toString')).toEqual(['tostring']);
  });
});

describe('checkToolCall', () => {
  it('finds a Forbidden path and names the rule', () => {
    const findings = checkToolCall({
      tool: 'Edit',
      paths: [{ raw: 'x', rel: 'src/storage/db.js' }],
      forbidden,
      step: null,
    });
    expect(findings).toEqual([
      expect.objectContaining({
        kind: 'forbidden',
        path: 'src/storage/db.js',
        rule: '`src/storage/**` — frozen interface',
      }),
    ]);
    expect(denyReason(findings)).toContain(
      'src/storage/db.js is Forbidden (goals.md: "`src/storage/**` — frozen interface")',
    );
    // The agent is told to ask, and how the user approves; no final period (Codex appends one).
    const reason = denyReason(findings, 'codex');
    expect(reason).toContain('ask the user');
    expect(reason).toContain('restarting Codex with AGENT_STATE_ALLOW_FORBIDDEN=1');
    expect(reason).not.toMatch(/\.$/);
    expect(
      checkToolCall({
        tool: 'Write',
        paths: [{ raw: 'k', rel: 'deploy/key.pem' }],
        forbidden,
        step: null,
      })[0]?.kind,
    ).toBe('forbidden');
  });

  it('passes an allowed edit', () => {
    expect(
      checkToolCall({
        tool: 'Edit',
        paths: [{ raw: 'x', rel: 'src/api/todos.js' }],
        forbidden,
        step: null,
      }),
    ).toEqual([]);
  });

  it("applies the current step's denied tools (across host names), allowed tools and file scopes", () => {
    const step = { id: 't2', denied_tools: ['Bash'], file_scopes: ['src/api/**', 'test/'] };
    const bash = checkToolCall({ tool: 'run_shell_command', paths: [], forbidden: [], step });
    expect(bash.map((f) => f.kind)).toEqual(['denied-tool']);
    expect(bash[0]!.message).toBe('the current step (t2) denies the run_shell_command tool');
    const out = checkToolCall({
      tool: 'Edit',
      paths: [
        { raw: 'README.md', rel: 'README.md' },
        { raw: 't', rel: 'test/a.test.js' },
      ],
      forbidden: [],
      step,
    });
    expect(out.map((f) => [f.kind, f.path])).toEqual([['out-of-scope', 'README.md']]);
    const outside = checkToolCall({
      tool: 'Edit',
      paths: [{ raw: '/etc/hosts', rel: null }],
      forbidden,
      step,
    });
    expect(outside.map((f) => f.kind)).toEqual(['out-of-scope']);
    const onlyRead = checkToolCall({
      tool: 'Write',
      paths: [],
      forbidden: [],
      step: { allowed_tools: ['Read', 'Grep'] },
    });
    expect(onlyRead.map((f) => f.kind)).toEqual(['not-allowed-tool']);
  });
});

describe('toolCheckModes', () => {
  it('enforces Forbidden globs by default, warns for the step, and lets the user approve', () => {
    expect(toolCheckModes({ pre_tool_use: 'warn' }, {})).toEqual({
      forbidden: 'enforce',
      step: 'warn',
    });
    expect(
      toolCheckModes(
        { forbidden: 'enforce', pre_tool_use: 'off' },
        { AGENT_STATE_ALLOW_FORBIDDEN: '1' },
      ),
    ).toEqual({ forbidden: 'warn', step: 'off' });
    expect(
      toolCheckModes(
        { forbidden: 'off', pre_tool_use: 'enforce' },
        { AGENT_STATE_ALLOW_FORBIDDEN: '1' },
      ),
    ).toEqual({ forbidden: 'off', step: 'enforce' });
  });
});
