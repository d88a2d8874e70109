// The recovery scenarios: each a sequence of real calls, then what the last boot must say. This
// table is the specification of src/recovery/rules.ts seen from outside; docs/boot.md shows it
// with the outputs the scenarios really produce (scenarios.test.ts keeps the two in step).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { git, testdir } from '../../helpers/fixtures.js';
import type { Session } from './session.js';

/** What the last boot must be; `boot: false` when the scenario must end without one. */
export interface Expected {
  boot: boolean;
  level?: 1 | 2 | 3;
  reason?: RegExp;
  loop?: boolean;
  rescan?: boolean;
  compacted?: boolean;
  /** Compactions counted in this worktree (.agent/log/recovery.json). */
  compactions?: number;
  /** Text the boot must hold besides the directives. */
  shows?: string[];
}

export interface Scenario {
  name: string;
  /** What happens, in a few words (the table's second column). */
  story: string;
  run(s: Session): Promise<void>;
  expected: Expected;
}

// A checkpoint committed with the state, as an agent following the protocol leaves it.
async function checkpointed(s: Session, message = 'Checkpoint'): Promise<void> {
  await s.cli('checkpoint', '-m', message, '--commit');
}

const TEST_V1 = "import test from 'node:test';\ntest('page 2', () => {});\n";

