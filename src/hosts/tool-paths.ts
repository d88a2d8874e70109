// The files a tool call changes, read from its input, for every host's edit tools.
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { HostHookTool } from './host-hook-event.js';
import { toolNames } from '../events/tool-names.js';
import { patchPaths } from './patch-text.js';
import { shellWrites, writtenPaths, type PathWrite } from './shell-paths.js';

function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(' ');
  return null;
}

/** A shell tool's command line, or null for any other tool. */
export function shellCommand(tool: HostHookTool): string | null {
  return toolNames(tool.name).includes('bash') ? text(tool.input.command) : null;
}

/** An apply_patch tool's patch body, or null for any other tool. */
export function patchBody(tool: HostHookTool): string | null {
  const input = tool.input;
  if (!toolNames(tool.name).includes('apply_patch')) return null;
  return text(input.command) ?? text(input.patch) ?? text(input.patchText) ?? text(input.input);
}

/**
 * What a tool call changes (see PathWrite), relative to the session's directory or absolute (a
 * shell's working directory is joined in); [] when nothing can be read.
 */
export function toolWrites(tool: HostHookTool): PathWrite[] {
  const input = tool.input;
  const names = toolNames(tool.name);
  const one = (key: string) => (typeof input[key] === 'string' ? [input[key] as string] : []);
  const command = shellCommand(tool);
  if (command !== null) {
    // The shell's own working directory: Gemini CLI's dir_path, OpenCode's and Codex's workdir.
    const dir = [input.workdir, input.dir_path].find((d) => typeof d === 'string' && d !== '');
    return shellWrites(command).map((w) =>
      typeof dir === 'string' && !isAbsolute(w.path) ? { ...w, path: join(dir, w.path) } : w,
    );
  }
  const body = patchBody(tool);
  let paths: string[] = [];
  if (body !== null) paths = patchPaths(body);
  else if (names.includes('notebookedit')) paths = one('notebook_path');
  else if (names.includes('edit') || names.includes('write'))
    paths = [...one('file_path'), ...one('filePath'), ...one('path')].slice(0, 1);
  return paths.map((path) => ({ path, how: 'write' }));
}

/** The files a tool call writes (writtenPaths of toolWrites). */
export const toolWrittenPaths = (tool: HostHookTool): string[] => writtenPaths(toolWrites(tool));

/** A path as the repository sees it: POSIX, relative to the root; null when outside the root. */
export function repoRelative(root: string, cwd: string, path: string): string | null {
  const absolute = isAbsolute(path) ? path : resolve(cwd, path);
  const rel = relative(root, absolute);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
  return rel.split(sep).join('/');
}
