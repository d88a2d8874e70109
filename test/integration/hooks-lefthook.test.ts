import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, git, runCli } from '../helpers/fixtures.js';
import {
  commitEnv,
  commitFiles,
  gitRun,
  linkAgentState,
  stateRepo,
  loggedEvents,
} from '../helpers/hooks.js';

const LEFTHOOK = join(REPO_ROOT, 'node_modules', '.bin', 'lefthook');

const CONFIG = `# Team hooks: keep them fast.
pre-commit:
  parallel: true # run jobs side by side
  jobs:
    - name: user-check
      run: echo "lefthook user job ran"

# Pushes run the whole suite.
pre-push:
  commands:
    test:
      run: npm test
`;

// lefthook 2 from npm (a devDependency): `lefthook install` writes git's runners for each hook.
function lefthookInstall(repo: string): void {
  const result = spawnSync(LEFTHOOK, ['install'], {
    cwd: repo,
    env: commitEnv(),
    encoding: 'utf8',
  });
  if (result.status !== 0)
    throw new Error(`lefthook install failed: ${result.stdout}${result.stderr}`);
}

describe('lefthook 2', () => {
  it('gets a job merged into lefthook.yml with its comments kept, and uninstall restores the file', async () => {
    const repo = await stateRepo({ 'lefthook.yml': CONFIG });
    linkAgentState(repo);
    const install = await runCli(repo, ['hooks', 'install', '--json'], { env: commitEnv() });
    expect(install.code).toBe(0);
    const result = JSON.parse(install.stdout) as {
      manager: string;
      reason: string;
      notes: string[];
    };
    expect(result.manager).toBe('lefthook');
    expect(result.reason).toBe('lefthook.yml exists');
    expect(result.notes[0]).toContain('npx lefthook install');

    const text = readFileSync(join(repo, 'lefthook.yml'), 'utf8');
    for (const comment of [
      '# Team hooks: keep them fast.',
      '# run jobs side by side',
      '# Pushes run the whole suite.',
    ])
      expect(text).toContain(comment);
    const config = parse(text) as Record<string, { jobs?: { name: string; run: string }[] }>;
    expect(config['pre-commit']!.jobs!.map((j) => j.name)).toEqual(['user-check', 'agent-state']);
    expect(config['post-checkout']!.jobs![0]!.run).toContain('hook post-checkout {1} {2} {3}');
    expect(text).not.toContain(REPO_ROOT);

    lefthookInstall(repo);
    expect(JSON.parse((await runCli(repo, ['hooks', 'status', '--json'])).stdout)).toMatchObject({
      active: true,
    });
    git(repo, 'add', 'lefthook.yml');
    const clean = gitRun(repo, ['commit', '-q', '-m', 'lefthook']);
    expect(clean.code).toBe(0);
    expect(clean.stdout + clean.stderr).toContain('lefthook user job ran');

    const blocked = commitFiles(repo, { 'src/storage/db.js': 'changed\n' });
    expect(blocked.code).not.toBe(0);
    expect(blocked.stdout + blocked.stderr).toContain(
      'agent-state pre-commit hook: commit blocked',
    );
    expect(blocked.stdout + blocked.stderr).toContain(
      '`src/storage/**` — the storage layer is frozen',
    );
    git(repo, 'reset', '-q');

    expect(gitRun(repo, ['checkout', '-q', '-b', 'feature']).code).toBe(0);
    const [checkout] = loggedEvents(repo, 'git.');
    expect(checkout).toMatchObject({ type: 'git.checkout', branch: 'feature' });
    expect(checkout!.to).toMatch(/^[0-9a-f]{40}$/);

    const uninstall = await runCli(repo, ['hooks', 'uninstall']);
    expect(uninstall.code).toBe(0);
    expect(readFileSync(join(repo, 'lefthook.yml'), 'utf8')).toBe(CONFIG);
  });

  it('lets the commit through when agent-state is not installed, and with AGENT_STATE=0', async () => {
    const repo = await stateRepo({ 'lefthook.yml': CONFIG });
    const env = commitEnv();
    // The job's own lookup finds nothing: install, status and doctor say so.
    const install = await runCli(repo, ['hooks', 'install', '--hooks', 'pre-commit'], { env });
    expect(install.code).toBe(0);
    const finds =
      /finds no agent-state \(\.\/node_modules\/\.bin\/agent-state or agent-state on PATH\)/;
    expect(install.stdout).toMatch(finds);
    lefthookInstall(repo);
    const status = await runCli(repo, ['hooks', 'status', '--json'], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({
      active: false,
      entries: expect.arrayContaining([
        {
          hook: 'pre-commit',
          manager: 'lefthook',
          installed: true,
          file: 'lefthook.yml',
          problems: [expect.stringMatching(finds)],
        },
      ]),
    });
    expect((await runCli(repo, ['hooks', 'status'], { env })).stdout).not.toContain(
      'The pre-commit hook is active',
    );
    const doctor = await runCli(repo, ['doctor'], { env });
    expect(doctor.stdout).toMatch(
      /warn {2}git hooks: lefthook\.yml: the pre-commit job finds no agent-state/,
    );
    expect(doctor.stdout).toContain(`fix: npm install -g ${REPO_ROOT}`);
    expect(doctor.stdout).toMatch(/nothing failed; \d+ warnings above\n$/);
    git(repo, 'add', 'lefthook.yml');
    expect(gitRun(repo, ['commit', '-q', '-m', 'lefthook']).code).toBe(0);
    const unchecked = commitFiles(repo, { 'src/storage/db.js': 'nobody checks\n' });
    expect(unchecked.code).toBe(0);
    linkAgentState(repo);
    expect(
      JSON.parse((await runCli(repo, ['hooks', 'status', '--json'], { env })).stdout),
    ).toMatchObject({
      active: true,
    });
    expect(commitFiles(repo, { 'src/storage/db.js': 'checked\n' }).code).not.toBe(0);
    expect(commitFiles(repo, { 'src/storage/db.js': 'skipped\n' }, { AGENT_STATE: '0' }).code).toBe(
      0,
    );
  });

  it('creates lefthook.yml when asked to, and deletes it again when nothing else is in it', async () => {
    const repo = await stateRepo();
    const install = await runCli(repo, [
      'hooks',
      'install',
      '--manager',
      'lefthook',
      '--hooks',
      'pre-commit',
    ]);
    expect(install.code).toBe(0);
    expect(Object.keys(parse(readFileSync(join(repo, 'lefthook.yml'), 'utf8')) as object)).toEqual([
      'pre-commit',
    ]);
    expect((await runCli(repo, ['hooks', 'uninstall'])).code).toBe(0);
    expect(existsSync(join(repo, 'lefthook.yml'))).toBe(false);
  });

  it('refuses a lefthook.yml it cannot parse, naming the line, and changes nothing', async () => {
    const repo = await stateRepo();
    writeFileSync(join(repo, 'lefthook.yml'), 'pre-commit:\n  jobs: [\n');
    const install = await runCli(repo, ['hooks', 'install']);
    expect(install.code).toBe(2);
    expect(install.stderr).toMatch(/agent-state: lefthook\.yml:\d+:\d+: YAML syntax/);
    expect(readFileSync(join(repo, 'lefthook.yml'), 'utf8')).toBe('pre-commit:\n  jobs: [\n');
  });
});
