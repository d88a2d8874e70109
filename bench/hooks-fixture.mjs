// The 100k-file repository the hook and watch benchmarks run on: built once under .bench/ and
// reused (building it takes about a minute). `.agent/` is initialized with a Forbidden zone and a
// completion marker, as in a real task.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = join(ROOT, 'bin', 'agent-state.js');
const FILES = 100_000;
const PER_DIR = 1000;

export const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

export function git(cwd, ...args) {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', maxBuffer: 1 << 28 });
}

const GOALS = `# Bench task

Keep the storage layer untouched while changing the modules.

## Forbidden

- \`src/storage/**\` — the storage layer is frozen
- \`*.pem\` — never commit keys
`;

/** The path of the 100k-file repository, building it first if needed. */
export function bigRepo() {
  const repo = join(ROOT, '.bench', 'hooks-100k');
  if (existsSync(join(repo, '.agent', 'bench-ready'))) return repo;
  rmSync(repo, { recursive: true, force: true });
  console.error(`building a ${FILES}-file repository in ${repo} (once)...`);
  let written = 0;
  for (let d = 0; written < FILES - 200; d++) {
    const dir = join(repo, 'src', `m${String(d).padStart(3, '0')}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < PER_DIR && written < FILES - 200; f++, written++)
      writeFileSync(join(dir, `f${f}.js`), `export const v${f} = ${d * PER_DIR + f};\n`);
  }
  mkdirSync(join(repo, 'src', 'storage'), { recursive: true });
  for (let f = 0; f < 200; f++)
    writeFileSync(join(repo, 'src', 'storage', `s${f}.js`), `export const s = ${f};\n`);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'commit.gpgsign', 'false');
  execFileSync(process.execPath, [BIN, 'init', '-q', '--goal', 'Bench task'], { cwd: repo });
  writeFileSync(join(repo, '.agent', 'state', 'goals.md'), GOALS);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'initial');
  writeFileSync(join(repo, '.agent', 'bench-ready'), '');
  return repo;
}

/** Stages `count` ordinary files (not Forbidden, not covered by a marker). */
export function stageFiles(repo, count, tag) {
  const paths = [];
  for (let i = 0; i < count; i++) {
    const path = `src/m${String(10 + i).padStart(3, '0')}/f${i}.js`;
    writeFileSync(join(repo, path), `export const edited = ${JSON.stringify(tag)};\n`);
    paths.push(path);
  }
  git(repo, 'add', '--', ...paths);
  return paths;
}

/** Undoes stageFiles. */
export function unstage(repo) {
  git(repo, 'reset', '-q', '--hard', 'HEAD');
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
