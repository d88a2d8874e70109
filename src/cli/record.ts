// How a command records its fact in the event log after its real work succeeded: never failing
// the command, at most a warning (printed on stderr with the result).
import { isAbsolute, join, relative, sep } from 'node:path';
import { recordEvent } from '../events/append.js';
import type { EventInput } from '../events/types.js';
import { hashFile } from '../fingerprint/hash-file.js';
import { findRoot, locateRoot } from '../state/find-root.js';
import type { StatePaths } from '../state/paths.js';
import { isAgentPath } from '../state/repo-path.js';
import type { Warning } from '../types.js';

/** Appends `input` to the task's log without its null or undefined fields (an unknown value is
 * absent, not a value); returns the warnings to show. `paths`: the state the command found. */
export async function recordFact(
  ctx: { cwd: string; now: () => Date; env: NodeJS.ProcessEnv; paths?: StatePaths },
  input: EventInput,
): Promise<Warning[]> {
  const fact = Object.fromEntries(
    Object.entries(input).filter(([, v]) => v !== null && v !== undefined),
  ) as EventInput;
  const paths = ctx.paths ?? findRoot(ctx.cwd);
  const { warning } = await recordEvent(paths, fact, { now: ctx.now, env: ctx.env });
  return warning ? [warning] : [];
}

// So the drift never calls them someone else's; paths outside the tree, .agent/ and .git/ are out.
/** Records the files agent-state just changed (`integrate`, `hooks install`) as its own edits. */
export async function recordOwnWrites(
  ctx: { cwd: string; now: () => Date; env: NodeJS.ProcessEnv },
  changes: readonly { file: string; action: string }[],
): Promise<Warning[]> {
  const info = locateRoot(ctx.cwd);
  if (!info.initialized) return [];
  const warnings: Warning[] = [];
  for (const file of new Set(changes.filter((c) => c.action !== 'unchanged').map((c) => c.file))) {
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
