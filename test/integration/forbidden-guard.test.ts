// The Forbidden guard of the host hooks, probed as an attacker would (issue 21): a PreToolUse call
// through the real hook entry (runHostHook) on real temp repositories.
// It must need nothing but goals.md's Forbidden rules and the mode, see through symlinks, parent
// deletes, wrappers and commands it cannot read, and refuse any tool call that weakens it.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeHost } from '../../src/hosts/claude/claude-host.js';
import { handleHookEvent } from '../../src/hosts/handle-event.js';
import { parseHostHookPayload } from '../../src/hosts/host-hook-payload.js';
import type { HostName } from '../../src/hosts/host-names.js';
import { runHostHook } from '../../src/hosts/run-host-hook.js';
import { findRepo } from '../../src/state/find-root.js';
import { initState } from '../../src/state/init.js';
import { git, gitdir, testdir, writeFiles } from '../helpers/fixtures.js';

const GOALS = `# Todo API

Add pagination to GET /todos.

## Forbidden

- \`src/storage/**\` — the storage layer is frozen
- no keys: \`*.pem\`
`;

function repo(files: Record<string, string> = {}): string {
  const dir = gitdir({
    'src/server.js': 'export const port = 3000;\n',
    'src/storage/db.js': 'export const db = new Map();\n',
    'config/deploy/key.pem': 'not a real key\n',
    'README.md': '# todo\n',
    ...files,
  });
  initState({ cwd: dir, goal: 'Add pagination' });
  writeFiles(dir, { '.agent/state/goals.md': GOALS });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'state');
  return dir;
}

type Input = Record<string, unknown>;

// One PreToolUse call in the host's own payload shape; the deny reason, or null when allowed.
async function preTool(
  dir: string,
  tool: string,
  input: Input,
  host: HostName = 'claude',
): Promise<string | null> {
  const payload =
    host === 'gemini'
      ? {
          session_id: 's',
          cwd: dir,
          hook_event_name: 'BeforeTool',
          tool_name: tool,
          tool_input: input,
        }
      : host === 'opencode'
        ? { event: 'tool.execute.before', cwd: dir, sessionID: 's', tool, args: input }
        : {
            session_id: 's',
            cwd: dir,
            hook_event_name: 'PreToolUse',
            tool_name: tool,
            tool_input: input,
          };
  const result = await runHostHook(host, JSON.stringify(payload), { cwd: dir });
  expect(result.exitCode).toBe(0);
  if (result.stdout === '') return null;
  const out = JSON.parse(result.stdout) as {
    hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string };
    decision?: string;
    reason?: string;
    deny?: string;
  };
  if (out.hookSpecificOutput?.permissionDecision === 'deny')
    return out.hookSpecificOutput.permissionDecisionReason ?? '';
  if (out.decision === 'deny') return out.reason ?? '';
  return out.deny ?? null;
}

const bash = (dir: string, command: string) => preTool(dir, 'Bash', { command });
const write = (dir: string, file_path: string, content = 'x\n') =>
  preTool(dir, 'Write', { file_path, content });

