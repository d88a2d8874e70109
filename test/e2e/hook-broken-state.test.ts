// A state file that does not parse left the agent blind: the session-start hook injected nothing
// and said why only on stderr, which hosts do not show the model. Now the model gets a short notice
// naming file:line and the fix (so it can repair the file or tell the user), the host's session
// goes on (exit 0), and the broken file is not touched.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTROL } from '../helpers/controls.js';
import { gitdir, runCli, writeFiles } from '../helpers/fixtures.js';
import { SECRETS } from '../helpers/secrets.js';

// Line 3 does not parse (an unterminated quote), and holds an escape and a secret.
const BROKEN = `version: 1\nrevision: 3\nnext_action: "deploy \u001b]0;x\u0007 with ${SECRETS.aws_access_key}\nstage: implementing\n`;

async function brokenRepo(file = '.agent/state/progress.yaml', text = BROKEN): Promise<string> {
  const repo = gitdir({ 'package.json': '{}\n' });
  expect((await runCli(repo, ['init', '--goal', 'Ship the demo'])).code).toBe(0);
  writeFiles(repo, { [file]: text });
  return repo;
}

function expectNotice(context: string, file: string): void {
  expect(context).toMatch(new RegExp(`${file.replace(/\./g, '\\.')}:\\d+`));
  expect(context).toContain('fix:');
  expect(context).toMatch(/tell the user/);
  expect(context).not.toContain(SECRETS.aws_access_key);
  expect(CONTROL.exec(context)).toBeNull();
  expect(context.length).toBeLessThan(1500);
}

const claudeStart = (repo: string, source = 'startup') =>
  JSON.stringify({ session_id: 's', cwd: repo, hook_event_name: 'SessionStart', source });

describe('a broken state file at session start', () => {
  it('claude: the model is told which file and line, and how to fix it', async () => {
    const repo = await brokenRepo();
    const result = await runCli(repo, ['hook', 'claude'], { input: claudeStart(repo) });
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expectNotice(out.hookSpecificOutput.additionalContext, '.agent/state/progress.yaml');
    expect(result.stderr).toMatch(/progress\.yaml:\d+/);
    expect(readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8')).toBe(BROKEN);
  });

  it('codex and an invalid config.yaml: the same notice, naming config.yaml', async () => {
    const config = 'version: 1\nbudget:\n  total: lots\n';
    const repo = await brokenRepo('.agent/config.yaml', config);
    const input = JSON.stringify({
      session_id: 's',
      transcript_path: null,
      cwd: repo,
      hook_event_name: 'SessionStart',
      model: 'gpt-5',
      source: 'startup',
    });
    const result = await runCli(repo, ['hook', 'codex'], { input });
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as { hookSpecificOutput: { additionalContext: string } };
    expectNotice(out.hookSpecificOutput.additionalContext, '.agent/config.yaml');
    expect(readFileSync(join(repo, '.agent/config.yaml'), 'utf8')).toBe(config);
  });

  it('codex: the boot owed after a compaction says so, and comes once the file is repaired', async () => {
    const repo = await brokenRepo();
    const base = { session_id: 's', cwd: repo, model: 'm' };
    for (const event of [
      { hook_event_name: 'PreCompact', trigger: 'auto' },
      { hook_event_name: 'PostCompact', trigger: 'auto' },
    ]) {
      const result = await runCli(repo, ['hook', 'codex'], {
        input: JSON.stringify({ ...base, ...event }),
      });
      expect(result.code, result.stderr).toBe(0);
    }
    const prompt = JSON.stringify({
      ...base,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'go on',
    });
    const blind = await runCli(repo, ['hook', 'codex'], { input: prompt });
    expect(blind.code).toBe(0);
    const notice = JSON.parse(blind.stdout) as {
      hookSpecificOutput: { additionalContext: string };
    };
    expectNotice(notice.hookSpecificOutput.additionalContext, '.agent/state/progress.yaml');

    // Repaired: the next prompt gets the boot prompt that is still owed, then nothing more.
    writeFiles(repo, {
      '.agent/state/progress.yaml': 'version: 1\nrevision: 3\nstage: implementing\n',
    });
    const fixed = await runCli(repo, ['hook', 'codex'], { input: prompt });
    const boot = JSON.parse(fixed.stdout) as { hookSpecificOutput: { additionalContext: string } };
    expect(boot.hookSpecificOutput.additionalContext).toMatch(/agent-state boot · level [23]/);
    expect((await runCli(repo, ['hook', 'codex'], { input: prompt })).stdout).toBe('');
  });

  it('a healthy state gets its boot prompt, never the notice', async () => {
    const repo = await brokenRepo('README.md', '# fine\n');
    const result = await runCli(repo, ['hook', 'claude'], { input: claudeStart(repo) });
    const out = JSON.parse(result.stdout) as { hookSpecificOutput: { additionalContext: string } };
    expect(out.hookSpecificOutput.additionalContext).toMatch(/^# agent-state boot · level/);
    expect(out.hookSpecificOutput.additionalContext).not.toMatch(/could not be read/);
    expect(result.stderr).toBe('');
  });
});
