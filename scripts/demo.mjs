// `npm run demo`: a realistic agent session in a throwaway git repository, printing each
// command and its output. Later features extend the story; it must keep working at every commit.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'agent-state.js');
const repo = mkdtempSync(join(tmpdir(), 'agent-state-demo-'));
const keep = process.argv.includes('--keep');
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Demo',
  GIT_AUTHOR_EMAIL: 'demo@example.com',
  GIT_COMMITTER_NAME: 'Demo',
  GIT_COMMITTER_EMAIL: 'demo@example.com',
};

function sh(cmd, args) {
  execFileSync(cmd, args, { cwd: repo, env, stdio: 'ignore' });
}

function say(text) {
  console.log(`\n\x1b[1m# ${text}\x1b[0m`);
}

// Runs agent-state, echoing the command line and its output; stops the demo on an unexpected exit.
function run(args, { expect = 0, input } = {}) {
  console.log(
    `\x1b[36m$ agent-state ${args.map((a) => (/[\s"']/.test(a) ? JSON.stringify(a) : a)).join(' ')}\x1b[0m`,
  );
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: repo,
    env,
    encoding: 'utf8',
    input,
  });
  process.stdout.write(result.stdout);
  process.stdout.write(result.stderr);
  if (result.status !== expect) {
    console.error(`demo: expected exit ${expect}, got ${result.status}`);
    process.exit(1);
  }
  return result;
}

// Whether this build has a command (the story uses `done` and `checkpoint` when they exist).
function has(command) {
  const help = spawnSync(process.execPath, [bin, '--help'], { cwd: repo, encoding: 'utf8' }).stdout;
  return new RegExp(`^  ${command}\\b`, 'm').test(help);
}

// Records a completion marker through the library, as `agent-state done ID --files ...` does.
async function markDone(id, paths) {
  const { updateProgress } = await import('../dist/index.js');
  const hash = (p) =>
    `sha256:${createHash('sha256')
      .update(readFileSync(join(repo, p)))
      .digest('hex')}`;
  await updateProgress(
    (progress) => {
      progress.plan.find((item) => item.id === id).status = 'done';
      (progress.markers ??= {})[id] = {
        at: new Date().toISOString(),
        files: Object.fromEntries(paths.map((p) => [p, hash(p)])),
      };
    },
    { cwd: repo },
  );
  console.log(`(recorded the completion marker of ${id}: ${paths.join(', ')})`);
}

// `--write-docs` / `--check-docs`: the outputs shown in docs/boot.md are this demo's, so they
// stay true. Times are relative and commit hashes vary, so hashes are normalized to compare.
const BOOT_DOC = join(root, 'docs', 'boot.md');
const normalize = (text) => text.replace(/\b[0-9a-f]{7,40}\b/g, 'SHA');
function bootDocs(mode) {
  let doc = readFileSync(BOOT_DOC, 'utf8');
  const sizes = [];
  for (const level of [1, 2, 3]) {
    const out = spawnSync(
      process.execPath,
      [bin, 'boot', '--dry-run', '--json', '--level', String(level)],
      { cwd: repo, env, encoding: 'utf8' },
    );
    const { text, tokens } = JSON.parse(out.stdout);
    sizes.push(`level ${level} ${tokens.total} tokens`);
    const open = `<!-- demo:level${level} -->\n\`\`\`\`markdown\n`;
    const close = `\`\`\`\`\n<!-- /demo:level${level} -->`;
    const start = doc.indexOf(open);
    const end = doc.indexOf(close, start);
    if (start === -1 || end === -1) throw new Error(`docs/boot.md has no demo:level${level} block`);
    doc = doc.slice(0, start + open.length) + text + doc.slice(end);
  }
  console.log(`\nboot sizes on the demo state: ${sizes.join(', ')}`);
  if (mode === 'write') writeFileSync(BOOT_DOC, doc);
  else if (normalize(doc) !== normalize(readFileSync(BOOT_DOC, 'utf8'))) {
    console.error('demo: docs/boot.md is out of date: run `node scripts/demo.mjs --write-docs`');
    process.exitCode = 1;
  }
}

function file(path, content) {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), content);
}

