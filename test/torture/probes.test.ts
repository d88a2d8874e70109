// Path and escape probes: what an attacker (or a confused agent) would try — paths out of the
// repository through `..`, absolute paths and symlinks, ids that are paths, escape sequences and
// secrets in every text. Each probe has the exit code it must get and what must (not) happen on
// disk; every run also passes the common checks (no exit 70, no stack trace, no control
// character on output).
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { git, testdir } from '../helpers/fixtures.js';
import { SECRETS } from '../helpers/secrets.js';
import {
  checkRun,
  clip,
  expectNoViolations,
  readTree,
  report,
  richRepo,
  runBin,
  secretIn,
  type Violation,
} from './harness.js';

const ESC = '\u001b]0;pwned\u0007\u001b[2J\u009b31m\u202e';

interface Probe {
  name: string;
  args: string[];
  /** The exit codes it may end with. */
  exits: number[];
  input?: string;
  /** Runs from this subdirectory of the repository. */
  cwd?: string;
  /** What must hold afterwards (a message when it does not). */
  after?: (repo: string) => string | null;
}

describe('path and escape probes', () => {
  it('every probe gets its documented answer and leaves nothing outside the repository', async () => {
    const repo = await richRepo();
    const outside = testdir({
      'victim.txt': 'outside the repository\n',
      shadow: `root:${SECRETS.password}\n`,
      credentials: `aws_secret_access_key = ${SECRETS.aws_access_key}\n`,
    });
    const victim = join(outside, 'victim.txt');
    mkdirSync(join(repo, 'links'));
    symlinkSync(outside, join(repo, 'links', 'out'));
    symlinkSync(join(outside, 'shadow'), join(repo, 'links', 'shadow.txt'));
    mkdirSync(join(repo, 'sub'));
    writeFileSync(join(repo, 'sub', 'x.txt'), 'x\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'probes');
    const unchanged = (path: string, text: string) => () =>
      readFileSync(path, 'utf8') === text ? null : `${path} changed`;
    const victimIntact = unchanged(victim, 'outside the repository\n');
    const hook = (tool: string, input: Record<string, unknown>) =>
      JSON.stringify({
        session_id: 's',
        cwd: repo,
        hook_event_name: 'PreToolUse',
        tool_name: tool,
        tool_input: input,
      });

    const probes: Probe[] = [
      { name: 'done ../', args: ['done', 't2', '--files', '../victim.txt'], exits: [2] },
      { name: 'done absolute', args: ['done', 't2', '--files', victim], exits: [2] },
      { name: 'done /etc/passwd', args: ['done', 't2', '--files', '/etc/passwd'], exits: [2] },
      {
        name: 'done through a symlinked dir',
        args: ['done', 't2', '--files', 'links/out/victim.txt'],
        exits: [2],
      },
      {
        name: 'done from a subdir, ../..',
        args: ['done', 't2', '--files', '../../x'],
        exits: [2],
        cwd: 'sub',
      },
      {
        name: 'evidence --raw absolute',
        args: [
          'evidence',
          'add',
          '--kind',
          'note',
          '--summary',
          's',
          '--raw',
          join(outside, 'shadow'),
        ],
        exits: [2],
      },
      {
        name: 'evidence --raw /etc/passwd',
        args: ['evidence', 'add', '--kind', 'note', '--summary', 's', '--raw', '/etc/passwd'],
        exits: [2],
      },
      {
        name: 'evidence --raw symlink out',
        args: ['evidence', 'add', '--kind', 'note', '--summary', 's', '--raw', 'links/shadow.txt'],
        exits: [2],
      },
      {
        name: 'evidence --body-file ../',
        args: [
          'evidence',
          'add',
          '--kind',
          'note',
          '--summary',
          's',
          '--body-file',
          '../credentials',
        ],
        exits: [2],
      },
      {
        name: 'evidence --body-file through a link',
        args: [
          'evidence',
          'add',
          '--kind',
          'note',
          '--summary',
          's',
          '--body-file',
          'links/out/credentials',
        ],
        exits: [2],
      },
      {
        name: 'evidence --body-file --allow-outside: redacted',
        args: [
          'evidence',
          'add',
          '--kind',
          'note',
          '--summary',
          's',
          '--body-file',
          join(outside, 'credentials'),
          '--allow-outside',
        ],
        exits: [0],
      },
      { name: 'evidence show ../', args: ['evidence', 'show', '../../etc/passwd'], exits: [2] },
      { name: 'evidence show huge id', args: ['evidence', 'show', '9'.repeat(400)], exits: [2] },
      { name: 'plan add --id path', args: ['plan', 'add', 'x', '--id', '../../x'], exits: [2] },
      { name: 'plan add --id escape', args: ['plan', 'add', 'x', '--id', `a${ESC}`], exits: [2] },
      { name: 'plan add escape title', args: ['plan', 'add', `title ${ESC}`], exits: [0] },
      {
        name: 'next escape + secret',
        args: ['next', `next ${ESC} ${SECRETS.github_token}`],
        exits: [0],
      },
      { name: 'memory secret', args: ['memory', 'add', `key ${SECRETS.openai_key}`], exits: [0] },
      { name: 'remind secret', args: ['remind', `tell ${SECRETS.slack_token}`], exits: [0] },
      { name: 'goal secret', args: ['goal', `Ship ${SECRETS.npm_token}`], exits: [0] },
      {
        name: 'current --scope ../',
        args: ['current', '--objective', 'x', '--scope', '../**'],
        exits: [2],
      },
      {
        name: 'current --scope absolute',
        args: ['current', '--objective', 'x', '--scope', '/etc/**'],
        exits: [2],
      },
      { name: 'next 100k chars', args: ['next', 'x'.repeat(100_000)], exits: [2] },
      { name: '--cwd nowhere', args: ['--cwd', '/nonexistent/dir', 'status'], exits: [2] },
      { name: '--cwd a file', args: ['--cwd', victim, 'status'], exits: [2] },
      {
        name: 'event escape fields',
        args: ['event', 'tool.finished', '--field', `name=${ESC}`],
        exits: [0],
      },
      { name: 'event type with escape', args: ['event', `tool.${ESC}`], exits: [2] },
      { name: 'status after escapes', args: ['status'], exits: [0] },
      { name: 'status xml after escapes', args: ['status', '--format', 'xml'], exits: [0] },
      { name: 'plan list after escapes', args: ['plan', 'list'], exits: [0] },
      { name: 'events after escapes', args: ['events'], exits: [0] },
      { name: 'boot after escapes', args: ['boot', '--fast', '--dry-run'], exits: [0] },
      {
        name: 'statusline after escapes',
        args: ['statusline'],
        exits: [0],
        input: JSON.stringify({ cwd: repo }),
      },
      {
        name: 'hook: Write /etc/passwd',
        args: ['hook', 'claude'],
        exits: [0],
        input: hook('Write', { file_path: '/etc/passwd', content: 'x' }),
      },
      {
        name: 'hook: Write ../ out of the repo',
        args: ['hook', 'claude'],
        exits: [0],
        input: hook('Write', { file_path: '../../victim.txt', content: 'x' }),
      },
      {
        name: 'hook: Bash cd out',
        args: ['hook', 'claude'],
        exits: [0],
        input: hook('Bash', { command: `cd ${outside} && echo x > victim.txt` }),
      },
      {
        name: 'hook: apply_patch ../',
        args: ['hook', 'codex'],
        exits: [0],
        input: hook('apply_patch', {
          command: '*** Begin Patch\n*** Add File: ../../x\n+x\n*** End Patch',
        }),
      },
      {
        name: 'progress.yaml a symlink out: a write does not go through it',
        args: ['next', 'through the link'],
        exits: [0, 2],
        after: victimIntact,
      },
    ];

    const violations: Violation[] = [];
    for (const probe of probes) {
      if (probe.name.startsWith('progress.yaml a symlink')) {
        const progress = join(repo, '.agent/state/progress.yaml');
        const target = join(outside, 'progress.yaml');
        const text = readFileSync(progress, 'utf8');
        writeFileSync(target, text);
        rmSync(progress);
        symlinkSync(target, progress);
        probe.after = () => unchanged(target, text)() ?? victimIntact();
      }
      const run = await runBin(probe.cwd ? join(repo, probe.cwd) : repo, probe.args, {
        input: probe.input,
        timeoutMs: 60_000,
      });
      const context = `probe "${probe.name}"`;
      violations.push(...checkRun(run, context));
      if (run.code === null || !probe.exits.includes(run.code))
        violations.push({
          kind: 'wrong answer to a probe',
          detail: `${context}: exit ${run.code}, expected ${probe.exits.join(' or ')}\n${clip(run.stdout)}\n${clip(run.stderr)}`,
        });
      const broken = probe.after ? probe.after(repo) : victimIntact();
      if (broken)
        violations.push({ kind: 'write outside the repository', detail: `${context}: ${broken}` });
    }
    for (const [path, content] of Object.entries(readTree(join(repo, '.agent')))) {
      const secret = secretIn(Buffer.from(content, 'latin1').toString());
      if (secret)
        violations.push({
          kind: 'secret on disk',
          detail: `${path} holds ${secret.slice(0, 12)}…`,
        });
    }
    if (existsSync(join(outside, 'x')))
      violations.push({ kind: 'write outside the repository', detail: 'x' });
    report('probes', { probes: probes.length }, violations);
    expectNoViolations(violations);
  });
});
