// `doctor` and `statusline` end to end on real repositories.
import { chmodSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitdir, runCli, testdir, writeFiles } from '../helpers/fixtures.js';

describe('doctor', () => {
  it('passes a wired-up repository and lists every check', async () => {
    const repo = gitdir();
    await runCli(repo, ['init', '--goal', 'Check the install']);
    const bin = join(testdir(), 'agent-state');
    writeFileSync(bin, '#!/bin/sh\n');
    chmodSync(bin, 0o755);
    await runCli(repo, ['integrate', 'claude', '--bin', bin]);
    const result = await runCli(repo, ['doctor', '--json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      ok: boolean;
      checks: { name: string; status: string }[];
    };
    expect(report.ok).toBe(true);
    expect(report.checks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'claude hooks (.claude/settings.json)', status: 'ok' }),
        expect.objectContaining({ name: 'state (.agent/state/progress.yaml)', status: 'ok' }),
      ]),
    );
  });

  it('fails, saying what to fix, when the hook binary is gone, a config does not parse, or the state is invalid', async () => {
    const repo = gitdir();
    await runCli(repo, ['init']);
    await runCli(repo, ['integrate', 'claude', '--bin', '/nowhere/agent-state']);
    writeFiles(repo, {
      '.gemini/settings.json':
        '{"hooks": {"SessionStart": [{"hooks": [{"type":"command","command":"agent-state hook gemini"}]}]},,}',
    });
    writeFiles(repo, { '.agent/state/progress.yaml': 'version: 1\nrevision: -4\n' });
    const result = await runCli(repo, ['doctor']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /FAIL {2}claude hook binary: the hooks run `\/nowhere\/agent-state`, which is not found/,
    );
    expect(result.stdout).toMatch(
      /FAIL {2}gemini hooks \(\.gemini\/settings\.json\): \.gemini\/settings\.json:1:\d+: not valid JSON/,
    );
    expect(result.stdout).toMatch(
      /FAIL {2}state \(\.agent\/state\/progress\.yaml\): \.agent\/state\/progress\.yaml:2/,
    );
    expect(result.stdout).toMatch(/fix: /);
  });
});

describe('doctor and integrate: Gemini CLI folder trust', () => {
  it('says the folder is untrusted and prints the command; integrate --trust fixes it', async () => {
    const repo = gitdir();
    const home = testdir();
    const env = { HOME: home, GEMINI_CLI_HOME: '', GEMINI_CLI_TRUST_WORKSPACE: '' };
    await runCli(repo, ['init', '--goal', 'Trust the folder'], { env });
    const bin = join(testdir(), 'agent-state');
    writeFileSync(bin, '#!/bin/sh\n');
    chmodSync(bin, 0o755);
    const integrated = await runCli(repo, ['integrate', 'gemini', '--bin', bin], { env });
    expect(integrated.stdout).toContain(
      'note: Gemini CLI runs no hooks in a folder it does not trust',
    );
    expect(integrated.stdout).toContain('run `agent-state integrate gemini --trust`');
    const untrusted = await runCli(repo, ['doctor'], { env });
    expect(untrusted.code).toBe(1);
    expect(untrusted.stdout).toMatch(
      /FAIL {2}gemini folder trust: Gemini CLI does not trust this folder \(no rule for it in .*trustedFolders\.json\), so it runs none of the hooks/,
    );
    expect(untrusted.stdout).toContain('fix: run `agent-state integrate gemini --trust`');
    const trusted = await runCli(repo, ['integrate', 'gemini', '--trust', '--bin', bin], { env });
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toMatch(/created +~\/\.gemini\/trustedFolders\.json/);
    const rules = JSON.parse(readFileSync(join(home, '.gemini', 'trustedFolders.json'), 'utf8'));
    expect(rules).toEqual({ [realpathSync(repo)]: 'TRUST_FOLDER' });
    const doctor = await runCli(repo, ['doctor', '--json'], { env });
    const report = JSON.parse(doctor.stdout) as { checks: { name: string; status: string }[] };
    expect(report.checks).toContainEqual(
      expect.objectContaining({ name: 'gemini folder trust', status: 'ok' }),
    );
    // A parent folder's rule counts (TRUST_PARENT trusts the rule's parent), and the env var.
    writeFileSync(
      join(home, '.gemini', 'trustedFolders.json'),
      JSON.stringify({ [join(repo, 'sub')]: 'TRUST_PARENT' }),
    );
    expect((await runCli(repo, ['doctor'], { env })).stdout).toMatch(/ok +gemini folder trust/);
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), '{}');
    const viaEnv = await runCli(repo, ['doctor'], {
      env: { ...env, GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    });
    expect(viaEnv.stdout).toMatch(
      /ok +gemini folder trust: trusted: GEMINI_CLI_TRUST_WORKSPACE=true/,
    );
  });

  it('refuses --trust for another host', async () => {
    const repo = gitdir();
    const result = await runCli(repo, ['integrate', 'claude', '--trust']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--trust applies to codex and gemini only');
  });
});

describe('statusline', () => {
  it('prints one short line from the state, reading the session JSON on stdin', async () => {
    const repo = gitdir();
    await runCli(repo, ['init', '--goal', 'Show a status line']);
    await runCli(repo, ['plan', 'add', 'One', '--id', 't1']);
    await runCli(repo, ['plan', 'add', 'Two', '--id', 't2']);
    await runCli(repo, [
      'next',
      'Write the first test for the status line renderer please',
      '--stage',
      'implementing',
    ]);
    const elsewhere = testdir();
    const input = JSON.stringify({
      hook_event_name: 'Status',
      model: { display_name: 'Opus' },
      workspace: { current_dir: repo, project_dir: repo },
    });
    const result = await runCli(elsewhere, ['statusline'], { input });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(
      'implementing · next: Write the first test for the status line render… · plan 0/2 · no checkpoint yet\n',
    );
  });

  it('prints a JSON document with --json: the line and its facts', async () => {
    const repo = gitdir();
    await runCli(repo, ['init', '--goal', 'Show a status line']);
    await runCli(repo, ['plan', 'add', 'One', '--id', 't1']);
    await runCli(repo, ['done', 't1']);
    await runCli(repo, ['next', 'Write the docs', '--stage', 'documenting']);
    const result = await runCli(repo, ['statusline', '--json']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual({
      ok: true,
      line: 'documenting · next: Write the docs · plan 1/1 · no checkpoint yet',
      stage: 'documenting',
      next_action: 'Write the docs',
      plan: { done: 1, total: 1 },
      last_checkpoint: null,
      signals: [],
    });
    const outside = await runCli(testdir(), ['statusline', '--json']);
    expect(outside.code).toBe(0);
    expect(JSON.parse(outside.stdout)).toEqual({
      ok: false,
      line: 'agent-state: no .agent/ here',
      error: { code: 'NOT_INITIALIZED', message: expect.stringMatching(/\.agent/) as unknown },
    });
  });

  it('never fails: outside a task it says so in one line', async () => {
    const result = await runCli(testdir(), ['statusline'], { input: 'not json' });
    expect(result).toEqual({ code: 0, stdout: 'agent-state: no .agent/ here\n', stderr: '' });
  });
});