try {
  say('A small project in a fresh git repository');
  file('package.json', '{ "name": "todo-api", "scripts": { "test": "node --test" } }\n');
  file('src/server.js', 'export const port = 3000;\n');
  file('src/storage/db.js', 'export const db = new Map();\n');
  sh('git', ['init', '-q', '-b', 'main']);
  sh('git', ['add', '-A']);
  sh('git', ['commit', '-q', '-m', 'initial']);

  say('The agent (or you) sets up the task state once');
  run([
    'init',
    '--goal',
    'Add pagination to GET /todos without changing the storage layer',
    '--test',
    'node --test',
  ]);
  run(['init']);

  say('A human writes the boundaries into .agent/state/goals.md');
  file(
    '.agent/state/goals.md',
    `# Todo API pagination

Add pagination to GET /todos without changing the storage layer.

## Success criteria

- \`GET /todos?page=2&limit=10\` returns items 11–20 and a \`next\` link
- \`node --test\` passes

## Constraints

- Keep the response shape backward compatible: no \`page\` means the first 50 items
- No new dependencies

## Forbidden

- \`src/storage/**\` — the storage layer is frozen (another team owns it)

## Non-goals

- Cursor-based pagination
`,
  );
  run(['goal']);

  say('The plan: three steps');
  run(['plan', 'add', 'Write a failing test for ?page and ?limit']);
  run(['plan', 'add', 'Implement pagination in the route handler']);
  run(['plan', 'add', 'Document the query parameters in the README']);

  say('Work starts on the first step');
  run(['plan', 'start', 't1']);
  run(['next', 'Add test/pagination.test.js covering page=2&limit=10', '--stage', 'implementing']);

  say('What a restarted agent would see first');
  run(['status']);
  run(['plan', 'list']);
  run(['validate']);

  say("The host's hooks record each tool call; the model never counts");
  run(['event', 'budget.set', '--field', 'tool_calls=30']);
  run(['event', 'tool.finished', '--field', 'name=grep', '--field', 'new_results=2']);
  run(['event', 'tool.finished', '--field', 'name=grep', '--field', 'new_results=0']);
  run(['event', 'tool.finished', '--field', 'name=grep', '--field', 'new_results=0']);
  run([
    'event',
    'verification.finished',
    '--json',
    '{"passed":3,"failed":1,"command":"node --test"}',
  ]);
  run(['events', '--type', 'tool.*']);

  say('The status bar a model reads before its next step (the signal says: stop searching)');
  run(['status', '--format', 'xml']);

  say('Publishing as baseline + delta: the first call sends everything, then only what changed');
  run(['status', '--publish', 'delta', '--consumer', 'model', '--format', 'text']);
  run(['event', 'cwd.changed', '--field', 'cwd=src/routes']);
  run(['event', 'tool.finished', '--field', 'name=read']);
  run(['status', '--publish', 'delta', '--consumer', 'model', '--format', 'text']);
  run(['status', '--publish', 'delta', '--consumer', 'model', '--format', 'text', '--json']);

  say('After a context compaction the model gets a fresh baseline');
  run(['event', 'compaction', '--field', 'reason=auto']);
  run(['status', '--publish', 'delta', '--consumer', 'model', '--format', 'markdown']);
  say('Notes worth keeping, the limits of the current step, and a message for the next session');
  run(['memory', 'add', 'Route handlers live in src/, one file per resource', '--durable']);
  run(['memory', 'add', 'limit defaults to 50 in the old code path']);
  run([
    'current',
    '--expected',
    'test/pagination.test.js covers page=2&limit=10',
    '--deny-tools',
    'WebFetch',
    '--scope',
    'test/**',
  ]);
  run(['remind', 'Ask the user about the maximum page size before merging']);

  say('The agent writes the test; the step is done, with the hash of what it produced');
  file(
    'test/pagination.test.js',
    `import test from 'node:test';
import assert from 'node:assert/strict';

test('page=2&limit=10 returns items 11-20', () => {
  const items = Array.from({ length: 30 }, (_, i) => i + 1);
  assert.deepEqual(items.slice(10, 20), [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
});
`,
  );
  if (has('done')) run(['done', 't1', '--files', 'test/pagination.test.js']);
  else await markDone('t1', ['test/pagination.test.js']);
  run(['plan', 'start', 't2']);
  run(['next', 'Slice the list in src/server.js by page and limit', '--stage', 'implementing']);
  if (has('checkpoint')) run(['checkpoint', '-m', 'Pagination test written and passing']);

  say('The context is lost (a compaction): the host boots the agent, which reads only this');
  run(['boot', '--source', 'compact']);

  say('The agent continues at the next action; a quick resume needs only level 1');
  file(
    'src/server.js',
    'export const port = 3000;\nexport const page = (items, p = 1, n = 50) => items.slice((p - 1) * n, p * n);\n',
  );
  run(['boot', '--level', '1', '--dry-run']);

  say('Someone edits the file the done step produced: boot sees it and picks level 3 by itself');
  file(
    'test/pagination.test.js',
    readFileSync(join(repo, 'test/pagination.test.js'), 'utf8').replace('30', '40'),
  );
  run(['boot', '--dry-run']);

  if (process.argv.includes('--write-docs')) bootDocs('write');
  if (process.argv.includes('--check-docs')) bootDocs('check');

  say('Two more restarts and still no checkpoint: the third boot calls it a restart loop');
  run(['next', 'Retry the slicing in src/server.js']);
  run(['boot', '--fast', '--quiet']);
  run(['boot', '--fast', '--level', '1']);
} finally {
  if (keep) console.log(`\n(kept the demo repository at ${repo})`);
  else rmSync(repo, { recursive: true, force: true });
}
