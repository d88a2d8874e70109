// The one list of commands, in --help order: the router, the lean route, the code cache and the
// commander program derive from it. Imports nothing: start.ts reads it early.

/** `lean`: runs without commander or chalk (lean.ts). */
export const COMMANDS = {
  init: {},
  status: { lean: true },
  goal: {},
  next: {},
  plan: {},
  import: {},
  validate: {},
  hooks: {},
  hook: { lean: true },
  watch: {},
  integrate: {},
  statusline: { lean: true },
  mcp: {},
  doctor: {},
  event: { lean: true },
  events: {},
  fingerprint: {},
  done: {},
  check: {},
  undone: {},
  evidence: {},
  verify: {},
  checkpoint: {},
  boot: { lean: true },
  remind: {},
  memory: {},
  current: {},
  'merge-driver': {},
  ui: {},
  report: {},
} as const satisfies Record<string, { lean?: true }>;

export type CommandWord = keyof typeof COMMANDS;
/** The commands of the lean route. */
export type LeanWord = {
  [W in CommandWord]: (typeof COMMANDS)[W] extends { lean: true } ? W : never;
}[CommandWord];

/** `word` as a command word, or undefined (a typo, an option's value). */
export function commandWord(word: string | undefined): CommandWord | undefined {
  return word !== undefined && Object.hasOwn(COMMANDS, word) ? (word as CommandWord) : undefined;
}

/** Whether `word` is a command of the lean route. */
export function isLean(word: CommandWord | undefined): word is LeanWord {
  return word !== undefined && 'lean' in COMMANDS[word];
}