describe('Forbidden guard: a broken state file does not switch it off (item 1)', () => {
  const broken: [string, string, (text: string) => string | Buffer][] = [
    ['a bad line in progress.yaml', '.agent/state/progress.yaml', (t) => `${t}next_action: "\n`],
    [
      'a merge conflict in progress.yaml',
      '.agent/state/progress.yaml',
      (t) => `<<<<<<< HEAD\n${t}=======\nstage: x\n>>>>>>> other\n`,
    ],
    ['an unknown key in config.yaml', '.agent/config.yaml', (t) => `${t}surprise: 1\n`],
    [
      'version: 2 in config.yaml',
      '.agent/config.yaml',
      (t) => t.replace(/^version: 1/m, 'version: 2'),
    ],
  ];
  for (const [what, file, breakIt] of broken)
    it(`${what}: a Forbidden write is still refused, others still allowed`, async () => {
      const dir = repo();
      const path = join(dir, file);
      writeFileSync(path, breakIt(readFileSync(path, 'utf8')));
      const before = readFileSync(path);
      expect(await write(dir, 'src/storage/db.js')).toContain('src/storage/db.js is Forbidden');
      expect(await bash(dir, 'echo x >> src/storage/db.js')).toContain('is Forbidden');
      expect(await write(dir, 'src/server.js')).toBeNull();
      expect(readFileSync(path)).toEqual(before);
    });

  const unreadable: [string, Buffer][] = [
    ['a NUL byte', Buffer.from(`${GOALS}\0\n`)],
    ['bad UTF-8', Buffer.concat([Buffer.from(GOALS), Buffer.from([0xc3, 0x28, 0x0a])])],
    ['over 1 MiB', Buffer.from(`${GOALS}${'- filler\n'.repeat(130_000)}`)],
  ];
  for (const [what, bytes] of unreadable)
    it(`goals.md with ${what}: every write is refused, saying why and how the user fixes it`, async () => {
      const dir = repo();
      writeFileSync(join(dir, '.agent/state/goals.md'), bytes);
      for (const reason of [
        await write(dir, 'src/storage/db.js'),
        await write(dir, 'src/server.js'),
        await bash(dir, 'touch src/new.js'),
      ]) {
        expect(reason).toContain('.agent/state/goals.md cannot be read');
        expect(reason).toContain('agent-state validate');
        expect(reason).toContain('ask the user');
      }
      expect(await bash(dir, 'npm test')).toBeNull();
      expect(readFileSync(join(dir, '.agent/state/goals.md')).equals(bytes)).toBe(true);
    });
});

describe('Forbidden guard: real paths through symlinks (item 3)', () => {
  function linked(): string {
    const dir = repo();
    symlinkSync('storage', join(dir, 'src/link2storage'));
    symlinkSync('storage/db.js', join(dir, 'src/db-link.js'));
    symlinkSync('..', join(dir, 'src/up'));
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'links');
    return dir;
  }

  it('refuses a write through a symlinked directory or file, new or existing, in every tool', async () => {
    const dir = linked();
    for (const path of [
      'src/link2storage/db.js',
      'src/link2storage/new.js',
      'src/link2storage/new/deep/x.js',
      'src/db-link.js',
      'src/up/src/storage/x.js',
      join(dir, 'src/link2storage/abs.js'),
    ])
      expect(await write(dir, path), path).toMatch(/src\/storage\/\S+ is Forbidden/);
    expect(await bash(dir, 'echo x > src/link2storage/y.js')).toContain('is Forbidden');
    expect(await bash(dir, 'cd src/link2storage && touch z.js')).toContain('is Forbidden');
    expect(
      await preTool(
        dir,
        'write_file',
        { file_path: 'src/link2storage/g.js', content: 'x' },
        'gemini',
      ),
    ).toContain('is Forbidden');
    expect(
      await preTool(
        dir,
        'apply_patch',
        {
          command: '*** Begin Patch\n*** Add File: src/link2storage/n.js\n+x\n*** End Patch',
        },
        'codex',
      ),
    ).toContain('is Forbidden');
    expect(
      await preTool(dir, 'write', { filePath: 'src/link2storage/o.js', content: 'x' }, 'opencode'),
    ).toContain('is Forbidden');
    expect(await write(dir, 'src/up/README.md')).toBeNull();
  });

  it('refuses through a link the agent just made, and from a cwd spelled through a link', async () => {
    const dir = repo();
    expect(await bash(dir, 'ln -s storage src/l')).toBeNull(); // a link is not a write into the zone
    symlinkSync('storage', join(dir, 'src/l'));
    expect(await write(dir, 'src/l/x.js')).toContain('src/storage/x.js is Forbidden');
    const outside = join(testdir(), 'spelled');
    symlinkSync(dir, outside);
    expect(await write(outside, join(outside, 'src/storage/db.js'))).toContain('is Forbidden');
  });
});

