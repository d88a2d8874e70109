// What a host file looked like before agent-state first touched it, kept outside the repository
// (in the user's state directory), so that `integrate --remove` can give back the exact bytes
// when nothing else changed the file in between. Keyed by the file's absolute path.
import { createHash } from '../../text/lazy-crypto.js';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../state/atomic-write.js';
import { orElse } from '../or-else.js';
import { homeDir } from './home-dir.js';

interface StoredOriginal {
  path: string;
  /** The file's text before our first change; null when the file did not exist. */
  original: string | null;
  /** Directories created to hold the file (deepest last), removed again when left empty. */
  createdDirs?: string[];
  at: string;
}

/** Where originals are kept: $XDG_STATE_HOME/agent-state/originals (default ~/.local/state/...). */
export function originalsDir(env: NodeJS.ProcessEnv): string {
  const stateHome = env.XDG_STATE_HOME || join(homeDir(env), '.local', 'state');
  return join(stateHome, 'agent-state', 'originals');
}

function recordPath(path: string, env: NodeJS.ProcessEnv): string {
  const key = createHash('sha256').update(path).digest('hex').slice(0, 24);
  return join(originalsDir(env), `${key}.json`);
}

/** Remembers the text of `path` before our first change (null: the file did not exist). */
export function saveOriginal(
  path: string,
  original: string | null,
  createdDirs: string[],
  env: NodeJS.ProcessEnv,
  now: Date,
): void {
  mkdirSync(originalsDir(env), { recursive: true });
  const record: StoredOriginal = { path, original, createdDirs, at: now.toISOString() };
  writeFileAtomic(recordPath(path, env), `${JSON.stringify(record)}\n`);
}

/** The remembered original of `path`, or undefined when none was kept (or it is unreadable). */
export function readOriginal(path: string, env: NodeJS.ProcessEnv) {
  const read = () => readFileSync(recordPath(path, env), 'utf8');
  const record = orElse(() => JSON.parse(read()) as StoredOriginal, null);
  if (record?.path !== path) return undefined;
  return {
    original: typeof record.original === 'string' ? record.original : null,
    createdDirs: Array.isArray(record.createdDirs) ? record.createdDirs : [],
  };
}

/** Forgets the original of `path` (after a removal). */
export function forgetOriginal(path: string, env: NodeJS.ProcessEnv): void {
  rmSync(recordPath(path, env), { force: true });
}
