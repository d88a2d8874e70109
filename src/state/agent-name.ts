// Who is acting: `--agent` (the library's `agent`) or AGENT_STATE_AGENT, which a host passes to
// its hooks and the agent's shell alike; no name is the default agent (a single-agent task).
import { UsageError } from '../errors.js';
import type { BaseOptions } from '../types.js';
import { orElse } from './or-else.js';

/** The environment variable that names the agent. */
export const AGENT_ENV = 'AGENT_STATE_AGENT';

/** Agent names: they name a folder, so lowercase (one spelling on case-insensitive disks). */
export const AGENT_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** Throws a UsageError unless `name` is a valid agent name; `source` says where it came from. */
export function checkAgentName(name: string, source: string): string {
  if (AGENT_NAME.test(name)) return name;
  throw new UsageError(`${source} "${name}" is not a valid agent name`, {
    hint: 'use lowercase letters, digits, dash or underscore (at most 32), starting with a letter or digit',
  });
}

/** The acting agent's name, or null for the default agent. An empty value means no name. */
export function resolveAgent(options: Pick<BaseOptions, 'agent' | 'env'> = {}): string | null {
  if (options.agent === null) return null;
  if (options.agent !== undefined && options.agent !== '')
    return checkAgentName(options.agent, '--agent');
  const fromEnv = (options.env ?? process.env)[AGENT_ENV];
  if (fromEnv === undefined || fromEnv === '') return null;
  return checkAgentName(fromEnv, AGENT_ENV);
}

/** A host hook's agent (AGENT_STATE_AGENT); an invalid name is the default: a hook never fails. */
export function hookAgent(env: NodeJS.ProcessEnv = process.env): string | null {
  return orElse(() => resolveAgent({ env }), null);
}
