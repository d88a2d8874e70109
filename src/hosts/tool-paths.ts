// The files a tool call changes, read from its input, for every host's edit tools.
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { HostHookTool } from './host-hook-event.js';
import { toolNames } from '../events/tool-names.js';
import { shellWrittenPaths } from './shell-paths.js';

/** The files an apply_patch / patch body adds, updates, deletes or moves to. */
export function patchPaths(patch: string): string[] {
  const paths: string[] = [];
  for (const m of patch.matchAll(
    /^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm,
  ))
    paths.push((m[1] ?? m[2]!).trim());
  return paths;
}

function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(' ');
  return null;
}

/** Whether a tool changes files (the ones PreToolUse checks). */
export function isEditTool(name: string): boolean {
  return toolNames(name).some((n) =>
    ['edit', 'write', 'apply_patch', 'patch', 'notebookedit', 'bash'].includes(n),
  );
}

/**
 * The paths a tool call writes, relative to the session's directory or absolute (a shell's
 * working directory is joined in); [] when none can be read.
 */
export function toolWrittenPaths(tool: HostHookTool): string[] {
  const input = tool.input;
  const names = toolNames(tool.name);
  const one = (key: string) => (typeof input[key] === 'string' ? [input[key] as string] : []);
  if (names.includes('bash')) {
    const command = text(input.command);
    if (command === null) return [];
    // The shell's own working directory: Gemini CLI's dir_path, OpenCode's and Codex's workdir.
    const dir = [input.workdir, input.dir_path].find((d) => typeof d === 'string' && d !== '');
    return shellWrittenPaths(command).map((p) =>
      typeof dir === 'string' && !isAbsolute(p) ? join(dir, p) : p,
    );
  }
  if (names.includes('apply_patch')) {
    const body =
      text(input.command) ?? text(input.patch) ?? text(input.patchText) ?? text(input.input);
    return body === null ? [] : patchPaths(body);
  }
  if (names.includes('notebookedit')) return one('notebook_path');
  if (names.includes('edit') || names.includes('write'))
    return [...one('file_path'), ...one('filePath'), ...one('path')].slice(0, 1);
  return [];
}

/** A path as the repository sees it: POSIX, relative to the root; null when outside the root. */
export function repoRelative(root: string, cwd: string, path: string): string | null {
  const absolute = isAbsolute(path) ? path : resolve(cwd, path);
  const rel = relative(root, absolute);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
  return rel.split(sep).join('/');
}