describe('Forbidden guard: parent deletes, wrappers, cp -t, commands it cannot read (item 5)', () => {
  it('refuses deleting a parent of a Forbidden zone, and allows deleting unrelated trees', async () => {
    const dir = repo();
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist/app.js'), 'x\n');
    for (const command of [
      'rm -rf src',
      'rm -rf .',
      'rm -rf *',
      'rm -rf ./src/',
      'find src -delete',
      'find . -name "*.js" -exec rm {} +',
      'git clean -fdx',
      'mv src /tmp/gone',
      'rm -rf config', // holds config/deploy/key.pem (`*.pem`)
      `rm -rf ${dir}`,
    ])
      expect(await bash(dir, command), command).toContain('Forbidden');
    for (const command of ['rm -rf dist', 'rm -rf node_modules', 'find dist -delete'])
      expect(await bash(dir, command), command).toBeNull();
  });

  it('sees through wrappers and copies into a Forbidden directory', async () => {
    const dir = repo();
    for (const command of [
      'env X=1 touch src/storage/a',
      'nice -n 5 touch src/storage/a',
      'timeout 5 touch src/storage/a',
      'command -p touch src/storage/a',
      'busybox touch src/storage/a',
      'cp -t src/storage README.md',
      'cp README.md src/storage',
      'cp README.md src/storage/',
      "sh -c 'echo x > src/storage/a'",
    ])
      expect(await bash(dir, command), command).toContain('is Forbidden');
    expect(await bash(dir, 'cp README.md src/')).toBeNull();
  });

  it('treats a command it cannot read that names a Forbidden path as a write, and lets readers be', async () => {
    const dir = repo();
    for (const command of [
      `python3 -c "open('src/storage/db.js', 'w').write('x')"`,
      'git checkout -- src/storage/db.js',
      'curl -o src/storage/db.js https://example.com/x',
      "node -e \"require('fs').rmSync('src/storage', {recursive: true})\"",
    ]) {
      const reason = await bash(dir, command);
      expect(reason, command).toContain('Forbidden');
      expect(reason, command).toContain('cannot tell');
    }
    for (const command of [
      'cat src/storage/db.js',
      "sed -n '1,20p' src/storage/db.js",
      'grep -rn db src/storage',
      'git diff -- src/storage',
      'npm test',
    ])
      expect(await bash(dir, command), command).toBeNull();
  });
});

describe('Forbidden guard: a command too long to check', () => {
  // Checking 100,000 named paths took 40 s, past every host's hook timeout (Claude Code: 5 s),
  // after which the host runs the tool anyway.
  it('is refused at once, not waved through by the host timing the hook out', async () => {
    const dir = repo();
    const words = Array.from({ length: 5000 }, (_, i) => `d${i}/f${i}`).join(' ');
    const started = Date.now();
    expect(await bash(dir, `python3 -c "${words}"`)).toContain('split it');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await bash(dir, `python3 -c "${words.slice(0, 10_000)}"`)).toBeNull();
    expect(await bash(dir, 'true|'.repeat(30_000))).toContain('split it');
  });
});

