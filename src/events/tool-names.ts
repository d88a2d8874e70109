// The host-neutral names of a tool, so that `denied_tools: [Bash]` also denies Gemini's
// run_shell_command, and a `tool.started` fact of any host's shell reads as a shell.

/** Families of tools across hosts; a denied or allowed tool name matches its whole family. */
const TOOL_FAMILIES: Record<string, string[]> = {
  bash: ['bash', 'shell', 'run_shell_command'],
  run_shell_command: ['bash', 'shell', 'run_shell_command'],
  edit: ['edit'],
  multiedit: ['multiedit', 'edit'],
  replace: ['replace', 'edit'],
  write: ['write'],
  write_file: ['write_file', 'write'],
  notebookedit: ['notebookedit', 'edit'],
  apply_patch: ['apply_patch', 'patch', 'edit', 'write'],
  patch: ['patch', 'apply_patch', 'edit', 'write'],
};

/** Lower-case names a tool answers to (its own, and its family's across hosts). */
export function toolNames(name: string): string[] {
  const lower = name.toLowerCase();
  const family = Object.hasOwn(TOOL_FAMILIES, lower) ? TOOL_FAMILIES[lower]! : [];
  return [...new Set([lower, ...family])];
}
