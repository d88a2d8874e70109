import { mkdirSync, readFileSync, readdirSync, existsSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, gitdir, runCli, testdir } from '../helpers/fixtures.js';

function snapshotFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else out[path] = readFileSync(join(dir, path), 'utf8');
    }
  };
  walk('.agent');
  return out;
}

describe('agent-state init', () => {
  it('creates the state files and a second run changes no byte', async () => {
    const repo = gitdir({ 'package.json': '{}\n' });
    const first = await runCli(repo, ['init', '--goal', 'Ship the parser', '--test', 'npm test']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('created');
    const before = snapshotFiles(repo);
    expect(Object.keys(before).sort()).toEqual([
      '.agent/.gitignore',
      '.agent/config.yaml',
      '.agent/log/events.jsonl', // the task.created event (local, git-ignored)
      '.agent/log/progress.json', // progress.yaml's parsed value, for the hooks that read it
      '.agent/state/goals.md',
      '.agent/state/progress.yaml',
    ]);
    expect(before['.agent/log/events.jsonl']).toMatch(
      /^\{"seq":1,"at":"[^"]+","type":"task.created","actor":"system","goal":"Ship the parser"\}\n$/,
    );
    expect(before['.agent/config.yaml']).toContain('test: npm test');
    expect(before['.agent/config.yaml']).toMatch(/key_files:\n {2}- package.json/);
    expect(
      before['.agent/state/progress.yaml']!.startsWith('# yaml-language-server: $schema='),
    ).toBe(true);
    expect(before['.agent/.gitignore']).toMatch(/^log\/$/m);

    const second = await runCli(repo, ['init', '--goal', 'Ship the parser']);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('no byte changed');
    expect(snapshotFiles(repo)).toEqual(before);
  });

  it('points each file at its schema in node_modules/agent-state, which an editor finds offline', async () => {
    const repo = gitdir({ 'package.json': '{}\n' });
    mkdirSync(join(repo, 'node_modules'));
    symlinkSync(REPO_ROOT, join(repo, 'node_modules', 'agent-state'));
    await runCli(repo, ['init', '--goal', 'Ship the parser']);
    await runCli(repo, ['--agent', 'alice', 'next', 'Write the parser']);
    for (const [file, schema] of [
      ['.agent/config.yaml', 'config'],
      ['.agent/state/progress.yaml', 'progress'],
      ['.agent/state/agents/alice/progress.yaml', 'progress'],
    ]) {
      const path = join(repo, file!);
      const ref = /^# yaml-language-server: \$schema=(\S+)\n/.exec(readFileSync(path, 'utf8'))?.[1];
      expect(ref, file).toBe(
        `${'../'.repeat(file!.split('/').length - 1)}node_modules/agent-state/schemas/${schema}.schema.json`,
      );
      const target = JSON.parse(readFileSync(resolve(dirname(path), ref!), 'utf8')) as {
        $id: string;
      };
      expect(target.$id).toMatch(new RegExp(`/${schema}\\.schema\\.json$`));
    }
  });

  it('initializes the repository root when run from a subdirectory', async () => {
    const repo = gitdir();
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    const result = await runCli(join(repo, 'src', 'deep'), ['init']);
    expect(result.code).toBe(0);
    expect(existsSync(join(repo, '.agent', 'state', 'progress.yaml'))).toBe(true);
    expect(existsSync(join(repo, 'src', 'deep', '.agent'))).toBe(false);
  });

  it('works outside git and says what is lost', async () => {
    const dir = testdir({ 'notes.txt': 'x' });
    const result = await runCli(dir, ['init', '--json']);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout) as { git: boolean; created: string[] };
    expect(json.git).toBe(false);
    expect(json.created).toContain('.agent/state/goals.md');
    const human = await runCli(dir, ['init', '--force']);
    expect(human.stdout).toMatch(/Not a git repository/);
  });

  it('exits 3 with a hint when a command runs before init', async () => {
    const repo = gitdir();
    const result = await runCli(repo, ['status']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/agent-state init/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
