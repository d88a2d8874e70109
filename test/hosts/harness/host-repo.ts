// A temp repository as a new user's would be: a real git repo with a little code, `agent-state
// init`, goals.md with a Forbidden glob, and `agent-state integrate <host>`; plus a private HOME
// for the host, so nothing of the machine's own config leaks in and nothing leaks out.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const BIN = join(REPO_ROOT, 'bin', 'agent-state.js');

/** The Forbidden glob every host repo has. */
export const FORBIDDEN_GLOB = 'src/storage/**';

/** The file under it that the tests try to write. */
export const FORBIDDEN_FILE = 'src/storage/db.ts';

export const FORBIDDEN_CONTENT = 'export const db = "frozen";\n';

/** A goals.md with an anchor, a constraint and the Forbidden glob. */
export const GOALS_MD = `# Add a greeting

Add a greet() function to src/app.ts that returns "hello".

## Success criteria

- \`npm test\` passes

## Constraints

- Keep the public API of src/app.ts stable

## Forbidden

- \`${FORBIDDEN_GLOB}\` — frozen interface, owned by another team

## Non-goals

- A CLI
`;

export interface HostRepo {
  /** The repository root (real path). */
  dir: string;
  /** The host's private HOME (config dirs live under it). */
  home: string;
  /** Runs agent-state in the repository; returns stdout (throws on a non-zero exit). */
  cli(args: string[], env?: NodeJS.ProcessEnv): string;
  /** Reads a file of the repository. */
  read(path: string): string;
  /** Writes a file of the repository (creating folders). */
  write(path: string, content: string): void;
  /** The event log's entries (.agent/log/events.jsonl). */
  events(): Record<string, unknown>[];
  /** What `integrate` printed. */
  integrateOutput: string;
  remove(): void;
}

export interface HostRepoOptions {
  /** `agent-state integrate <host>` (omit to wire nothing). */
  integrate?: string;
  /** More options for integrate (`--mcp`). */
  integrateArgs?: string[];
  /** Extra files (path → content), committed with the rest. */
  files?: Record<string, string>;
  /** Settings for .agent/config.yaml by dotted path (`integrations.stop_checkpoint: block`). */
  config?: Record<string, unknown>;
}

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, stdio: 'ignore' });
}

function writeAt(root: string, path: string, content: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

/** Sets values in .agent/config.yaml by dotted path, keeping the rest of the file as it is. */
export function setConfig(dir: string, values: Record<string, unknown>): void {
  const file = join(dir, '.agent', 'config.yaml');
  const doc = parseDocument(readFileSync(file, 'utf8'));
  for (const [path, value] of Object.entries(values)) doc.setIn(path.split('.'), value);
  writeFileSync(file, doc.toString());
}

/** Creates the repository and its HOME; `remove()` deletes both. */
export function hostRepo(options: HostRepoOptions = {}): HostRepo {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'agent-state-hosts-')));
  const dir = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(dir);
  mkdirSync(home);
  const files: Record<string, string> = {
    'package.json': '{ "name": "greeting", "private": true, "type": "module" }\n',
    'src/app.ts': 'export const version = 1;\n',
    [FORBIDDEN_FILE]: FORBIDDEN_CONTENT,
    'README.md': '# greeting\n',
    ...options.files,
  };
  for (const [path, content] of Object.entries(files)) writeAt(dir, path, content);
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'commit.gpgsign', 'false');
  const cliEnv = {
    ...process.env,
    NO_COLOR: '1',
    HOME: home,
    XDG_STATE_HOME: join(home, '.state'),
  };
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    execFileSync(process.execPath, [BIN, ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...cliEnv, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  cli(['init', '--goal', 'Add a greet() function to src/app.ts that returns "hello".']);
  writeAt(dir, '.agent/state/goals.md', GOALS_MD);
  if (options.config) setConfig(dir, options.config);
  let integrateOutput = '';
  if (options.integrate)
    integrateOutput = cli(['integrate', options.integrate, ...(options.integrateArgs ?? [])], {
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      CODEX_HOME: join(home, '.codex'),
    });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return {
    dir,
    home,
    cli,
    read: (path) => readFileSync(join(dir, path), 'utf8'),
    write: (path, content) => writeAt(dir, path, content),
    events: () => {
      let text = '';
      try {
        text = readFileSync(join(dir, '.agent', 'log', 'events.jsonl'), 'utf8');
      } catch {
        return [];
      }
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    integrateOutput,
    remove: () => rmSync(base, { recursive: true, force: true, maxRetries: 5 }),
  };
}
