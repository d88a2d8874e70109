// OpenCode: a plugin file in .opencode/plugins/ (project) or ~/.config/opencode/plugins/ (user).
// It puts the boot prompt into the system prompt of the session's agent turns (at session start,
// renewed after `session.compacted`; never into the compaction summarizer's request), checks
// edits before they run (tool.execute.before, which denies by throwing), records tool facts and
// appends the status signals to the tool's result (tool.execute.after). Observed in OpenCode
// 1.18.33 (docs/integrations.md); the plugin's source is opencode-plugin.ts.
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { doctorCheck, scopeFile, type HostAdapter, type HostFile } from '../host-adapter.js';
import { HostHookInputError, obj, str } from '../host-hook-payload.js';
import type { FileEdit } from '../install/file-edits.js';
import { homeDir } from '../install/home-dir.js';
import { programFound } from '../install/hook-binary.js';
import { OPENCODE_PLUGIN_HEADER, opencodePluginSource } from './opencode-plugin.js';

const PLUGIN = 'agent-state.js';
const ours = (text: string | null) => text !== null && text.startsWith(OPENCODE_PLUGIN_HEADER);

/** The FileEdit of the plugin file: ours is replaced or removed; someone else's is never touched. */
function pluginEdit({ path, display }: HostFile, source: string, notes: string[]): FileEdit {
  return {
    path,
    display,
    install: (before) => {
      if (before !== null && !ours(before)) {
        notes.push(`${display} exists and was not written by agent-state; it was left as it is`);
        return before;
      }
      return source;
    },
    remove: (before) => (ours(before) ? null : before),
    holdsOurs: ours,
    equivalent: (a, b) => a === b,
  };
}

export const opencodeHost: HostAdapter = {
  name: 'opencode',
  // The plugin's own names: OpenCode's hooks and events, and `session.start` for the first agent
  // turn of a session it sees (source startup or resume; `session.compacted` is source compact).
  events: {
    'session.start': { kind: 'session-start' },
    'session.compacted': { kind: 'session-start' },
    'tool.execute.before': { kind: 'pre-tool' },
    'tool.execute.after': { kind: 'post-tool' },
    'experimental.session.compacting': { kind: 'pre-compact' },
  },
  statusFormat: 'xml',
  scopes: ['project', 'user'],
  flags: [],
  projectDir: '.',
  parse(p, cwd) {
    const name = str(p.event);
    if (!name) throw new HostHookInputError('the opencode payload has no "event"');
    const kind = opencodeHost.events[name]?.kind ?? 'other';
    const tool = str(p.tool);
    const source = name === 'session.compacted' ? 'compact' : (str(p.source) ?? 'startup');
    return {
      host: 'opencode',
      kind,
      hostEvent: name,
      cwd: str(p.cwd) ?? cwd,
      sessionId: str(p.session_id) ?? null,
      ...(kind === 'session-start' ? { source } : {}),
      ...(tool ? { tool: { name: tool, input: obj(p.args), ok: p.ok !== false } } : {}),
    };
  },
  // The plugin reads {deny} (it throws to refuse) and {context} (the boot prompt for the system
  // prompt, or the text it appends to a tool's result).
  render: (_event, { deny, context }) => ({
    ...(deny ? { deny } : {}),
    ...(context ? { context } : {}),
  }),
  install({ scope, root, env, binary }) {
    const notes: string[] = [];
    const configHome = env.XDG_CONFIG_HOME || join(homeDir(env), '.config');
    const user = scope === 'user' ? join(configHome, 'opencode', 'plugins') : null;
    const dir = user ? '.config/opencode/plugins' : '.opencode/plugins';
    const file = scopeFile(user, root, dir, PLUGIN);
    const edits = [pluginEdit(file, opencodePluginSource(binary), notes)];
    notes.push(
      'OpenCode loads plugins at start-up: restart it to pick the plugin up',
      'OpenCode reads AGENTS.md: `agent-state integrate agents-md` teaches the agent the protocol at start-up',
    );
    return { edits, notes };
  },
  doctor(root, env) {
    const plugin = join(root, '.opencode', 'plugins', PLUGIN);
    const text = existsSync(plugin) ? readFileSync(plugin, 'utf8') : null;
    if (!ours(text)) return [];
    const bin = /^const BIN = (".*");$/m.exec(text!)?.[1];
    const program = bin ? (JSON.parse(bin) as string) : '';
    const local = /^const BIN_IN_PROJECT = true;$/m.test(text!);
    const name = 'opencode plugin (.opencode/plugins/agent-state.js)';
    return [
      programFound(local && !isAbsolute(program) ? join(root, program) : program, env)
        ? doctorCheck(name, 'ok', 'installed')
        : doctorCheck(
            name,
            'fail',
            `the plugin runs \`${program}\`, which is not found`,
            'run `agent-state integrate opencode` again',
          ),
    ];
  },
};
