// What would weaken the Forbidden guard itself: an edit that removes a Forbidden rule from
// goals.md or turns integrations.forbidden off in config.yaml (judged by what the edit leaves in
// the file), and a shell command by which the agent would approve itself.
import { readFileSync } from 'node:fs';
import { parseConfig } from '../state/config.js';
import { liftedGlobs } from '../state/forbidden.js';
import { parseGoals } from '../state/goals.js';
import type { ForbiddenEntry } from '../types.js';
import type { HostHookTool } from './host-hook-event.js';
import { parsePatch, patchedText } from './patch-text.js';
import { shellWords } from './shell-words.js';
import { patchBody } from './tool-paths.js';
import { orElse } from './or-else.js';

// What an edit tool leaves in the file `isTarget` names: each possible content ('' when it is
// deleted), or null when that cannot be told.
function contentsAfter(
  tool: HostHookTool,
  before: string,
  isTarget: (p: string) => boolean,
): string[] | null {
  const input = tool.input;
  const body = patchBody(tool);
  if (body !== null) {
    let text: string | null = before;
    for (const file of parsePatch(body)) {
      if (!isTarget(file.path)) {
        if (file.moveTo && isTarget(file.moveTo)) return null;
        continue;
      }
      if (file.op === 'Delete' || (file.moveTo && !isTarget(file.moveTo))) text = '';
      else if (file.op === 'Add')
        text = file.body.flatMap((l) => (l.startsWith('+') ? [`${l.slice(1)}\n`] : [])).join('');
      else text = patchedText(text ?? '', file.body);
      if (text === null) return null;
    }
    return [text ?? ''];
  }
  if (typeof input.content === 'string') return [input.content];
  const edits = Array.isArray(input.edits) ? (input.edits as Record<string, unknown>[]) : [input];
  // Claude Code's Edit replaces one occurrence unless replace_all; try both readings.
  let first = before;
  let all = before;
  for (const e of edits) {
    const from = e.old_string ?? e.oldString;
    const to = e.new_string ?? e.newString;
    if (typeof from !== 'string' || typeof to !== 'string' || from === '') return null;
    first = first.replace(from, () => to);
    all = all.split(from).join(to);
  }
  return [first, all];
}

/** Why an edit of goals.md or config.yaml weakens the guard, or null when it does not. */
export function weakening(
  tool: HostHookTool,
  file: string,
  display: string,
  entries: readonly ForbiddenEntry[],
  isTarget: (p: string) => boolean,
): string | null {
  const before = orElse(() => readFileSync(file, 'utf8'), ''); // '': a new file
  const after = contentsAfter(tool, before, isTarget);
  if (after === null)
    return `agent-state cannot tell what this ${tool.name} call leaves in ${display}, which holds the Forbidden rules`;
  for (const text of after) {
    if (display.endsWith('goals.md')) {
      const dropped = liftedGlobs(entries, parseGoals(text).goals.forbidden);
      if (dropped.length > 0)
        return `this ${tool.name} call removes the Forbidden rule ${dropped.map((g) => `\`${g}\``).join(', ')} from ${display}`;
    } else {
      const mode = parseConfig(text, display).value?.integrations.forbidden ?? 'enforce';
      if (mode !== 'enforce')
        return `this ${tool.name} call sets integrations.forbidden to ${mode} in ${display}`;
    }
  }
  return null;
}

// A word that approves Forbidden changes or switches the checks off, and a command that removes them.
const APPROVING_WORD = /^(?:AGENT_STATE_ALLOW_FORBIDDEN|AGENT_STATE|HUSKY)=|^core\.hookspath/i;
const REMOVING = /\bagent-state (?:integrate\b.* --remove\b|hooks uninstall\b|init\b.* --force\b)/;

/** Whether a shell command would approve Forbidden changes or switch the checks off. */
export function selfApproval(command: string): boolean {
  return shellWords(command).some((words) => {
    const git = words.findIndex((w) => w.split('/').pop() === 'git');
    const rest = words.slice(git + 1);
    const sub = rest.findIndex((w, i) => !w.startsWith('-') && !/^-[cC]$/.test(rest[i - 1] ?? ''));
    const noVerify =
      git >= 0 &&
      rest[sub] === 'commit' &&
      rest.slice(sub).some((w) => w === '--no-verify' || /^-[a-zA-Z]*n[a-zA-Z]*$/.test(w));
    return noVerify || words.some((w) => APPROVING_WORD.test(w)) || REMOVING.test(words.join(' '));
  });
}
