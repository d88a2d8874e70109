// Our part of a shell hook file: a block between two marker lines, appended to what the user
// has, and removable so that the file comes back byte for byte. Pure text in, text out.
import type { GitHookName } from './git-hook-types.js';

export const BLOCK_BEGIN = '# >>> agent-state >>>';
export const BLOCK_END = '# <<< agent-state <<<';
// Flag lines inside the block that tell `removeBlock` how to restore the file exactly.
const CREATED_FLAG =
  '# (agent-state created this file; uninstall deletes it when nothing else is left)';
const NO_EOL_FLAG = '# (the text above had no final newline; uninstall restores that)';
const ABOUT = [
  '# Added by `agent-state hooks install` (docs/hooks.md); `agent-state hooks uninstall` removes it.',
  '# Skip it once with AGENT_STATE=0. When agent-state is not installed it does nothing.',
];

/** The first line of a hook file agent-state creates for plain git. */
export const SHELL_HEADER = '#!/bin/sh\n';

/** Where the hook finds agent-state: the binary recorded at install time, then the usual places. */
export interface BinaryLocation {
  /** The node that ran `hooks install` (used when it still exists). */
  node: string;
  /** The absolute path of bin/agent-state.js of that installation. */
  script: string;
}

/** Single quotes keep any path verbatim in sh; a quote inside becomes '\''. */
export function shQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

// A post-* hook cannot stop anything, and its exit status becomes git checkout's: never fail it.
function onFailure(hook: GitHookName): string {
  return hook === 'pre-commit' ? ' || exit $?' : ' || true';
}

const IN_PROJECT = '[ -x ./node_modules/.bin/agent-state ]';
const ON_PATH = 'command -v agent-state >/dev/null 2>&1';
/** The portable call's lookup as one sh test: true when it finds an agent-state to run. */
export const PORTABLE_LOOKUP = `${IN_PROJECT} || ${ON_PATH}`;

/** The portable call: the project's node_modules/.bin, then PATH; nothing when neither exists. */
export function portableCall(hook: GitHookName, args: string, indent = ''): string[] {
  const call = `hook ${hook}${args ? ` ${args}` : ''}`;
  const tail = onFailure(hook);
  return [
    `${indent}if ${IN_PROJECT}; then`,
    `${indent}  ./node_modules/.bin/agent-state ${call}${tail}`,
    `${indent}elif ${ON_PATH}; then`,
    `${indent}  agent-state ${call}${tail}`,
    `${indent}fi`,
  ];
}

/** The body for a private hook (.git/hooks): the recorded binary first, then the portable call. */
export function directBody(hook: GitHookName, bin: BinaryLocation): string[] {
  const tail = onFailure(hook);
  return [
    'if [ "${AGENT_STATE-}" != "0" ]; then',
    `  agent_state_node=${shQuote(bin.node)}`,
    `  agent_state_js=${shQuote(bin.script)}`,
    '  command -v "$agent_state_node" >/dev/null 2>&1 || agent_state_node=node',
    '  if [ -f "$agent_state_js" ] && command -v "$agent_state_node" >/dev/null 2>&1; then',
    `    "$agent_state_node" "$agent_state_js" hook ${hook} "$@"${tail}`,
    '  else',
    ...portableCall(hook, '"$@"', '    '),
    '  fi',
    'fi',
  ];
}

/** The body for a shared hook file (committed: no machine-specific path in it). */
export function portableBody(hook: GitHookName): string[] {
  return ['if [ "${AGENT_STATE-}" != "0" ]; then', ...portableCall(hook, '"$@"', '  '), 'fi'];
}

type BlockFlags = { created: boolean; noEol: boolean };

function renderBlock(body: readonly string[], flags: BlockFlags): string {
  const lines = [BLOCK_BEGIN, ...ABOUT];
  if (flags.created) lines.push(CREATED_FLAG);
  if (flags.noEol) lines.push(NO_EOL_FLAG);
  return `${[...lines, ...body, BLOCK_END].join('\n')}\n`;
}

// The first block: from the start of its BEGIN line to just after its END line.
function findBlock(text: string): { start: number; end: number; flags: BlockFlags } | null {
  let start = 0;
  if (!text.startsWith(`${BLOCK_BEGIN}\n`)) {
    const newline = text.indexOf(`\n${BLOCK_BEGIN}\n`);
    if (newline === -1) return null;
    start = newline + 1;
  }
  const endMarker = text.indexOf(`\n${BLOCK_END}`, start);
  if (endMarker === -1) return null;
  const afterEnd = endMarker + 1 + BLOCK_END.length;
  const end = text.charAt(afterEnd) === '\n' ? afterEnd + 1 : afterEnd;
  const inner = text.slice(start, end);
  const flags = { created: inner.includes(CREATED_FLAG), noEol: inner.includes(NO_EOL_FLAG) };
  return { start, end, flags };
}

/** Whether the text holds our block. */
export function hasBlock(text: string): boolean {
  return findBlock(text) !== null;
}

/** Adds our block to a hook file's text (null: a new file, with `header`), or refreshes it. */
export function upsertBlock(existing: string | null, body: readonly string[], header = ''): string {
  if (existing === null) return `${header}${renderBlock(body, { created: true, noEol: false })}`;
  const found = findBlock(existing);
  if (found)
    return (
      existing.slice(0, found.start) + renderBlock(body, found.flags) + existing.slice(found.end)
    );
  const noEol = existing !== '' && !existing.endsWith('\n');
  return `${existing}${noEol ? '\n' : ''}${renderBlock(body, { created: false, noEol })}`;
}

/** The text without our blocks; `delete` when we created the file and nothing else is left. */
export function removeBlock(
  text: string,
  header = '',
): { text: string; removed: boolean; delete: boolean } {
  let current = text;
  let removed = false;
  let created = false;
  for (let found = findBlock(current); found; found = findBlock(current)) {
    let before = current.slice(0, found.start);
    if (found.flags.noEol && before.endsWith('\n')) before = before.slice(0, -1);
    created ||= found.flags.created;
    current = before + current.slice(found.end);
    removed = true;
  }
  const leftover = current.trim() === '' || current === header || current.trim() === header.trim();
  return { text: current, removed, delete: created && leftover };
}

/** The interpreter named by a `#!` line, or null without one (git then uses sh). */
export function shebangOf(text: string): string | null {
  const match = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text);
  if (!match) return null;
  const program = match[1]!;
  return program.endsWith('/env') && match[2] ? match[2] : program.split('/').pop()!;
}

/** Whether a hook file is a shell script we can append shell code to. */
export function isShellHook(text: string): boolean {
  const shell = shebangOf(text);
  return shell === null || /^(sh|bash|dash|zsh|ksh|ash|mksh|busybox)$/.test(shell);
}
