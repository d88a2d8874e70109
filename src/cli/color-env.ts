// One reading of the color variables for this process and its children (docs/cli.md): an empty
// variable is unset and a non-empty NO_COLOR wins. Node reads them otherwise, and from Node 22
// warns in any process that sees both NO_COLOR and FORCE_COLOR, so the losing one is removed.

/** Removes from `env` the color variables that agent-state's rule ignores. */
export function settleColorEnv(env: NodeJS.ProcessEnv): void {
  if (env.NO_COLOR === '') delete env.NO_COLOR;
  if (env.FORCE_COLOR === '') delete env.FORCE_COLOR;
  if (env.FORCE_COLOR === undefined) return;
  // A non-empty NO_COLOR turns colors off: FORCE_COLOR lost.
  if (env.NO_COLOR !== undefined) delete env.FORCE_COLOR;
  // FORCE_COLOR won over NODE_DISABLE_COLORS, which only Node reads: drop it so Node agrees.
  else delete env.NODE_DISABLE_COLORS;
}
