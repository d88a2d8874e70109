// `integrate` on real temp repositories: golden configs for every host, idempotence, removal
// that restores the user's bytes, unrelated keys and hooks kept, and the produced Claude Code
// settings validated against SchemaStore's schema.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { integrate, type IntegrateOptions } from '../../src/hosts/integrate.js';
import { OPENCODE_PLUGIN_HEADER } from '../../src/hosts/opencode/opencode-plugin.js';
import { PROTOCOL_BLOCK } from '../../src/hosts/install/protocol-block.js';
import { gitdir, runCli, sharedFixture, testdir, writeFiles } from '../helpers/fixtures.js';

// SchemaStore's schema of Claude Code's settings.json, from the shared fixtures (not copied here).
const SCHEMA = sharedFixture('claude-code-settings.schema.json');

function setup(files: Record<string, string> = {}) {
  const repo = gitdir({ 'README.md': '# demo\n', ...files });
  const home = testdir();
  const env = { HOME: home, XDG_STATE_HOME: join(home, 'state'), PATH: '' };
  const run = (options: Omit<IntegrateOptions, 'cwd' | 'env'>) =>
    integrate({ bin: 'agent-state', ...options, cwd: repo, env });
  const read = (path: string) => readFileSync(join(repo, path), 'utf8');
  return { repo, home, env, run, read };
}

