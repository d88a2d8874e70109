// The command an integration writes into a host's settings (`resolveHookBinary`): the project's
// node_modules/.bin/agent-state for a local install, else `agent-state` when PATH finds this very
// installation, else this installation's absolute path; never npx. The situations are built in
// real temp directories; the local install is a real copy of this package, run as a child process.
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveHookBinary } from '../../src/hosts/install/hook-binary.js';
import { shellQuote } from '../../src/text/safe-text.js';
import { BIN, REPO_ROOT, gitdir, runCli, testdir, writeFiles } from '../helpers/fixtures.js';

// The absolute command: this checkout's bin, quoted for a shell when its path needs it.
const ABSOLUTE = shellQuote(BIN);
const VERSION = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

/** A directory holding `agent-state` as a symlink to this installation's bin (like `npm i -g`). */
function pathDirWithThisInstall(): string {
  const dir = testdir();
  symlinkSync(BIN, join(dir, 'agent-state'));
  return dir;
}

/** A directory holding an executable `agent-state` that is some other program. */
function pathDirWithForeignScript(): string {
  const dir = testdir({ 'agent-state': '#!/bin/sh\necho "not the real agent-state"\n' });
  chmodSync(join(dir, 'agent-state'), 0o755);
  return dir;
}

/** The hook commands of a settings file (Claude Code and Gemini CLI share this shape). */
function hookCommands(path: string): string[] {
  const settings = JSON.parse(readFileSync(path, 'utf8')) as {
    hooks: Record<string, { hooks: { command: string }[] }[]>;
  };
  return Object.values(settings.hooks).flatMap((groups) =>
    groups.flatMap((g) => g.hooks.map((h) => h.command)),
  );
}

describe('resolveHookBinary', () => {
  const resolve = (root: string, PATH: string, given?: string) =>
    resolveHookBinary({ given, root, projectDirVar: '$CLAUDE_PROJECT_DIR', env: { PATH } });

  it('with nothing on PATH: the absolute path of this installation, which exists', () => {
    const root = gitdir();
    const binary = resolve(root, '');
    expect(binary).toEqual({ command: ABSOLUTE, executable: BIN, how: 'absolute' });
    expect(
      execFileSync(process.execPath, [binary.executable, '--version'], { encoding: 'utf8' }),
    ).toBe(`${VERSION}\n`);
  });

  it('`agent-state` when a PATH entry leads to this installation, after empty and other entries', () => {
    const root = gitdir();
    const PATH = ['', testdir(), pathDirWithThisInstall()].join(delimiter);
    expect(resolve(root, PATH)).toEqual({
      command: 'agent-state',
      executable: 'agent-state',
      how: 'path',
    });
  });

  it('an `agent-state` on PATH that is another program is never used', () => {
    const root = gitdir();
    const binary = resolve(root, pathDirWithForeignScript());
    expect(binary).toEqual({ command: ABSOLUTE, executable: BIN, how: 'absolute' });
  });

  it('a node_modules/.bin/agent-state that is not this installation is not used', () => {
    const root = gitdir();
    writeFiles(root, { 'node_modules/.bin/agent-state': '#!/bin/sh\nexit 0\n' });
    chmodSync(join(root, 'node_modules/.bin/agent-state'), 0o755);
    expect(resolve(root, '').how).toBe('absolute');
    expect(resolve(root, pathDirWithThisInstall()).how).toBe('path');
  });

  it('--bin is used as is (trimmed); a blank one is ignored', () => {
    const root = gitdir();
    expect(resolve(root, '', '  npx --yes agent-state  ')).toEqual({
      command: 'npx --yes agent-state',
      executable: 'npx --yes agent-state',
      how: 'given',
    });
    expect(resolve(root, '', '   ').how).toBe('absolute');
  });
});

describe('integrate writes the resolved binary into the host settings', () => {
  it('gemini with this installation on PATH: `agent-state hook gemini`, never npx', async () => {
    const repo = gitdir();
    const home = testdir();
    const result = await runCli(repo, ['integrate', 'gemini', '--json'], {
      env: { HOME: home, PATH: pathDirWithThisInstall() },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { binary: { command: string; how: string } };
    expect(report.binary).toEqual({ command: 'agent-state', how: 'path' });
    const commands = hookCommands(join(repo, '.gemini/settings.json'));
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) expect(command).toBe('agent-state hook gemini');
  });

  it('claude with an empty PATH: the absolute path of this installation, never npx', async () => {
    const repo = gitdir();
    const home = testdir();
    const result = await runCli(repo, ['integrate', 'claude', '--mcp', '--json'], {
      env: { HOME: home, PATH: '' },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { binary: { command: string; how: string } };
    expect(report.binary).toEqual({ command: ABSOLUTE, how: 'absolute' });
    const commands = hookCommands(join(repo, '.claude/settings.json'));
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) expect(command).toBe(`${ABSOLUTE} hook claude`);
    const mcp = JSON.parse(readFileSync(join(repo, '.mcp.json'), 'utf8')) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    expect(mcp.mcpServers['agent-state']).toMatchObject({ command: BIN, args: ['mcp'] });
    expect(readFileSync(join(repo, '.claude/settings.json'), 'utf8')).not.toMatch(/npx/);
  });

  it('a local install: "$CLAUDE_PROJECT_DIR"/node_modules/.bin/agent-state, which starts that copy', () => {
    const project = gitdir();
    const pkg = join(project, 'node_modules', 'agent-state');
    mkdirSync(pkg, { recursive: true });
    for (const part of ['bin', 'dist', 'templates', 'schemas', 'package.json'])
      cpSync(join(REPO_ROOT, part), join(pkg, part), { recursive: true });
    const nodeDir = dirname(process.execPath);
    // This checkout on PATH too: the local install still wins.
    const PATH = [pathDirWithThisInstall(), nodeDir].join(delimiter);
    const integrate = (...flags: string[]) =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [join(pkg, 'bin', 'agent-state.js'), 'integrate', 'claude', '--json', ...flags],
          { cwd: project, encoding: 'utf8', env: { ...process.env, HOME: testdir(), PATH } },
        ),
      ) as { binary: { command: string; how: string } };
    // Installed without bin links (npm --no-bin-links): no project command to call.
    mkdirSync(join(project, 'node_modules', '.bin'));
    expect(integrate('--dry-run').binary.how).not.toBe('project');
    symlinkSync(
      '../agent-state/bin/agent-state.js',
      join(project, 'node_modules/.bin/agent-state'),
    );
    const report = integrate();
    const command = '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/agent-state';
    expect(report.binary).toEqual({ command, how: 'project' });
    const commands = hookCommands(join(project, '.claude/settings.json'));
    expect(commands.length).toBeGreaterThan(0);
    for (const c of commands) expect(c).toBe(`${command} hook claude`);
    // The written command, run by a shell from elsewhere as the host would, starts the copy.
    const version = execFileSync('/bin/sh', ['-c', `${command} --version`], {
      cwd: testdir(),
      encoding: 'utf8',
      env: { ...process.env, CLAUDE_PROJECT_DIR: project, PATH: nodeDir },
    });
    expect(version).toBe(`${VERSION}\n`);
  }, 60_000);
});
