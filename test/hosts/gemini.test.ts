// Gemini CLI, the pinned version, against the Gemini API stub (test/hosts/versions.json).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geminiContents, geminiTools } from './harness/gemini-api.js';
import { FORBIDDEN_CONTENT, FORBIDDEN_FILE } from './harness/host-repo.js';
import { gemini, geminiDriver } from './harness/hosts/gemini.js';
import { allText, type Reply } from './harness/model-stub.js';
import { hostSession, type HostSession } from './harness/run-host.js';

// The functionResponse parts the model was sent in a turn (what each tool call returned).
function toolResults(s: HostSession, turn: number): Record<string, unknown>[] {
  const contents = geminiContents(s.stub.turns()[turn]!);
  return contents
    .flatMap((c) => c.parts ?? [])
    .map((p) => p.functionResponse as Record<string, unknown> | undefined)
    .filter((r): r is Record<string, unknown> => r !== undefined);
}

const call = (name: string, input: Record<string, unknown>): Reply => ({
  toolCalls: [{ name, input }],
});

describe('Gemini CLI', () => {
  let s: HostSession;
  beforeAll(async () => {
    s = await hostSession(gemini);
  });
  afterAll(() => s?.close());

  it('gets the boot prompt at session start, with a status the model can read', async () => {
    const run = await s.run('Start the task', [{ text: 'ok' }]);
    expect(run.code, run.stderr).toBe(0);
    const first = allText(geminiContents(s.stub.turns()[0]!));
    expect(first).toContain('<hook_context># agent-state boot');
    expect(first).toContain('`src/storage/**` — frozen interface');
    // Gemini CLI escapes < and > in a hook's additionalContext: nothing of ours may rely on them.
    expect(first).not.toContain('&lt;');
    expect(first).toContain('Agent status baseline');
    expect(s.repo.events().filter((e) => e.type === 'boot')).toMatchObject([{ source: 'startup' }]);
  });

  it('logs a failing command as ok: false (the exit code is only in llmContent)', async () => {
    const run = await s.run('Run the tests', [
      call('run_shell_command', { command: 'echo failing; exit 3', description: 'fail' }),
      call('run_shell_command', { command: 'echo fine', description: 'pass' }),
      { text: 'ok' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    const finished = s.repo.events().filter((e) => e.type === 'tool.finished');
    expect(finished.slice(-2)).toMatchObject([
      { name: 'run_shell_command', ok: false },
      { name: 'run_shell_command', ok: true },
    ]);
  });

  it('refuses a Forbidden write through every write tool it offers, and tells the model why', async () => {
    const attempts: [string, Reply][] = [
      ['write_file', call('write_file', { file_path: FORBIDDEN_FILE, content: 'x\n' })],
      [
        'write_file (absolute)',
        call('write_file', { file_path: join(s.repo.dir, FORBIDDEN_FILE), content: 'x\n' }),
      ],
      [
        'replace',
        call('replace', {
          file_path: FORBIDDEN_FILE,
          old_string: 'frozen',
          new_string: 'thawed',
          instruction: 'Thaw the storage layer.',
        }),
      ],
      [
        'shell redirect',
        call('run_shell_command', { command: `echo x > ${FORBIDDEN_FILE}`, description: 'w' }),
      ],
      [
        'shell with dir_path',
        call('run_shell_command', {
          command: 'echo x > db.ts',
          dir_path: 'src/storage',
          description: 'w',
        }),
      ],
      [
        'shell cd &&',
        call('run_shell_command', { command: 'cd src/storage && rm db.ts', description: 'w' }),
      ],
    ];
    const run = await s.run('Change the storage layer', [
      ...attempts.map(([, reply]) => reply),
      { text: 'I will not touch it.' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(geminiTools(s.stub.turns()[0]!)).toEqual(
      expect.arrayContaining(['write_file', 'replace', 'run_shell_command']),
    );
    attempts.forEach(([what], i) => {
      const [result] = toolResults(s, i + 1).slice(-1);
      expect(JSON.stringify(result), what).toContain(
        `agent-state refused this tool call: ${FORBIDDEN_FILE} is Forbidden`,
      );
    });
    expect(s.repo.read(FORBIDDEN_FILE)).toBe(FORBIDDEN_CONTENT);
    const denied = s.repo.events().filter((e) => e.type === 'permission.denied');
    expect(denied).toHaveLength(attempts.length);
  });
});

describe('Gemini CLI in a folder it does not trust', () => {
  let s: HostSession;
  beforeAll(async () => {
    s = await hostSession(geminiDriver({ trust: 'none' }));
  });
  afterAll(() => s?.close());

  it('runs no hook (headless it exits 55); doctor says so and integrate --trust fixes it', async () => {
    expect(s.repo.integrateOutput).toContain('run `agent-state integrate gemini --trust`');
    const refused = await s.run('Start the task', [{ text: 'ok' }]);
    expect(refused.code).toBe(55);
    expect(s.repo.events().filter((e) => e.type === 'boot')).toEqual([]);
    let doctor = '';
    try {
      s.repo.cli(['doctor']);
    } catch (error) {
      doctor = String((error as { stdout?: string }).stdout);
    }
    expect(doctor).toMatch(/FAIL +gemini folder trust: Gemini CLI does not trust this folder/);
    expect(doctor).toContain('fix: run `agent-state integrate gemini --trust`');
    s.repo.cli(['integrate', 'gemini', '--trust']);
    expect(s.repo.cli(['doctor'])).toMatch(/ok +gemini folder trust: trusted: .*TRUST_FOLDER/);
    const run = await s.run('Start the task', [{ text: 'ok' }]);
    expect(run.code, run.stderr).toBe(0);
    expect(allText(geminiContents(s.stub.turns()[0]!))).toContain(
      '<hook_context># agent-state boot',
    );
  });
});