function snapshotFiles(dir: string, skip = ['.git']): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${name.name}` : name.name;
      if (skip.includes(path)) continue;
      if (name.isDirectory()) walk(path);
      else out[path] = readFileSync(join(dir, path), 'utf8');
    }
  };
  walk('');
  return out;
}

describe('integrate claude', () => {
  it('writes the golden settings, statusLine and .mcp.json', async () => {
    const { run, read } = setup();
    const result = await run({ host: 'claude', statusline: true, mcp: true });
    expect(result.changes.map((c) => [c.file, c.action])).toEqual([
      ['.claude/settings.json', 'created'],
      ['.mcp.json', 'created'],
    ]);
    await expect(read('.claude/settings.json')).toMatchFileSnapshot(
      'golden/claude-settings.json.golden',
    );
    await expect(read('.mcp.json')).toMatchFileSnapshot('golden/claude-mcp.json.golden');
  });

  // Runs wherever the shared fixtures are present (they are in this workplace and its CI).
  it.skipIf(SCHEMA === null)(
    'produces settings that validate against the SchemaStore schema (draft-07)',
    async () => {
      const { run, read } = setup({
        '.claude/settings.json': JSON.stringify({
          model: 'sonnet',
          permissions: { allow: ['Bash(npm test:*)'] },
          hooks: {
            PostToolUse: [
              {
                matcher: 'Edit|Write',
                hooks: [{ type: 'command', command: 'prettier --write', timeout: 5 }],
              },
            ],
          },
        }),
      });
      await run({ host: 'claude', statusline: true });
      const ajv = new Ajv({ strict: false, allErrors: true });
      const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA!, 'utf8')) as object);
      const settings = JSON.parse(read('.claude/settings.json')) as unknown;
      expect(validate(settings), JSON.stringify(validate.errors)).toBe(true);
      // A malformed hook must fail, or this test proves nothing.
      const broken = structuredClone(settings) as { hooks: { Stop: { hooks: object[] }[] } };
      broken.hooks.Stop[0]!.hooks[0] = { type: 'command', timeout: 'soon' };
      expect(validate(broken)).toBe(false);
    },
  );

  it('is idempotent: a second run changes no byte', async () => {
    const { repo, run } = setup();
    await run({ host: 'claude', statusline: true, mcp: true });
    const first = snapshotFiles(repo);
    const again = await run({ host: 'claude', statusline: true, mcp: true });
    expect(again.changes.every((c) => c.action === 'unchanged')).toBe(true);
    expect(snapshotFiles(repo)).toEqual(first);
  });

  it('keeps unrelated keys and hooks, and --remove restores the original bytes', async () => {
    // Hand-formatted on purpose (4 spaces, one-line arrays, no final newline): not what JSON.stringify writes.
    const original = `{
    "model": "opus",
    "permissions": { "allow": ["Bash(git status)"], "deny": [] },
    "hooks": {
        "PostToolUse": [ { "matcher": "Edit", "hooks": [ { "type": "command", "command": "prettier --write" } ] } ],
        "Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] } ]
    },
    "statusLine": { "type": "command", "command": "~/bin/my-line" }
}`;
    const { run, read } = setup({ '.claude/settings.json': original });
    const result = await run({ host: 'claude', statusline: true });
    expect(result.notes.join('\n')).toMatch(/statusLine is already configured/);
    const merged = JSON.parse(read('.claude/settings.json')) as Record<string, unknown>;
    expect(merged.model).toBe('opus');
    expect(merged.permissions).toEqual({ allow: ['Bash(git status)'], deny: [] });
    expect(merged.statusLine).toEqual({ type: 'command', command: '~/bin/my-line' });
    const hooks = merged.hooks as Record<string, { hooks: { command: string }[] }[]>;
    expect(hooks.PostToolUse!.map((g) => g.hooks[0]!.command)).toEqual([
      'prettier --write',
      'agent-state hook claude',
    ]);
    expect(hooks.Stop!.map((g) => g.hooks[0]!.command)).toEqual([
      'say done',
      'agent-state hook claude',
    ]);
    const removed = await run({ host: 'claude', remove: true });
    expect(removed.changes[0]!.action).toBe('restored');
    expect(read('.claude/settings.json')).toBe(original);
  });

  it('warns when the hooks start agent-state by a machine path in a shared file, and says how to make it portable', async () => {
    const { repo, env } = setup();
    // PATH is empty and the project has no node_modules/.bin/agent-state: only this checkout's path works.
    const shared = await integrate({ host: 'claude', cwd: repo, env });
    expect(shared.binary?.how).toBe('absolute');
    const warning = shared.warnings.find((w) => w.file === '.claude/settings.json');
    expect(warning?.message).toMatch(/this machine's path to agent-state/);
    expect(warning?.message).toMatch(/on PATH or in the project's node_modules.*--bin agent-state/);
    // A file only this machine reads, or a command named with --bin: nothing to warn about.
    const local = await integrate({ host: 'claude', scope: 'local', cwd: repo, env });
    const given = await integrate({ host: 'claude', bin: 'agent-state', cwd: repo, env });
    for (const result of [local, given])
      expect(result.warnings.map((w) => w.file)).toEqual(['.agent/']);
  });

  it("keeps the user's layout: a compact settings.json stays on one line, its keys in order", async () => {
    const original = '{"permissions":{"allow":["Bash(npm test:*)"]},"model":"sonnet"}\n';
    const { run, read } = setup({ '.claude/settings.json': original });
    await run({ host: 'claude' });
    const text = read('.claude/settings.json');
    expect(text).toMatch(
      /^\{"permissions":\{"allow":\["Bash\(npm test:\*\)"\]\},"model":"sonnet","hooks":\{/,
    );
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.slice(0, -1)).not.toContain('\n');
    await run({ host: 'claude', remove: true });
    expect(read('.claude/settings.json')).toBe(original);
  });

  it('--remove without a saved original takes out only our part', async () => {
    const { env, repo, run, read } = setup({
      '.claude/settings.json': '{\n  "model": "opus"\n}\n',
    });
    await run({ host: 'claude' });
    // Someone edits the file after us: the original no longer applies, only our part goes.
    const edited = JSON.parse(read('.claude/settings.json')) as Record<string, unknown>;
    writeFiles(repo, {
      '.claude/settings.json': JSON.stringify({ ...edited, theme: 'dark' }, null, 2) + '\n',
    });
    const removed = await integrate({ host: 'claude', remove: true, cwd: repo, env });
    expect(removed.changes[0]!.action).toBe('removed');
    expect(JSON.parse(read('.claude/settings.json'))).toEqual({ model: 'opus', theme: 'dark' });
  });

  it('removing what it created deletes the files and the directories it made', async () => {
    const { repo, run } = setup();
    const before = snapshotFiles(repo);
    await run({ host: 'claude', statusline: true, mcp: true });
    const removed = await run({ host: 'claude', remove: true });
    expect(removed.changes.map((c) => c.action)).toEqual(['deleted', 'deleted']);
    expect(existsSync(join(repo, '.claude'))).toBe(false);
    expect(snapshotFiles(repo)).toEqual(before);
  });

  it('writes settings.local.json for --scope local and ~/.claude/settings.json for --scope user', async () => {
    const { home, repo, run } = setup();
    await run({ host: 'claude', scope: 'local' });
    expect(existsSync(join(repo, '.claude/settings.local.json'))).toBe(true);
    const user = await run({ host: 'claude', scope: 'user', mcp: true });
    expect(existsSync(join(home, '.claude/settings.json'))).toBe(true);
    expect(user.notes.join('\n')).toContain(
      'claude mcp add --scope user agent-state -- agent-state mcp',
    );
  });

  it('refuses a settings file that is not JSON, naming file:line, and leaves it as it was', async () => {
    const bad = '{\n  "model": "opus",\n}\n';
    const { run, read } = setup({ '.claude/settings.json': bad });
    await expect(run({ host: 'claude' })).rejects.toThrow(/not valid JSON/);
    try {
      await run({ host: 'claude' });
    } catch (error) {
      expect((error as { location: unknown }).location).toMatchObject({
        file: '.claude/settings.json',
        line: 3,
      });
    }
    expect(read('.claude/settings.json')).toBe(bad);
  });

  it('--dry-run reports the plan and writes nothing', async () => {
    const { repo, run } = setup();
    const before = snapshotFiles(repo);
    const result = await run({ host: 'claude', dryRun: true });
    expect(result.changes[0]).toMatchObject({ file: '.claude/settings.json', action: 'created' });
    expect(snapshotFiles(repo)).toEqual(before);
  });
});

describe('integrate codex, gemini, opencode, agents-md', () => {
  it('codex: golden hooks.json, the AGENTS.md block and the MCP table in config.toml', async () => {
    const { run, read } = setup({ 'AGENTS.md': '# Agents\n\nUse pnpm.\n' });
    const result = await run({ host: 'codex', mcp: true });
    expect(result.notes.join('\n')).toMatch(/trust/);
    await expect(read('.codex/hooks.json')).toMatchFileSnapshot('golden/codex-hooks.json.golden');
    await expect(read('.codex/config.toml')).toMatchFileSnapshot('golden/codex-config.toml.golden');
    expect(read('AGENTS.md')).toMatch(/^# Agents\n\nUse pnpm\.\n\n<!-- agent-state:begin/);
    expect(read('AGENTS.md')).toContain(PROTOCOL_BLOCK);
  });

  it('codex --trust: trusts the project and each hook in ~/.codex/config.toml, once, and --remove takes it out', async () => {
    const { run, repo, home } = setup();
    const config = join(home, '.codex', 'config.toml');
    writeFiles(home, {
      '.codex/config.toml': `model = "gpt-5.5"\n\n[hooks.state."${repo}/.codex/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:mine"\n`,
    });
    const before = readFileSync(config, 'utf8');
    const result = await run({ host: 'codex', trust: true });
    expect(result.changes.map((c) => [c.file, c.action])).toContainEqual([
      '~/.codex/config.toml',
      'updated',
    ]);
    const text = readFileSync(config, 'utf8');
    expect(text.startsWith(before)).toBe(true);
    expect(text).toContain(`[projects."${repo}"]\ntrust_level = "trusted"`);
    // 7 hooks; Stop's table was the user's and is left alone (TOML allows no second one).
    expect(text.match(/^\[hooks\.state\./gm)).toHaveLength(7);
    expect(text.match(/:stop:0:0/g)).toHaveLength(1);
    expect(
      (await run({ host: 'codex', trust: true })).changes.every((c) => c.action === 'unchanged'),
    ).toBe(true);
    await run({ host: 'codex', remove: true });
    expect(readFileSync(config, 'utf8')).toBe(before);
    await expect(run({ host: 'opencode', trust: true })).rejects.toThrow(
      '--trust applies to codex and gemini only',
    );
  });

  it('gemini: golden settings.json with millisecond timeouts, and the GEMINI.md block', async () => {
    const { run, read } = setup({ '.gemini/settings.json': '{\n  "theme": "GitHub"\n}\n' });
    await run({ host: 'gemini' });
    await expect(read('.gemini/settings.json')).toMatchFileSnapshot(
      'golden/gemini-settings.json.golden',
    );
    const settings = JSON.parse(read('.gemini/settings.json')) as {
      theme: string;
      hooks: Record<string, { hooks: { timeout: number }[] }[]>;
    };
    expect(settings.theme).toBe('GitHub');
    expect(Object.keys(settings.hooks)).toEqual([
      'SessionStart',
      'BeforeAgent',
      'BeforeTool',
      'AfterTool',
      'PreCompress',
    ]);
    for (const groups of Object.values(settings.hooks))
      expect(groups[0]!.hooks[0]!.timeout).toBeGreaterThanOrEqual(1000);
    expect(read('GEMINI.md')).toContain(PROTOCOL_BLOCK);
  });

  it('opencode: the golden plugin, and a foreign plugin file is never overwritten', async () => {
    const { run, read, repo } = setup();
    await run({ host: 'opencode' });
    const source = read('.opencode/plugins/agent-state.js');
    expect(source.startsWith(OPENCODE_PLUGIN_HEADER)).toBe(true);
    await expect(
      source.replace(/agent-state \d+\.\d+\.\d+\S*/, 'agent-state X.Y.Z'),
    ).toMatchFileSnapshot('golden/opencode-plugin.js.golden');
    writeFiles(repo, { '.opencode/plugins/agent-state.js': '// mine\n' });
    const again = await run({ host: 'opencode' });
    expect(again.changes[0]!.action).toBe('unchanged');
    expect(again.notes.join('\n')).toMatch(/not written by agent-state/);
    expect((await run({ host: 'opencode', remove: true })).changes[0]!.action).toBe('unchanged');
    expect(read('.opencode/plugins/agent-state.js')).toBe('// mine\n');
  });

  it('agents-md: one block, idempotent, removable to the original bytes, in any of the three files', async () => {
    const original = '# Notes\n\nNo tabs.'; // no final newline
    const { run, read } = setup({ 'CLAUDE.md': original });
    await run({ host: 'agents-md', file: 'CLAUDE.md' });
    const once = read('CLAUDE.md');
    expect(once.match(/agent-state:begin/g)).toHaveLength(1);
    expect((await run({ host: 'agents-md', file: 'CLAUDE.md' })).changes[0]!.action).toBe(
      'unchanged',
    );
    expect(read('CLAUDE.md')).toBe(once);
    await run({ host: 'agents-md', file: 'CLAUDE.md', remove: true });
    expect(read('CLAUDE.md')).toBe(original);
  });

  it('every host round-trips: integrate then --remove leaves the tree as it was', async () => {
    const files = {
      'AGENTS.md': '# A\n',
      'GEMINI.md': '# G\n',
      '.gemini/settings.json': '{ "theme": "x" }',
      '.codex/hooks.json':
        '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo bye"}]}]}}',
    };
    const { repo, run } = setup(files);
    const before = snapshotFiles(repo);
    for (const host of ['claude', 'codex', 'gemini', 'opencode', 'agents-md'] as const) {
      await run({ host, ...(host === 'codex' || host === 'claude' ? { mcp: true } : {}) });
    }
    for (const host of ['claude', 'codex', 'gemini', 'opencode', 'agents-md'] as const)
      await run({ host, remove: true });
    expect(snapshotFiles(repo)).toEqual(before);
  });

  it('rejects options that do not apply, before touching anything', async () => {
    const { run } = setup();
    await expect(run({ host: 'codex', statusline: true })).rejects.toThrow(
      /--statusline applies to claude only/,
    );
    await expect(run({ host: 'gemini', scope: 'local' })).rejects.toThrow(
      /--scope local does not apply to gemini/,
    );
    await expect(run({ host: 'agents-md', file: 'README.md' })).rejects.toThrow(
      /not an instructions file/,
    );
  });
});

describe('integrate through the CLI, run twice', () => {
  // Each host starts from files of the user's own, so the first run updates as well as creates.
  const cases: { host: string; args: string[]; files: Record<string, string>; wrote: string[] }[] =
    [
      {
        host: 'codex',
        args: ['--mcp'],
        files: { 'AGENTS.md': '# Agents\n\nUse pnpm.\n', '.codex/config.toml': 'model = "o3"\n' },
        wrote: ['.codex/hooks.json', 'AGENTS.md', '.codex/config.toml'],
      },
      {
        host: 'gemini',
        args: [],
        files: { '.gemini/settings.json': '{\n  "theme": "GitHub"\n}\n' },
        wrote: ['.gemini/settings.json', 'GEMINI.md'],
      },
      {
        host: 'opencode',
        args: [],
        files: {},
        wrote: ['.opencode/plugins/agent-state.js'],
      },
    ];

  it.each(cases)(
    '$host: the second run changes no byte and reports every file unchanged (--json)',
    async ({ host, args, files, wrote }) => {
      const { repo, home, env } = setup(files);
      const cli = async () => {
        const result = await runCli(repo, ['integrate', host, ...args, '--json'], { env });
        expect(result.stderr).toBe('');
        expect(result.code).toBe(0);
        return JSON.parse(result.stdout) as {
          host: string;
          dry_run: boolean;
          changes: { file: string; action: string }[];
        };
      };
      const first = await cli();
      expect(first).toMatchObject({ host, dry_run: false });
      expect(first.changes.map((c) => c.file).sort()).toEqual([...wrote].sort());
      for (const change of first.changes)
        expect(change.action, change.file).toBe(change.file in files ? 'updated' : 'created');
      const written = Object.fromEntries(
        wrote.map((file) => [file, readFileSync(join(repo, file), 'utf8')]),
      );
      const repoBefore = snapshotFiles(repo);
      const homeBefore = snapshotFiles(home);

      const second = await cli();
      expect(second.changes).toEqual(first.changes.map((c) => ({ ...c, action: 'unchanged' })));
      for (const file of wrote)
        expect(readFileSync(join(repo, file), 'utf8'), file).toBe(written[file]);
      expect(snapshotFiles(repo)).toEqual(repoBefore);
      expect(snapshotFiles(home)).toEqual(homeBefore);
    },
  );
});
