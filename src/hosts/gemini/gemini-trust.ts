// Gemini CLI's folder trust, as Gemini CLI 0.61 decides it: in a folder it does not trust it
// loads no hooks at all (project or user settings) and, headless, exits with code 55. Trust comes
// from GEMINI_CLI_TRUST_WORKSPACE=true, from `security.folderTrust.enabled: false` in the user
// settings, or from ~/.gemini/trustedFolders.json (the longest matching rule wins; TRUST_PARENT
// trusts the rule's parent folder). `integrate gemini --trust` writes what its "Trust folder"
// choice writes.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { jsonEdit, type FileEdit } from '../install/file-edits.js';
import { isJsonObject, parseJsonObject } from '../install/json-text.js';

/** Gemini CLI's user directory: $GEMINI_CLI_HOME/.gemini, else ~/.gemini. */
export function geminiUserDir(env: NodeJS.ProcessEnv): string {
  const base = env.GEMINI_CLI_HOME || (env.HOME && env.HOME !== '' ? env.HOME : homedir());
  return join(base, '.gemini');
}

/** Where Gemini CLI keeps the trusted folders. */
export function trustedFoldersPath(env: NodeJS.ProcessEnv): string {
  return env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || join(geminiUserDir(env), 'trustedFolders.json');
}

/** Whether Gemini CLI trusts a folder, and what decides it. */
export interface GeminiTrust {
  /** true / false: a rule or setting decides; undefined: nothing does (untrusted, and Gemini asks). */
  trusted: boolean | undefined;
  /** One line for the user: what decided it. */
  reason: string;
}

function realpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function readJson(path: string): Record<string, unknown> | null {
  if (!existsSync(path)) return null;
  try {
    return parseJsonObject(readFileSync(path, 'utf8'), path);
  } catch {
    return null;
  }
}

function within(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Gemini CLI's trust decision for `folder` (read-only). */
export function geminiTrust(folder: string, env: NodeJS.ProcessEnv): GeminiTrust {
  if (env.GEMINI_RESTRICTED_MODE === 'true' || env.GEMINI_CLI_TRUST_WORKSPACE === 'false')
    return {
      trusted: false,
      reason: 'GEMINI_CLI_TRUST_WORKSPACE=false (or restricted mode) is set',
    };
  if (env.GEMINI_CLI_TRUST_WORKSPACE === 'true')
    return { trusted: true, reason: 'GEMINI_CLI_TRUST_WORKSPACE=true is set' };
  const settings = readJson(join(geminiUserDir(env), 'settings.json'));
  const security = settings && isJsonObject(settings.security) ? settings.security : {};
  const folderTrust = isJsonObject(security.folderTrust) ? security.folderTrust : {};
  if (folderTrust.enabled === false)
    return { trusted: true, reason: 'folder trust is off in ~/.gemini/settings.json' };
  const file = trustedFoldersPath(env);
  const rules = readJson(file) ?? {};
  const location = realpath(folder);
  let best: { path: string; level: string } | null = null;
  for (const [path, level] of Object.entries(rules)) {
    if (level !== 'TRUST_FOLDER' && level !== 'TRUST_PARENT' && level !== 'DO_NOT_TRUST') continue;
    const effective = realpath(level === 'TRUST_PARENT' ? dirname(path) : path);
    if (within(effective, location) && (!best || path.length > best.path.length))
      best = { path, level };
  }
  if (!best) return { trusted: undefined, reason: `no rule for it in ${file}` };
  const rule = `${file}: "${best.path}": ${best.level}`;
  return best.level === 'DO_NOT_TRUST'
    ? { trusted: false, reason: `${rule} (you chose not to trust it)` }
    : { trusted: true, reason: rule };
}

/** The edit of trustedFolders.json that trusts `folder` (what Gemini's "Trust folder" writes). */
export function trustFolderEdit(folder: string, env: NodeJS.ProcessEnv): FileEdit {
  const key = realpath(folder);
  return jsonEdit({
    path: trustedFoldersPath(env),
    display: '~/.gemini/trustedFolders.json',
    install: (rules) => ({ ...rules, [key]: 'TRUST_FOLDER' }),
    remove: (rules) => {
      if (rules[key] !== 'TRUST_FOLDER') return rules;
      const { [key]: _ours, ...rest } = rules;
      return rest;
    },
    holdsOurs: (rules) => rules[key] === 'TRUST_FOLDER',
  });
}