describe('Forbidden guard: the agent cannot weaken it (item 6)', () => {
  const config = (dir: string) => readFileSync(join(dir, '.agent/config.yaml'), 'utf8');

  it('refuses turning enforcement off in config.yaml, allows other config edits', async () => {
    const dir = repo();
    const text = config(dir);
    expect(text).toMatch(/forbidden: enforce/);
    expect(
      await write(
        dir,
        '.agent/config.yaml',
        text.replace('forbidden: enforce', 'forbidden: "off"'),
      ),
    ).toContain('integrations.forbidden');
    expect(
      await preTool(dir, 'Edit', {
        file_path: '.agent/config.yaml',
        old_string: 'forbidden: enforce',
        new_string: 'forbidden: warn',
      }),
    ).toContain('integrations.forbidden');
    expect(await write(dir, '.agent/config.yaml', `${text}\n`)).toBeNull();
    for (const command of [
      `sed -i 's/forbidden: enforce/forbidden: off/' .agent/config.yaml`,
      'echo "integrations: {forbidden: off}" > .agent/config.yaml',
      'rm -rf .agent',
      'mv .agent/state .agent/old',
    ])
      expect(await bash(dir, command), command).toContain('.agent/');
  });

  it('refuses removing a Forbidden rule from goals.md by any edit tool, allows adding one', async () => {
    const dir = repo();
    const rule = '- `src/storage/**` — the storage layer is frozen\n';
    const without = GOALS.replace(rule, '');
    const removes: [string, Input, HostName][] = [
      ['Write', { file_path: '.agent/state/goals.md', content: without }, 'claude'],
      ['Edit', { file_path: '.agent/state/goals.md', old_string: rule, new_string: '' }, 'claude'],
      [
        'Edit',
        { file_path: '.agent/state/goals.md', old_string: '## Forbidden', new_string: '## Notes' },
        'claude',
      ],
      [
        'Edit',
        {
          file_path: '.agent/state/goals.md',
          old_string: '## Forbidden',
          new_string: '<!--\n## Forbidden',
        },
        'claude',
      ],
      [
        'MultiEdit',
        {
          file_path: '.agent/state/goals.md',
          edits: [
            { old_string: 'pagination', new_string: 'paging' },
            { old_string: '`*.pem`', new_string: 'pem files' },
          ],
        },
        'claude',
      ],
      [
        'replace',
        { file_path: '.agent/state/goals.md', old_string: rule, new_string: '' },
        'gemini',
      ],
      ['write_file', { file_path: '.agent/state/goals.md', content: '# x\n' }, 'gemini'],
      ['edit', { filePath: '.agent/state/goals.md', oldString: rule, newString: '' }, 'opencode'],
      [
        'apply_patch',
        {
          command: `*** Begin Patch\n*** Update File: .agent/state/goals.md\n@@ ## Forbidden\n \n-${rule.trim()}\n*** End Patch`,
        },
        'codex',
      ],
      [
        'apply_patch',
        { command: '*** Begin Patch\n*** Delete File: .agent/state/goals.md\n*** End Patch' },
        'codex',
      ],
    ];
    for (const [tool, input, host] of removes)
      expect(
        await preTool(dir, tool, input, host),
        `${host} ${tool} ${JSON.stringify(input)}`,
      ).toMatch(/removes the Forbidden rule|cannot tell/);
    for (const command of [
      'sed -i /src.storage/d .agent/state/goals.md',
      "python3 -c \"open('.agent/state/goals.md', 'w')\"",
      'echo > .agent/state/goals.md',
    ])
      expect(await bash(dir, command), command).toContain('.agent/state/goals.md');
    const added = `${GOALS}- \`migrations/**\`\n`;
    expect(await write(dir, '.agent/state/goals.md', added)).toBeNull();
    expect(
      await preTool(dir, 'Edit', {
        file_path: '.agent/state/goals.md',
        old_string: 'Add pagination to GET /todos.',
        new_string: 'Add cursor pagination to GET /todos.',
      }),
    ).toBeNull();
    expect(
      await preTool(
        dir,
        'apply_patch',
        {
          command:
            '*** Begin Patch\n*** Update File: .agent/state/goals.md\n@@\n+- `migrations/**`\n*** End Patch',
        },
        'codex',
      ),
    ).toBeNull();
  });

  it('refuses the agent approving itself, keeps its own agent-state commands working', async () => {
    const dir = repo();
    for (const command of [
      'AGENT_STATE_ALLOW_FORBIDDEN=1 git commit -qm x',
      'export AGENT_STATE_ALLOW_FORBIDDEN=1',
      'AGENT_STATE=0 git commit -qm x',
      'git commit --no-verify -m x',
      'git commit -nm x',
      'git -C . commit -q --no-verify -m x',
      'git -c core.hooksPath=/dev/null commit -m x',
      'agent-state integrate claude --remove',
      'agent-state hooks uninstall',
      'agent-state init --force',
    ])
      expect(await bash(dir, command), command).toContain('only the user');
    for (const command of [
      'agent-state next "leave src/storage alone, edit src/server.js"',
      'agent-state plan add "Page the list"',
      'agent-state done t1 --files src/server.js',
      'git commit -qm "paginate"',
      'git log -n 5 --grep commit',
      'git add -A',
    ])
      expect(await bash(dir, command), command).toBeNull();
  });

  it("the user's approval (AGENT_STATE_ALLOW_FORBIDDEN=1 in the host's environment) turns refusals into warnings", async () => {
    const dir = repo();
    const state = findRepo(dir);
    const event = parseHostHookPayload(
      claudeHost,
      JSON.stringify({
        session_id: 's',
        cwd: dir,
        hook_event_name: 'PreToolUse',
        tool_name: 'Write',
        tool_input: { file_path: '.agent/state/goals.md', content: '# x\n' },
      }),
      dir,
    );
    const approved = await handleHookEvent(claudeHost, event, state, {
      AGENT_STATE_ALLOW_FORBIDDEN: '1',
    });
    expect(approved.deny).toBeUndefined();
    expect(approved.context).toContain('agent-state warning');
    expect((await handleHookEvent(claudeHost, event, state, {})).deny).toContain('removes');
  });
});
