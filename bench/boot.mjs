// Cost of the boot prompt: `agent-state boot --level 2 --fast` (heuristic token counts) and
// `agent-state boot --level 2` (o200k tokenizer) on a realistic task state, versus a bare
// `node -e 0`, interleaved, medians. Hosts run boot at every session start and compaction.
// Targets: --fast ≤ 1.5, o200k ≤ 3.0.  Usage: node bench/boot.mjs [--runs N]
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BIN, ROOT, interleave, report } from './lib.mjs';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 21;
const repo = mkdtempSync(join(tmpdir(), 'agent-state-bench-boot-'));
const cli = (...args) => execFileSync(process.execPath, [BIN, ...args, '-q'], { cwd: repo });
const write = (path, text) => {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
};

try {
  write('package.json', '{ "name": "todo-api" }\n');
  write('src/routes/todos.js', 'export function list(req) { return []; }\n');
  write('test/pagination.test.js', 'import test from "node:test";\n');
  execFileSync('git', ['init', '-q'], { cwd: repo });
  cli('init', '--goal', 'Add pagination to GET /todos without changing the storage layer');
  write(
    '.agent/state/goals.md',
    readFileSync(join(ROOT, 'test', 'fixtures', 'boot', 'goals.md'), 'utf8'),
  );
  for (let i = 1; i <= 12; i++)
    cli('plan', 'add', `Step ${i}: ${'refine the pagination handler '.repeat(2)}`);
  cli('plan', 'start', 't4');
  cli('next', 'Implement page and limit in src/routes/todos.js', '--stage', 'implementing');
  cli('memory', 'add', 'Route handlers live in src/routes/, one file per resource', '--durable');
  cli('memory', 'add', 'limit defaults to 50 in the old code path');
  cli('current', '--deny-tools', 'WebFetch', '--scope', 'src/routes/**', 'test/**');
  for (let i = 1; i <= 8; i++) {
    const id = String(i).padStart(6, '0');
    write(
      `.agent/state/evidence/${id}-test.md`,
      `---\nid: "${id}"\nat: "2026-11-30T1${i % 10}:00:00.000Z"\nkind: test\nsummary: "node --test: ${i} passed, 1 failed"\n---\nThe failing test is \`page=2 returns items 11-20\`.\n\n\`\`\`\nnot ok 1 - page=2\n  expected: 11\n  actual: 1\n\`\`\`\n`,
    );
  }
  // Completion markers for the first three steps, with real hashes (as `done` records them).
  const { updateProgress } = await import(join(ROOT, 'dist', 'index.js'));
  const hash = (path) =>
    `sha256:${createHash('sha256')
      .update(readFileSync(join(repo, path)))
      .digest('hex')}`;
  await updateProgress(
    (p) => {
      p.plan.slice(0, 3).forEach((item) => (item.status = 'done'));
      p.markers = Object.fromEntries(
        ['t1', 't2', 't3'].map((id) => [
          id,
          {
            at: '2026-11-30T12:00:00.000Z',
            files: { 'test/pagination.test.js': hash('test/pagination.test.js') },
          },
        ]),
      );
    },
    { cwd: repo },
  );
  // Real boots (counted, as hosts run them); a high threshold keeps the prompt the same size.
  write('.agent/config.yaml', 'version: 1\nboot:\n  stall_threshold: 100000\n');

  const medians = interleave(
    {
      fast: { cmd: process.execPath, args: [BIN, 'boot', '--level', '2', '--fast'], cwd: repo },
      o200k: { cmd: process.execPath, args: [BIN, 'boot', '--level', '2'], cwd: repo },
      node: { cmd: process.execPath, args: ['-e', '0'], cwd: repo },
    },
    { runs },
  );
  const tokens = JSON.parse(
    execFileSync(process.execPath, [BIN, 'boot', '--level', '2', '--dry-run', '--json'], {
      cwd: repo,
    }),
  ).tokens.total;
  console.log(
    `agent-state boot on a ${tokens}-token level-2 prompt (${runs} interleaved runs, medians)`,
  );
  report('boot --level 2 --fast / node -e 0', medians.fast, medians.node, 1.5);
  report('boot --level 2 / node -e 0', medians.o200k, medians.node, 3.0);
} finally {
  rmSync(repo, { recursive: true, force: true });
}