export const SCENARIOS: Scenario[] = [
  {
    name: 'Fresh start',
    story: 'init, a plan; Claude Code starts a session',
    async run(s) {
      await s.sessionStart('startup');
    },
    expected: {
      boot: true,
      level: 2,
      reason: /^auto: no checkpoint yet to compare with, no restart loop$/,
      loop: false,
      rescan: false,
      compacted: false,
      compactions: 0,
    },
  },
  {
    name: 'Resume after own edits',
    story: 'checkpoint; a session edits two files (Write) and moves the next action; resume',
    async run(s) {
      await checkpointed(s);
      await s.sessionStart('startup');
      await s.agentEdit('src/paginate.js', 'export const paginate = () => [];\n');
      await s.agentEdit('test/pagination.test.js', TEST_V1);
      await s.cli('next', 'Make the pagination test pass');
      await s.sessionStart('resume');
    },
    expected: {
      boot: true,
      level: 1,
      reason:
        /^auto, resume: no foreign drift, no restart loop; your uncheckpointed changes: 2 files$/,
      loop: false,
      rescan: false,
      compacted: false,
      shows: [
        'Uncheckpointed changes (yours)',
        '2 files (src/paginate.js, test/pagination.test.js)',
      ],
    },
  },
  {
    name: 'Compaction mid-step',
    story: 'checkpoint; an edit; PreCompact, then SessionStart(compact)',
    async run(s) {
      await checkpointed(s);
      await s.sessionStart('startup');
      await s.agentEdit('src/paginate.js', 'export const paginate = () => [];\n');
      await s.compaction();
    },
    expected: {
      boot: true,
      level: 2,
      reason: /^auto: no foreign drift, no restart loop; your uncheckpointed changes: 1 file$/,
      loop: false,
      rescan: false,
      compacted: true,
      compactions: 1,
    },
  },
  {
    name: 'Three compactions with progress between them',
    story: 'each time an edit and a new next action, then a compaction',
    async run(s) {
      await checkpointed(s);
      await s.sessionStart('startup');
      for (const n of [1, 2, 3]) {
        await s.agentEdit(`src/part${n}.js`, `export const part = ${n};\n`);
        await s.cli('next', `Write part ${n + 1}`);
        await s.compaction();
      }
    },
    expected: {
      boot: true,
      level: 2,
      reason: /^auto: no foreign drift, no restart loop; your uncheckpointed changes: 3 files$/,
      loop: false,
      rescan: false,
      compacted: true,
      compactions: 3,
    },
  },
  {
    name: 'Three boots with no progress (a real loop)',
    story: 'three sessions that only read files',
    async run(s) {
      await checkpointed(s);
      await s.sessionStart('startup');
      await s.agentRead();
      await s.sessionStart('startup');
      await s.agentRead();
      await s.sessionStart('startup');
    },
    expected: {
      boot: true,
      level: 3,
      reason: /^auto: a restart loop \(3 boots in a row with no progress between them\)$/,
      loop: true,
      rescan: true,
      compacted: false,
    },
  },
  {
    name: 'Aborted compaction',
    story: 'PreCompact ("not enough messages": no SessionStart(compact)), then the next prompt',
    async run(s) {
      await s.sessionStart('startup');
      await s.agentEdit('src/paginate.js', 'export const paginate = () => [];\n');
      await s.preCompact('manual');
      await s.prompt();
    },
    expected: { boot: false, compactions: 0 },
  },
  {
    name: 'Gemini CLI: PreCompress on every turn, no compression',
    story:
      'four turns of BeforeAgent + PreCompress (#18083); the chat recording shows no compression',
    async run(s) {
      await s.sessionStart('startup', 'gemini');
      for (let i = 0; i < 4; i++) await s.geminiTurn(false);
      await s.prompt('and now?', 'gemini');
    },
    expected: { boot: false, compactions: 0 },
  },
  {
    name: 'Gemini CLI: a real compression',
    story: 'two plain turns, then one whose chat recording shows the compression; the next prompt',
    async run(s) {
      await s.sessionStart('startup', 'gemini');
      await s.geminiTurn(false);
      await s.geminiTurn(false);
      await s.geminiTurn(true);
      await s.prompt('and now?', 'gemini');
    },
    expected: {
      boot: true,
      level: 2,
      reason: /^auto: no checkpoint yet to compare with, no restart loop$/,
      loop: false,
      rescan: false,
      compacted: true,
      compactions: 1,
    },
  },
  {
    name: 'Codex: PostCompact and SessionStart(compact)',
    story: 'PreCompact, PostCompact, then SessionStart(compact): one compaction',
    async run(s) {
      await s.sessionStart('startup', 'codex');
      await s.preCompact('auto', 'codex');
      await s.postCompact('auto', 'codex');
      await s.sessionStart('compact', 'codex');
    },
    expected: {
      boot: true,
      level: 2,
      reason: /^auto: no checkpoint yet to compare with, no restart loop$/,
      compacted: true,
      loop: false,
      rescan: false,
      compactions: 1,
    },
  },
  {
    name: 'OpenCode: session.compacted',
    story: 'the compacting hook takes the boot prompt; session.compacted confirms it',
    async run(s) {
      await s.hook('opencode', { event: 'experimental.session.compacting', session_id: 'ses_1' });
      await s.hook('opencode', { event: 'session.compacted', session_id: 'ses_1' });
    },
    expected: {
      boot: true,
      level: 2,
      reason: /^auto: no checkpoint yet to compare with, no restart loop$/,
      compacted: true,
      loop: false,
      rescan: false,
      compactions: 1,
    },
  },
  {
    name: "A human's edit between sessions",
    story: 'checkpoint; a session edits src/paginate.js; then a person edits README.md; resume',
    async run(s) {
      await checkpointed(s);
      await s.sessionStart('startup');
      await s.agentEdit('src/paginate.js', 'export const paginate = () => [];\n');
      s.humanEdit('README.md', '# todo-api\n\nPaginated.\n');
      await s.sessionStart('resume');
    },
    expected: {
      boot: true,
      level: 3,
      reason:
        /^auto: 1 file changed that no recorded edit of yours explains \(README\.md\); your uncheckpointed changes: 1 file$/,
      loop: false,
      rescan: true,
      compacted: false,
      shows: ['README.md (modified, no recorded edit of yours)', 'Uncheckpointed changes (yours)'],
    },
  },
  {
    name: "A human's edit of a file the agent edited",
    story: 'the agent writes src/paginate.js; a person changes it afterwards; resume',
    async run(s) {
      await checkpointed(s);
      await s.sessionStart('startup');
      await s.agentEdit('src/paginate.js', 'export const paginate = () => [];\n');
      s.humanEdit('src/paginate.js', 'export const paginate = (x) => x;\n');
      await s.sessionStart('resume');
    },
    expected: {
      boot: true,
      level: 3,
      reason: /^auto: 1 file changed after your last edit \(src\/paginate\.js\)$/,
      loop: false,
      rescan: true,
    },
  },
  {
    name: "A teammate's commit pulled",
    story: 'checkpoint; a teammate pushes a commit; `git pull`; resume',
    async run(s) {
      await checkpointed(s);
      const bare = join(testdir(), 'origin.git');
      git(s.repo, 'clone', '-q', '--bare', s.repo, bare);
      git(s.repo, 'remote', 'add', 'origin', bare);
      git(s.repo, 'fetch', '-q', 'origin');
      git(s.repo, 'branch', '-q', '--set-upstream-to=origin/main', 'main');
      const mate = join(testdir(), 'mate');
      git(s.repo, 'clone', '-q', bare, mate);
      execFileSync('sh', ['-c', 'echo "mate" > CONTRIBUTING.md'], { cwd: mate });
      git(mate, 'add', '-A');
      git(mate, 'commit', '-q', '-m', 'Add CONTRIBUTING.md');
      git(mate, 'push', '-q', 'origin', 'main');
      await s.sessionStart('startup');
      git(s.repo, 'pull', '-q', '--ff-only');
      await s.sessionStart('resume');
    },
    expected: {
      boot: true,
      level: 3,
      reason: /^auto: 1 commit not made here \([0-9a-f]{7} Add CONTRIBUTING\.md\)$/,
      loop: false,
      rescan: true,
      shows: ['Add CONTRIBUTING.md (not made here)'],
    },
  },
  {
    name: 'A branch switch',
    story: 'checkpoint; `git switch -c feature`; resume',
    async run(s) {
      await checkpointed(s);
      await s.sessionStart('startup');
      git(s.repo, 'switch', '-q', '-c', 'feature');
      await s.sessionStart('resume');
    },
    expected: {
      boot: true,
      level: 3,
      reason: /^auto: the branch changed \(main → feature\)$/,
      loop: false,
      rescan: true,
    },
  },
  {
    name: 'Own commits',
    story: 'checkpoint; the agent edits a file and commits it with its shell tool; resume',
    async run(s) {
      await checkpointed(s);
      await s.sessionStart('startup');
      await s.agentEdit('src/paginate.js', 'export const paginate = () => [];\n');
      await s.agentCommit('Add the pagination helper');
      await s.sessionStart('resume');
    },
    expected: {
      boot: true,
      level: 1,
      reason:
        /^auto, resume: no foreign drift, no restart loop; your uncheckpointed changes: 1 file and 1 commit$/,
      loop: false,
      rescan: false,
    },
  },
  {
    name: 'A file written by a shell command of the agent',
    story:
      'checkpoint; the agent runs a generator (its output path is not on the command line); resume',
    async run(s) {
      await checkpointed(s);
      await s.sessionStart('startup');
      await s.agentShell(
        `node -e "require('fs').writeFileSync('src/generated.js', 'export default 1;\\n')"`,
      );
      await s.sessionStart('resume');
    },
    expected: {
      boot: true,
      level: 1,
      reason:
        /^auto, resume: no foreign drift, no restart loop; your uncheckpointed changes: 1 file$/,
      loop: false,
      rescan: false,
    },
  },
  {
    name: "A stale marker from the agent's own edit",
    story: 't1 done with its test file; checkpoint; the agent edits that file again; resume',
    async run(s) {
      await s.agentEdit('test/pagination.test.js', TEST_V1);
      await s.cli('done', 't1', '--files', 'test/pagination.test.js');
      await checkpointed(s);
      await s.sessionStart('startup');
      await s.agentEdit('test/pagination.test.js', `${TEST_V1}test('page 3', () => {});\n`);
      await s.sessionStart('resume');
    },
    expected: {
      boot: true,
      level: 1,
      reason:
        /^auto, resume: no foreign drift, no restart loop; your uncheckpointed changes: 1 file; stale from your own edits: t1$/,
      loop: false,
      rescan: false,
      shows: ['STALE t1: test/pagination.test.js changed (your edit) — re-check t1'],
    },
  },
  {
    name: 'A stale marker from a foreign edit',
    story: 't1 done with its test file; checkpoint; a person edits that file; resume',
    async run(s) {
      await s.agentEdit('test/pagination.test.js', TEST_V1);
      await s.cli('done', 't1', '--files', 'test/pagination.test.js');
      await checkpointed(s);
      await s.sessionStart('startup');
      s.humanEdit('test/pagination.test.js', `${TEST_V1}// a reviewer's note\n`);
      await s.sessionStart('resume');
    },
    expected: {
      boot: true,
      level: 3,
      reason:
        /^auto: 1 file changed that no recorded edit of yours explains \(test\/pagination\.test\.js\)$/,
      loop: false,
      rescan: true,
      shows: ['STALE t1: test/pagination.test.js changed (not your edit) — re-check t1'],
    },
  },
  {
    name: 'An edit with no host hooks',
    story:
      't1 done with its file; checkpoint; no host hooks record anything; a shell edit of that file; `agent-state boot`',
    async run(s) {
      s.humanEdit('src/server.js', 'export const port = 3000;\n// v1\n');
      await s.cli('done', 't1', '--files', 'src/server.js');
      await checkpointed(s);
      s.humanEdit('src/server.js', 'export const port = 3001;\n// v1\n');
      await s.boot();
    },
    expected: {
      boot: true,
      level: 2,
      reason:
        /^auto: no foreign drift, no restart loop; unrecorded changes: 1 file \(src\/server\.js\); stale from unrecorded changes: t1$/,
      loop: false,
      rescan: false,
      shows: [
        'STALE t1: src/server.js changed (unrecorded) — re-check t1',
        'Uncheckpointed changes (unrecorded)',
      ],
    },
  },
  {
    name: 'A resume after a compaction',
    story: 'Claude Code: a session starts, `/compact`, then `--resume` of the same session',
    async run(s) {
      await checkpointed(s);
      await s.sessionStart('startup');
      await s.compaction();
      await s.sessionStart('resume');
    },
    expected: {
      boot: true,
      level: 1,
      reason: /^auto, resume: no foreign drift, no restart loop$/,
      loop: false,
      rescan: false,
      compactions: 1,
    },
  },
];
