// An agent's own keys and the shared ones (docs/multi-agent.md), pure: a named agent's view is the
// shared progress.yaml with its own file laid over; a write splits back, the default agent's own
// keys in progress.yaml left exactly as they were.
import { AGENT_FILE_KEYS } from '../state/progress.js';
import type { Progress } from '../types.js';

/** The top-level keys each agent has for itself (memory.working is own too; memory.durable is shared). */
export const OWN_KEYS = [
  'stage',
  'next_action',
  'current_step',
  'reminders',
  'stamp',
  'fingerprint',
] as const satisfies readonly (keyof Progress)[];

type OwnKey = (typeof OWN_KEYS)[number];

/** An empty own file for `agent` (before its first write). */
export function emptyOwn(agent: string): Progress {
  return { version: 1, revision: 0, agent };
}

/** The view of a named agent: shared keys from `shared`, own keys (and working memory) from `own`. */
export function overlayProgress(shared: Progress, own: Progress): Progress {
  const view: Progress = { ...shared };
  for (const key of OWN_KEYS) delete view[key];
  delete view.memory;
  for (const key of AGENT_FILE_KEYS) if (own[key] !== undefined) view[key] = own[key];
  for (const key of OWN_KEYS) if (own[key] !== undefined) setKey(view, key, own[key]);
  const memory = memoryOf(shared, own);
  if (memory) view.memory = memory;
  return view;
}

// The durable notes of `durable`, the working notes of `working`; undefined when neither has any.
function memoryOf(durable: Progress, working: Progress): Progress['memory'] {
  const memory: NonNullable<Progress['memory']> = {};
  if (durable.memory?.durable !== undefined) memory.durable = durable.memory.durable;
  if (working.memory?.working !== undefined) memory.working = working.memory.working;
  return Object.keys(memory).length > 0 ? memory : undefined;
}

function setKey<K extends OwnKey>(target: Progress, key: K, value: Progress[K]): void {
  target[key] = value;
}

// Shared keeps `shared`'s own keys (the default agent's) and revision; own keeps `own`'s revision.
/** Splits a named agent's view into the next shared and own values (revisions not bumped). */
export function splitProgress(
  view: Progress,
  shared: Progress,
  own: Progress,
  lastSeen: string | undefined = own.last_seen,
): { shared: Progress; own: Progress } {
  const nextShared: Progress = { ...view, revision: shared.revision };
  for (const key of [...OWN_KEYS, ...AGENT_FILE_KEYS]) delete nextShared[key];
  for (const key of OWN_KEYS) if (shared[key] !== undefined) setKey(nextShared, key, shared[key]);
  const sharedMemory = memoryOf(view, shared);
  if (sharedMemory) nextShared.memory = sharedMemory;
  else delete nextShared.memory;

  // Key order of a new own file: identity first, then what the agent reads first.
  const nextOwn: Progress = { version: 1, revision: own.revision };
  nextOwn.agent = own.agent ?? view.agent;
  if (lastSeen !== undefined) nextOwn.last_seen = lastSeen;
  for (const key of OWN_KEYS) if (view[key] !== undefined) setKey(nextOwn, key, view[key]);
  if (view.memory?.working !== undefined) nextOwn.memory = { working: view.memory.working };
  return { shared: nextShared, own: nextOwn };
}
