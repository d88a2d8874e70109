// Finding the command word of an argv before any option parser is loaded (entry.ts routes on it).

/** The first argument that is not a global option (or its value), and whether help was asked. */
export function commandOf(argv: readonly string[]): { command: string | null; help: boolean } {
  let command: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') return { command, help: true };
    if (command !== null) continue;
    if (arg === '-C' || arg === '--cwd') i++;
    else if (!arg.startsWith('-')) command = arg;
  }
  return { command, help: false };
}
