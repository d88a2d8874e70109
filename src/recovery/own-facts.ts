// What the agent's own records say it did since the last checkpoint (I/O): the files its hooks saw
// it write, when its shell commands ran, which HEAD moves here were its commits (see rules.ts).
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { readEvents } from '../events/read-log.js';
import type { StatusSnapshot } from '../events/types.js';
import { hasherAt, type FileHasher } from '../fingerprint/hash-file.js';
import { readReflog } from '../git/history.js';
import { toolNames } from '../events/tool-names.js';
import type { Repo } from '../state/find-root.js';
import { orElse } from '../state/or-else.js';
import type { FileState, Fingerprint } from '../types.js';
import { isOwnMove, type OwnFacts, type TreeNow } from './rules.js';

const FACT_TYPES = ['file.modified', 'tool.started', 'tool.finished', 'boot', 'checkpoint.created'];

const isShell = (name: unknown): name is string =>
  typeof name === 'string' && toolNames(name).includes('bash');

/** The own facts since the recorded fingerprint's time (null: ever), from the last checkpoint. */
export function readOwnFacts(
  repo: Repo,
  since: string | null,
  snapshot: StatusSnapshot,
  env?: NodeJS.ProcessEnv,
): OwnFacts {
  const sinceMs = since === null ? Number.NEGATIVE_INFINITY : Date.parse(since);
  const checkpoint = snapshot.checkpoint;
  // The log's last checkpoint is the one progress.yaml recorded, or older: read from there.
  const fromSeq =
    checkpoint && since !== null && Date.parse(checkpoint.at) <= sinceMs ? checkpoint.seq - 1 : 0;
  const { events } = readEvents(repo.paths, { since: Math.max(0, fromSeq), types: FACT_TYPES });
  const files: OwnFacts['files'] = {};
  const shellRuns: OwnFacts['shellRuns'] = [];
  const started = new Map<string, number[]>();
  let previous = sinceMs;
  let hookEdits = false;
  for (const event of events) {
    const at = Date.parse(event.at);
    if (Number.isNaN(at) || at < sinceMs) continue;
    // `watch` sees everyone's edits: its facts are observations, not the agent's own.
    // `agent-state`: a file it wrote itself (integrate, hooks install), its own but no sign of hooks.
    const { type, name, path, tool } = event;
    if (type === 'file.modified' && typeof path === 'string' && tool !== 'watch') {
      files[path] = { at: event.at, state: typeof event.state === 'string' ? event.state : null };
      hookEdits ||= tool !== 'agent-state';
    }
    if (type === 'tool.started' && isShell(name)) {
      const list = started.get(name) ?? [];
      list.push(at);
      started.set(name, list);
    }
    if (type === 'tool.finished' && isShell(name)) {
      // The run began at its tool.started, or else no earlier than the fact before it.
      const from = started.get(name)?.pop() ?? previous;
      shellRuns.push({ from: Number.isFinite(from) ? from : at, to: at });
    }
    previous = at;
  }
  const entries =
    repo.gitRoot !== null && since !== null ? readReflog(repo.paths.root, sinceMs, env) : null;
  const reflog = entries !== null;
  const commits = (entries ?? []).filter((e) => isOwnMove(e.subject)).map((e) => e.sha);
  const moves = (entries ?? [])
    .filter((e) => !isOwnMove(e.subject))
    .map((e) => ({ kind: e.subject.split(/[:( ]/)[0] ?? '', subject: e.subject }));
  // Tool calls in the log (ever) or edits since: a host's hooks record what the agent does here.
  const recorded = snapshot.tool_calls > 0 || hookEdits;
  return { files, shellRuns, commits, moves, reflog, recorded };
}

/** What `paths` hold now and when they last changed, reusing the hashes a fingerprint already took. */
export function treeNow(
  root: string,
  paths: Iterable<string>,
  current: Fingerprint | null,
  maxBytes: number,
  hash: FileHasher = hasherAt(root),
): TreeNow {
  const states: Record<string, FileState | null> = {};
  const mtimes: Record<string, number | null> = {};
  for (const path of new Set(paths)) {
    const known = current?.dirty[path] ?? current?.untracked[path];
    states[path] = known ?? hash(path, maxBytes);
    mtimes[path] = orElse(() => lstatSync(join(root, path)).mtimeMs, null);
  }
  return { states, mtimes };
}
