// Gemini CLI's folder trust, as Gemini CLI 0.61 decides it: in a folder it does not trust it
// loads no hooks at all (project or user settings) and, headless, exits with code 55. Trust comes
// from GEMINI_CLI_TRUST_WORKSPACE=true, from `security.folderTrust.enabled: false` in the user
// settings, or from ~/.gemini/trustedFolders.json (the longest matching rule wins; TRUST_PARENT
// trusts the rule's parent folder). `integrate gemini --trust` writes what its "Trust folder"
// choice writes.
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { jsonEdit, type FileEdit } from '../install/file-edits.js';
import { homeDir } from '../install/home-dir.js';
import { isJsonObject, parseJsonObject } from '../install/json-text.js';
import { orElse } from '../or-else.js';

/** Gemini CLI's user directory: $GEMINI_CLI_HOME/.gemini, else ~/.gemini. */
export const geminiUserDir = (env: NodeJS.ProcessEnv): string =>
  join(env.GEMINI_CLI_HOME || homeDir(env), '.gemini');

// Where Gemini CLI keeps the trusted folders.
const trustedFoldersPath = (env: NodeJS.ProcessEnv) =>
  env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || join(geminiUserDir(env), 'trustedFolders.json');

const realpath = (path: string) => orElse(() => realpathSync(path), resolve(path));
const readJson = (path: string) =>
  orElse(() => parseJsonObject(readFileSync(path, 'utf8'), path), null);

function within(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Gemini CLI's trust decision for `folder` (read-only): `trusted` true or false when a rule or
 * setting decides, undefined when nothing does (untrusted, and Gemini asks); `reason` says what
 * decided it, in one line for the user.
 */
export function geminiTrust(folder: string, env: NodeJS.ProcessEnv) {
  if (env.GEMINI_RESTRICTED_MODE === 'true' || env.GEMINI_CLI_TRUST_WORKSPACE === 'false')
    return {
      trusted: false,
      reason: 'GEMINI_CLI_TRUST_WORKSPACE=false (or restricted mode) is set',
    };
  if (env.GEMINI_CLI_TRUST_WORKSPACE === 'true')
    return { trusted: true, reason: 'GEMINI_CLI_TRUST_WORKSPACE=true is set' };
  const security = readJson(join(geminiUserDir(env), 'settings.json'))?.security;
  const folderTrust = isJsonObject(security) ? security.folderTrust : undefined;
  if (isJsonObject(folderTrust) && folderTrust.enabled === false)
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
