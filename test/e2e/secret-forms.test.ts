// The common forms of a credential that are not a vendor token — a JWT, a URL's password,
// `Authorization: Basic`, `--password X`, `mysql -pX` — are redacted everywhere a text goes: the
// evidence, the boot, the SessionStart context, the HTML report, a test log's artifact and verify's
// commit subjects; and git's own files (remote credentials) are no marker file and no evidence body.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { git, gitdir, runCli, writeFiles } from '../helpers/fixtures.js';
import { SECRETS, sensitivePart } from '../helpers/secrets.js';

const FORMS = ['jwt', 'url_password', 'basic_auth', 'password_flag', 'mysql_password'];
const ALL = FORMS.map((kind) => SECRETS[kind]!).join(' ; ');

function expectNoForm(text: string, where: string): void {
  for (const kind of FORMS)
    expect(text, `${kind} in ${where}`).not.toContain(sensitivePart(kind, SECRETS[kind]!));
}

function tree(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

describe('credentials in their common forms', () => {
  let repo: string;
  beforeAll(async () => {
    repo = gitdir({
      'src/a.js': 'export const a = 1;\n',
      'test.sh': `echo "cloning https://ci:${sensitivePart('url_password', SECRETS.url_password!)}@git.example.com/x"\necho "${SECRETS.jwt}"\n`,
    });
    expect((await runCli(repo, ['init'])).code).toBe(0);
    writeFiles(repo, { '.agent/config.yaml': 'version: 1\ntest: sh test.sh\n' });
    for (const args of [
      ['next', `deploy with ${ALL}`],
      ['memory', 'add', `connect with ${ALL}`, '--durable'],
      ['evidence', 'add', '--kind', 'note', '--summary', 'creds', '--body', `used ${ALL}`],
      ['plan', 'add', 'Deploy'],
      ['checkpoint'],
    ]) {
      const result = await runCli(repo, args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      expectNoForm(result.stdout + result.stderr, args[0]!);
    }
  });

  it('stores none under .agent/: progress.yaml, evidence, the test log artifact, the event log', () => {
    const progress = readFileSync(join(repo, '.agent/state/progress.yaml'), 'utf8');
    expect(progress).toContain('[REDACTED:jwt]');
    expect(progress).toMatch(/recent_next_actions:[\s\S]*\[REDACTED:url_password\]/);
    const artifacts = tree(join(repo, '.agent/artifacts'));
    expect(artifacts).toContain('https://ci:[REDACTED:url_password]@git.example.com');
    expectNoForm(tree(join(repo, '.agent')), '.agent/');
  });

  it('shows none in the boot, the SessionStart context or the HTML report', async () => {
    const boot = await runCli(repo, ['boot', '--fast', '--level', '3']);
    expect(boot.stdout).toContain('[REDACTED:basic_auth]');
    expectNoForm(boot.stdout, 'boot');
    const hook = await runCli(repo, ['hook', 'claude'], {
      input: JSON.stringify({
        session_id: 's',
        cwd: repo,
        hook_event_name: 'SessionStart',
        source: 'startup',
      }),
    });
    expect(hook.stdout).toContain('[REDACTED:');
    expectNoForm(hook.stdout, 'SessionStart');
    const report = await runCli(repo, ['report', '--html', 'report.html']);
    expect(report.code, report.stderr).toBe(0);
    expectNoForm(readFileSync(join(repo, 'report.html'), 'utf8'), 'report --html');
  });

  it('verify redacts commit subjects, in text and --json', async () => {
    writeFiles(repo, { 'src/b.js': 'b\n' });
    git(repo, 'add', 'src/b.js');
    git(repo, 'commit', '-q', '-m', `use ${SECRETS.url_password} and ${SECRETS.jwt}`);
    for (const args of [['verify'], ['verify', '--json']]) {
      const verify = await runCli(repo, args);
      expect(verify.code).toBe(1);
      expect(verify.stdout).toContain('[REDACTED:url_password]');
      expectNoForm(verify.stdout, args.join(' '));
    }
  });

  it('refuses git’s own files as marker files and evidence bodies', async () => {
    git(repo, 'config', 'remote.origin.url', SECRETS.url_password!);
    const done = await runCli(repo, ['done', 't1', '--files', '.git/config']);
    expect(done.code).toBe(2);
    expect(done.stderr).toContain('.git/config');
    const body = await runCli(repo, [
      'evidence',
      'add',
      '--kind',
      'note',
      '--summary',
      'git config',
      '--body-file',
      '.git/config',
    ]);
    expect(body.code).toBe(2);
    expect(body.stderr).toContain('.git/config');
    expectNoForm(tree(join(repo, '.agent')), '.agent/');
  });
});
