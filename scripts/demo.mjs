// `npm run demo`: a realistic agent session in a throwaway git repository, printing each
// command and its output. Later features extend the story; it must keep working at every commit.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'agent-state.js');
const repo = mkdtempSync(join(tmpdir(), 'agent-state-demo-'));
const keep = process.argv.includes('--keep');
let reportFile = null;
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

// Runs git as a person would (hooks included), echoing it; stops the demo on an unexpected exit.
function gitShow(args, { expect = 0, env: extra = {} } = {}) {
  const prefix = Object.entries(extra)
    .map(([k, v]) => `${k}=${v} `)
    .join('');
  console.log(
    `\x1b[36m$ ${prefix}git ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}\x1b[0m`,
  );
  const result = spawnSync('git', args, { cwd: repo, env: { ...env, ...extra }, encoding: 'utf8' });
  process.stdout.write(result.stdout);
  process.stdout.write(result.stderr);
  if (result.status !== expect) {
    console.error(`demo: expected git to exit ${expect}, got ${result.status}`);
    process.exit(1);
  }
}

// `--write-docs` / `--check-docs`: the outputs shown in docs/boot.md are this demo's, so they
// stay true. Hashes, artifact names, durations, ages (a loaded machine makes "just now" "2m ago")
// and the token figures they move vary from run to run, so they are normalized to compare.
const BOOT_DOC = join(root, 'docs', 'boot.md');
const normalize = (text) =>
  text
    .replace(/\d{8}T\d{6}Z-[0-9a-f]+/g, 'TIME-ID')
    .replace(/\b[0-9a-f]{7,64}\b/g, 'SHA')
    .replace(/\d+(\.\d+)? s\b/g, 'N s')
    .replace(/\b(just now|\d+[mhd] ago)\b/g, 'AGE')
    .replace(/\d+\/12000 tokens/g, 'N/12000 tokens');
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

  say('The agent writes the helper and its test, and proves step t1 done');
  file(
    'src/paginate.mjs',
    'export const paginate = (items, page = 1, limit = 50) => items.slice((page - 1) * limit, page * limit);\n',
  );
  file(
    'test/pagination.test.mjs',
    `import test from 'node:test';
import assert from 'node:assert/strict';
import { paginate } from '../src/paginate.mjs';

test('page 2 of 10 holds items 11-20', () => {
  const items = Array.from({ length: 25 }, (_, i) => i + 1);
  assert.deepEqual(paginate(items, 2, 10), [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
});
`,
  );
  run(['done', 't1', '--files', 'src/paginate.mjs', 'test/pagination.test.mjs']);
  run([
    'evidence',
    'add',
    '--kind',
    'decision',
    '--summary',
    'Without ?limit a page holds 50 items',
    '--body',
    'Old clients never send ?page; 50 keeps their responses unchanged.',
  ]);

  say('Checkpoint: verify, run `node --test`, record fingerprint + evidence in one step');
  run([
    'checkpoint',
    '-m',
    'Pagination helper and its test',
    '--next',
    'Wire paginate() into GET /todos',
  ]);
  run(['check', 't1']);
  run(['evidence', 'list']);

  say('Later someone edits a marked file: the proof is stale, and verify shows the drift');
  file(
    'src/paginate.mjs',
    'export const paginate = (items, page = 1, limit = 20) => items.slice((page - 1) * limit, page * limit);\n',
  );
  run(['check', 't1'], { expect: 1 });
  run(['verify'], { expect: 1 });

  say('Git hooks guard the state where mistakes happen: at commit time');
  run(['hooks', 'install']);
  run(['hooks', 'status']);

  say("Committing the edited helper goes through, with a warning: t1's proof goes stale");
  sh('git', ['add', '-A']);
  gitShow(['commit', '-q', '-m', 'Add the task state and the pagination helper']);

  say('The agent edits the frozen storage layer by mistake: the commit is refused');
  file('src/storage/db.js', 'export const db = new Map(); // paginate here?\n');
  file('src/routes.js', 'export const pageSize = 10;\n');
  sh('git', ['add', '-A']);
  gitShow(['commit', '-q', '-m', 'Paginate GET /todos'], { expect: 1 });

  say('Unstage the Forbidden file: the rest goes through');
  sh('git', ['restore', '--staged', '--', 'src/storage/db.js']);
  sh('git', ['checkout', '--', 'src/storage/db.js']);
  gitShow(['commit', '-q', '-m', 'Paginate GET /todos']);
  gitShow(['log', '--oneline', '-1']);

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
  run(['done', 't1', '--files', 'test/pagination.test.js']);
  run(['plan', 'start', 't2']);
  run(['next', 'Slice the list in src/server.js by page and limit', '--stage', 'implementing']);
  run(['checkpoint', '-m', 'Pagination test written and passing']);

  say('The context is lost (a compaction): the host boots the agent, which reads only this');
  run(['boot', '--source', 'compact']);

  say(
    "The agent edits src/server.js; its host's PostToolUse hook records the edit. A resume stays level 1",
  );
  const server =
    'export const port = 3000;\nexport const page = (items, p = 1, n = 50) => items.slice((p - 1) * n, p * n);\n';
  file('src/server.js', server);
  run(['hook', 'claude'], {
    input: JSON.stringify({
      session_id: 'demo-session',
      cwd: repo,
      hook_event_name: 'PostToolUse',
      tool_name: 'Write',
      tool_input: { file_path: join(repo, 'src/server.js'), content: server },
      tool_response: { success: true },
    }),
  });
  run(['boot', '--source', 'resume', '--dry-run']);

  say(
    'Someone else edits the file the done step produced: no recorded fact explains it, so auto picks level 3',
  );
  file(
    'test/pagination.test.js',
    readFileSync(join(repo, 'test/pagination.test.js'), 'utf8').replace('30', '40'),
  );
  run(['boot', '--dry-run']);

  if (process.argv.includes('--write-docs')) bootDocs('write');
  if (process.argv.includes('--check-docs')) bootDocs('check');

  say('Three restarts with nothing done in between: the third in a row is a restart loop');
  run(['boot', '--fast', '--quiet']);
  run(['boot', '--fast', '--quiet']);
  run(['boot', '--fast', '--level', '1']);
  say('Wire Claude Code to the state: hooks in .claude/settings.json, and a status line');
  run(['integrate', 'claude', '--statusline']);
  run(['statusline']);

  say(
    'A simulated host: Claude Code compacted the context and starts again with SessionStart(compact)',
  );
  const sessionStart = {
    session_id: 'demo-session',
    transcript_path: join(repo, '.claude-transcript.jsonl'),
    cwd: repo,
    hook_event_name: 'SessionStart',
    source: 'compact',
    model: 'claude-sonnet-4-6',
  };
  console.log(`\x1b[2mstdin: ${JSON.stringify(sessionStart)}\x1b[0m`);
  const started = spawnSync(process.execPath, [bin, 'hook', 'claude'], {
    cwd: repo,
    env,
    encoding: 'utf8',
    input: JSON.stringify(sessionStart),
  });
  if (started.status !== 0)
    throw new Error(`hook claude exited ${started.status}: ${started.stderr}`);
  const answer = JSON.parse(started.stdout);
  console.log(
    `\x1b[2mstdout: {"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext": <below>}}\x1b[0m`,
  );
  console.log(answer.hookSpecificOutput.additionalContext);

  say(
    'Before an edit of a Forbidden path the host asks PreToolUse; in enforce mode the answer is a deny',
  );
  file(
    '.agent/config.yaml',
    readFileSync(join(repo, '.agent/config.yaml'), 'utf8').replace(
      'pre_tool_use: warn',
      'pre_tool_use: enforce',
    ),
  );
  const preToolUse = JSON.stringify({
    session_id: 'demo-session',
    cwd: repo,
    hook_event_name: 'PreToolUse',
    tool_name: 'Edit',
    tool_input: {
      file_path: join(repo, 'src/storage/db.js'),
      old_string: 'Map',
      new_string: 'WeakMap',
    },
    tool_use_id: 'toolu_demo',
  });
  console.log(`\x1b[2mstdin: ${preToolUse}\x1b[0m`);
  run(['hook', 'claude'], { input: preToolUse });

  say('Garbage on stdin never breaks the session: exit 0 and one line on stderr');
  run(['hook', 'claude'], { input: 'this is not JSON' });

  say('doctor checks the wiring; --remove takes it all out again');
  run(['doctor']);
  run(['integrate', 'claude', '--remove']);

  say('See what the agent knows: the Task Context as one page (`agent-state ui` serves it live)');
  run([
    'current',
    '--allow-tools',
    'Read,Edit,Bash',
    '--deny-tools',
    'WebFetch',
    '--scope',
    'src/**',
    'test/**',
  ]);
  // Outside the demo repository, which is removed at the end: the report outlives it.
  reportFile = join(mkdtempSync(join(tmpdir(), 'agent-state-demo-report-')), 'report.html');
  run(['report', '--html', reportFile]);
  console.log(`\nThe report: ${reportFile}\nOpen it: ${pathToFileURL(reportFile).href}`);
  if (process.argv.includes('--open')) {
    const opened = spawnSync(
      process.platform === 'darwin'
        ? 'open'
        : process.platform === 'win32'
          ? 'explorer'
          : 'xdg-open',
      [reportFile],
      { stdio: 'ignore' },
    );
    if (opened.error || opened.status !== 0)
      console.log('(could not open a browser: open the file yourself)');
  }
} finally {
  if (keep) console.log(`\n(kept the demo repository at ${repo})`);
  else rmSync(repo, { recursive: true, force: true });
}
