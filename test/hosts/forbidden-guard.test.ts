// The Forbidden guard as an attacker would probe it (issue 21), inside the four real hosts: with a
// state file broken, through a symlinked directory, indented patch headers, parent deletes,
// wrappers and `cp -t`, and tool calls that would weaken the guard itself. Each run asks the
// host's model stub for the calls one by one; what counts is what stays on disk, the refusals the
// hooks recorded, and that the model was told.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, FORBIDDEN_CONTENT, FORBIDDEN_FILE, hostRepo } from './harness/host-repo.js';
import { claude } from './harness/hosts/claude.js';
import { codex } from './harness/hosts/codex.js';
import { gemini } from './harness/hosts/gemini.js';
import { opencode } from './harness/hosts/opencode.js';
import { allText, type Reply } from './harness/model-stub.js';
import { hostSession, type HostDriver, type HostSession } from './harness/run-host.js';

const RULE = '- `src/storage/**` — frozen interface, owned by another team';

const call = (name: string, input: unknown): Reply => ({
  toolCalls: [{ name, input: input as Record<string, unknown> }],
});
const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');

/** How a host's model writes a file, runs a shell command, and changes one line of a file. */
interface Kit {
  driver: HostDriver;
  write(path: string, content: string): Reply[];
  shell(command: string): Reply;
  replaceLine(path: string, from: string, to: string): Reply[];
  /** Codex's patch format, for the hosts whose model gets apply_patch (OpenCode: gpt-* models). */
  patch?: (body: string) => Reply;
}

const patchKit = (driver: HostDriver, shell: Kit['shell'], tool: (p: string) => Reply): Kit => ({
  driver,
  shell,
  patch: tool,
  write: (path, content) => [
    tool(
      patch(
        `*** Add File: ${path}`,
        ...content
          .trimEnd()
          .split('\n')
          .map((l) => `+${l}`),
      ),
    ),
  ],
  replaceLine: (path, from, to) => [
    tool(patch(`*** Update File: ${path}`, '@@', `-${from}`, ...(to ? [`+${to}`] : []))),
  ],
});

const KITS: Kit[] = [
  {
    driver: claude,
    write: (file_path, content) => [
      call('Read', { file_path }),
      call('Write', { file_path, content }),
    ],
    shell: (command) => call('Bash', { command, description: 'run' }),
    replaceLine: (file_path, old_string, new_string) => [
      call('Read', { file_path }),
      call('Edit', { file_path, old_string, new_string }),
    ],
  },
  patchKit(
    codex,
    (cmd) => call('exec_command', { cmd }),
    (p) => call('apply_patch', p),
  ),
  {
    driver: gemini,
    write: (file_path, content) => [call('write_file', { file_path, content })],
    shell: (command) => call('run_shell_command', { command, description: 'run' }),
    replaceLine: (file_path, old_string, new_string) => [
      call('replace', { file_path, old_string, new_string, instruction: 'Change the line.' }),
    ],
  },
  patchKit(
    opencode,
    (command) => call('bash', { command, description: 'run' }),
    (patchText) => call('apply_patch', { patchText }),
  ),
];

const refusals = (s: HostSession) =>
  allText(s.stub.turns().at(-1)?.body).split('agent-state refused this tool call').length - 1;
const denied = (s: HostSession) =>
  s.repo.events().filter((e) => e.type === 'permission.denied').length;
const storage = (s: HostSession) => readdirSync(join(s.repo.dir, 'src/storage')).sort();

// Runs the attempts (each a list of replies, the last one the refused call) and checks that each
// was refused by the hook, that the model was told, and that src/storage is as it was.
async function expectRefused(s: HostSession, attempts: Reply[][], what: string): Promise<void> {
  const before = denied(s);
  const files = storage(s);
  const run = await s.run('Change the storage layer', [...attempts.flat(), { text: 'Done.' }]);
  expect(run.code, `${what}: ${run.stderr.slice(-2000)}`).toBe(0);
  expect(denied(s) - before, what).toBe(attempts.length);
  expect(refusals(s), what).toBeGreaterThanOrEqual(attempts.length);
  expect(s.repo.read(FORBIDDEN_FILE), what).toBe(FORBIDDEN_CONTENT);
  expect(storage(s), what).toEqual(files);
}

