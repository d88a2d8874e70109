// The named agents whose own files are in a task directory (.agent/state/agents/<name>/).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { StatePaths } from '../state/paths.js';
import { AGENT_NAME } from '../state/agent-name.js';

/** The agents with an own file, sorted; `invalid`: folders whose name is no agent name. */
export function listAgentFiles(paths: StatePaths): { names: string[]; invalid: string[] } {
  let entries: string[];
  try {
    entries = readdirSync(paths.agentsDir);
  } catch {
    return { names: [], invalid: [] };
  }
  const names: string[] = [];
  const invalid: string[] = [];
  for (const name of entries.sort()) {
    if (!existsSync(join(paths.agentsDir, name, 'progress.yaml'))) continue;
    (AGENT_NAME.test(name) ? names : invalid).push(name);
  }
  return { names, invalid };
}
