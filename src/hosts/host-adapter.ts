// One agent host behind one interface (keyed by its own event names, as OpenCode's plugin `Hooks`
// are). The host-neutral core (handle-event.ts) and install/ never name a host; each host's
// folder holds everything about it.
import { join } from 'node:path';
import type { CompactionNote } from '../recovery/compaction.js';
import type { FileEdit } from './install/file-edits.js';
import type { HookBinary } from './install/hook-binary.js';
import type { JsonObject } from './install/json-text.js';
import type { HostHookEvent, HostHookKind, HostHookOutcome } from './host-hook-event.js';
import type { HostName } from './host-names.js';

export type IntegrationScope = 'project' | 'local' | 'user';

/** One event of a host: what it means, and how `integrate` registers it (settings-file hosts). */
export interface HostHookRegistration {
  kind: HostHookKind;
  /** Which tool calls it fires for, in the host's matcher syntax; omitted: all of them. */
  matcher?: string;
  /** In the host's unit; omitted: the host sends it, `integrate` does not register it. */
  timeout?: number;
  /** More handler fields (Gemini CLI's name and description). */
  extra?: JsonObject;
}

/** What `integrate` was asked, resolved for one host. */
export interface InstallContext {
  scope: IntegrationScope;
  /** The repository root (project and local scopes). */
  root: string;
  binary: HookBinary;
  env: NodeJS.ProcessEnv;
  statusline: boolean;
  mcp: boolean;
  trust: boolean;
  /** Taking our part out: every optional file the host may hold ours in is planned. */
  remove: boolean;
}

/** The edits of one integration and the notes to print with its result. */
export interface IntegrationPlan {
  edits: FileEdit[];
  /** Sentences for the user (trust prompts, manual steps, things left alone). */
  notes: string[];
}

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** One finding of `doctor`. */
export interface DoctorCheck {
  /** What was checked, e.g. `claude hooks (.claude/settings.json)`. */
  name: string;
  status: CheckStatus;
  message: string;
  /** How to fix it (empty when ok). */
  fix: string;
}

/** One finding of `doctor`, as a value. */
export const doctorCheck = (
  name: string,
  status: CheckStatus,
  message: string,
  fix = '',
): DoctorCheck => ({ name, status, message, fix });

/** A file a host reads hooks from. */
export type HostFile = Pick<FileEdit, 'path' | 'display'>;

/** A host's file `name` in the repository's `dir` (.claude) or, user scope, in `userDir`. */
export const scopeFile = (
  user: string | null,
  root: string,
  dir: string,
  name: string,
): HostFile =>
  user === null
    ? { path: join(root, dir, name), display: `${dir}/${name}` }
    : { path: join(user, name), display: `~/${dir}/${name}` };

/** Everything agent-state knows about one agent host. */
export interface HostAdapter {
  name: HostName;
  /** Its events by the host's own names. */
  events: Readonly<Record<string, HostHookRegistration>>;
  /** How its model best reads the status (Gemini CLI escapes `<` and `>` in hook context). */
  statusFormat: 'xml' | 'markdown';
  /** Where `integrate` may install; the first is the default. */
  scopes: readonly IntegrationScope[];
  /** The `integrate` options it takes besides --scope. */
  flags: readonly ('statusline' | 'mcp' | 'trust')[];
  /** How its hook commands name the project directory (a project-local install). */
  projectDir: string;
  /** The settings file of a scope that holds the `hooks` map (hosts configured that way). */
  hooksFile?(scope: IntegrationScope, root: string, env: NodeJS.ProcessEnv): HostFile;
  /** One hook call's decoded stdin; throws HostHookInputError for what the host would not send. */
  parse(payload: Record<string, unknown>, cwd: string): HostHookEvent;
  /** The outcome in the host's output format (an empty object: print nothing). */
  render(event: HostHookEvent, outcome: HostHookOutcome): JsonObject;
  /** What `integrate` edits besides the hooks file, and what to tell the user. */
  install(context: InstallContext): IntegrationPlan;
  /** What `doctor` checks besides the hooks files (trust, a plugin); `hooksFound`: some are ours. */
  doctor(root: string, env: NodeJS.ProcessEnv, hooksFound: boolean): DoctorCheck[];
  /**
   * Hosts that hold a background post-tool call's answer until the next user turn (Codex): the
   * control signals go out with the next pre-tool call instead.
   */
  signalsBeforeTool?: true;
  /** Hosts whose transcript, not a hook, proves a compaction happened (Gemini CLI). */
  transcript?: {
    /** Where the transcript ends now (a compaction written later starts there). */
    offset(path: string): number;
    shows(note: CompactionNote): boolean;
  };
}