for (const kit of KITS) {
  describe(`the Forbidden guard in ${kit.driver.host}`, () => {
    let s: HostSession;
    beforeAll(async () => {
      s = await hostSession(kit.driver);
      symlinkSync('storage', join(s.repo.dir, 'src/link2storage'));
    });
    afterAll(() => s?.close());

    const broken: [string, string, (text: string) => string | Buffer][] = [
      ['a bad line in progress.yaml', '.agent/state/progress.yaml', (t) => `${t}next_action: "\n`],
      [
        'version: 2 in config.yaml',
        '.agent/config.yaml',
        (t) => t.replace(/^version: 1/m, 'version: 2'),
      ],
      ['a NUL byte in goals.md', '.agent/state/goals.md', (t) => `${t}\0\n`],
    ];
    for (const [what, file, breakIt] of broken)
      it(`with ${what}, a Forbidden write through the hook is refused`, async () => {
        const path = join(s.repo.dir, file);
        const good = readFileSync(path, 'utf8');
        writeFileSync(path, breakIt(good));
        try {
          const attempts = [
            kit.write('src/storage/new.ts', 'x\n'),
            [kit.shell(`echo x >> ${FORBIDDEN_FILE}`)],
            // goals.md unreadable: every write is refused.
            ...(file.endsWith('goals.md') ? [kit.write('src/new-app.ts', 'x\n')] : []),
          ];
          await expectRefused(s, attempts, what);
          expect(() => s.repo.read('src/new-app.ts')).toThrow();
        } finally {
          writeFileSync(path, good);
        }
      });

    it('refuses writes through a symlinked directory, parent deletes, wrappers, cp -t and indented patch headers', async () => {
      const attempts: Reply[][] = [
        kit.write('src/link2storage/new.ts', 'x\n'),
        [kit.shell('echo x > src/link2storage/db.ts')],
        [kit.shell('rm -rf src')],
        [kit.shell('rm -rf *')],
        [kit.shell('find src -delete')],
        [kit.shell('git clean -fdx')],
        [kit.shell('env X=1 touch src/storage/a.ts')],
        [kit.shell('nice -n 5 touch src/storage/b.ts')],
        [kit.shell('timeout 5 touch src/storage/c.ts')],
        [kit.shell('command -p touch src/storage/d.ts')],
        [kit.shell('busybox touch src/storage/e.ts')],
        [kit.shell('cp -t src/storage README.md')],
      ];
      if (kit.patch)
        attempts.push(
          [kit.patch(patch(' *** Add File: src/storage/n.ts', '+x'))],
          [kit.patch(patch(`\t*** Delete File: ${FORBIDDEN_FILE}`))],
        );
      await expectRefused(s, attempts, 'bypasses');
      expect(s.repo.read('src/app.ts')).toBe('export const version = 1;\n');
      expect(s.repo.read('README.md')).toBe('# greeting\n');
    });

    it('refuses every tool call that would remove a Forbidden rule or turn enforcement off', async () => {
      const goals = s.repo.read('.agent/state/goals.md');
      const config = s.repo.read('.agent/config.yaml');
      const attempts: Reply[][] = [
        kit.replaceLine('.agent/state/goals.md', RULE, ''),
        kit.replaceLine('.agent/config.yaml', '  forbidden: enforce', '  forbidden: "off"'),
        [kit.shell('sed -i /src.storage/d .agent/state/goals.md')],
        [kit.shell(`echo 'integrations: {forbidden: "off"}' >> .agent/config.yaml`)],
        [kit.shell('AGENT_STATE_ALLOW_FORBIDDEN=1 git commit -qam "approved"')],
      ];
      await expectRefused(s, attempts, 'weakening');
      expect(s.repo.read('.agent/state/goals.md')).toBe(goals);
      expect(s.repo.read('.agent/config.yaml')).toBe(config);
      // The agent's own agent-state commands still write the state.
      const run = await s.run('Plan', [
        kit.shell('agent-state next "Write greet() in src/app.ts, not src/storage/db.ts"'),
        { text: 'ok' },
      ]);
      expect(run.code).toBe(0);
      expect(s.repo.read('.agent/state/progress.yaml')).toContain('Write greet() in src/app.ts');
    });
  });
}

describe('what the hooks refuse, verify and pre-commit refuse too', () => {
  it('a write through a symlinked directory, and a parent deleted', () => {
    for (const change of [
      (dir: string) => writeFileSync(join(dir, 'src/link2storage/x.ts'), 'x\n'),
      (dir: string) => execFileSync('rm', ['-rf', join(dir, 'src')]),
    ]) {
      const repo = hostRepo();
      try {
        symlinkSync('storage', join(repo.dir, 'src/link2storage'));
        execFileSync('git', ['add', '-A'], { cwd: repo.dir });
        execFileSync(
          'git',
          ['-c', 'user.name=T', '-c', 'user.email=t@e', 'commit', '-qm', 'link'],
          {
            cwd: repo.dir,
          },
        );
        change(repo.dir);
        const verify = (() => {
          try {
            return { code: 0, out: repo.cli(['verify']) };
          } catch (error) {
            const e = error as { status: number; stdout: string };
            return { code: e.status, out: e.stdout };
          }
        })();
        expect(verify.code).toBe(1);
        expect(verify.out).toContain('src/storage/');
        execFileSync('git', ['add', '-A'], { cwd: repo.dir });
        let hook = 0;
        try {
          execFileSync(process.execPath, [BIN, 'hook', 'pre-commit'], {
            cwd: repo.dir,
            stdio: 'pipe',
          });
        } catch (error) {
          hook = (error as { status: number }).status;
        }
        expect(hook).toBe(1);
      } finally {
        repo.remove();
      }
    }
  });
});
