// Which calls take the lean hook bundle: exactly `hook <host>` and `statusline`, as the installed
// hooks and the status line run them (anything else, --help included, goes to the full program).
const HOSTS = ['claude', 'codex', 'gemini', 'opencode'];

/** Whether argv (without node and script) is a host hook or status line call. */
export function isHostHookCall(argv: readonly string[]): boolean {
  if (argv[0] === 'hook') return argv.length === 2 && HOSTS.includes(argv[1]!);
  return argv[0] === 'statusline' && argv.length === 1;
}
