// How a command records its fact in the event log after its real work succeeded: never failing
// the command, at most a warning (printed on stderr by defineAction).
import { isAbsolute, join, relative, sep } from 'node:path';
import { recordEvent } from '../events/append.js';
import type { EventInput } from '../events/types.js';
import { hashFile } from '../fingerprint/hash-file.js';
import { findRoot, locateRoot } from '../state/find-root.js';
import { isAgentPath } from '../state/repo-path.js';
import type { Warning } from '../types.js';

/**
 * Appends `input` to the log of the task at ctx.cwd, leaving out fields that are null or
 * undefined (an unknown value is absent, not a value); returns the warnings to show (if any).
 */
export async function recordFact(
  ctx: { cwd: string; now: () => Date; env: NodeJS.ProcessEnv },
  input: EventInput,
): Promise<Warning[]> {
  const fact = Object.fromEntries(
    Object.entries(input).filter(([, v]) => v !== null && v !== undefined),
  ) as EventInput;
  const { warning } = await recordEvent(findRoot(ctx.cwd), fact, { now: ctx.now, env: ctx.env });
  return warning ? [warning] : [];
}

/**
 * Records the files of the tree that agent-state itself just wrote (`integrate`, `hooks
 * install`) as its own edits, with what each holds now: the drift then never calls them someone
 * else's. Paths outside the tree or in .agent/ or .git/ are left out; no state, no record.
 */
export async function recordOwnWrites(
  ctx: { cwd: string; now: () => Date; env: NodeJS.ProcessEnv },
  files: readonly string[],
): Promise<Warning[]> {
  const info = locateRoot(ctx.cwd);
  if (!info.initialized) return [];
  const warnings: Warning[] = [];
  for (const file of new Set(files)) {
    const path = relative(info.root, join(info.root, file)).split(sep).join('/');
    const outside = file.startsWith('~') || path.startsWith('..') || isAbsolute(path);
    if (outside || isAgentPath(path) || /^\.git\//.test(path)) continue;
    const state = hashFile(join(info.root, path)) ?? 'deleted';
    warnings.push(
      ...(await recordFact(ctx, { type: 'file.modified', tool: 'agent-state', path, state })),
    );
  }
  return warnings;
}
