// Where output goes: text or one JSON document on stdout, warnings and errors on stderr, colors
// only on a TTY (styles from the caller: chalk, or plain ANSI on the lean route). Everything passes
// safeText / safeJson: no secret or control character of the state reaches the terminal.
import { safeJson, safeText } from '../text/safe-text.js';
import { fdStream, type OutStream } from './fd-stream.js';
import { describeError, errorDocument, errorText, type ExitCode } from '../error-report.js';

// Each style's ANSI open and close codes (the ones chalk writes).
const CODES = {
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
  bold: [1, 22],
  dim: [2, 22],
} as const;

/** The styles commands use; a chalk instance is one. */
export type Style = { readonly level: 0 | 1 | 2 | 3 } & Record<
  keyof typeof CODES,
  (text: string) => string
>;

// stdin and cwd default to the process's, read only when needed: process.stdin costs a lean
// call time, and process.cwd() throws in a deleted directory (where an absolute --cwd works).
/** What one CLI call talks to: its streams, environment and start directory. */
export interface CliIo {
  readonly stdin?: AsyncIterable<string | Buffer> & { readonly isTTY?: boolean };
  readonly stdout: OutStream;
  readonly stderr: OutStream;
  /** --agent sets AGENT_STATE_AGENT here, for the library and every child the call starts. */
  readonly env: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

/** This process's I/O. */
export function processIo(): CliIo {
  return { stdout: fdStream(1), stderr: fdStream(2), env: process.env };
}

export interface OutputOptions {
  json: boolean;
  quiet: boolean;
  /** false when --no-color was given. */
  color: boolean;
  io: CliIo;
  /** Styles for a color level (default: ansiStyle). */
  style?: (level: 0 | 1 | 2 | 3) => Style;
}

export interface Output {
  readonly json: boolean;
  readonly quiet: boolean;
  /** Styles for stdout text (no-ops without color). */
  readonly style: Style;
  /** Styles for stderr text. */
  readonly errStyle: Style;
  /** Human output (suppressed by --json and --quiet). */
  print(text: string): void;
  /** The --json document. */
  printJson(value: unknown): void;
  /** A warning on stderr (suppressed by --json and --quiet). */
  warn(text: string): void;
  /** An error line on stderr (never suppressed). */
  error(text: string): void;
}

/** The color level for a stream: 0 none, 1 basic, 2 256 colors, 3 truecolor. */
export function colorLevel(
  color: boolean,
  env: NodeJS.ProcessEnv,
  stream: { isTTY?: boolean },
): 0 | 1 | 2 | 3 {
  if (!color || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')) return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') {
    if (force === '0' || force === 'false') return 0;
    const level = Number(force);
    return level >= 1 && level <= 3 ? (level as 1 | 2 | 3) : 1;
  }
  if (stream.isTTY !== true || env.TERM === 'dumb') return 0;
  return env.COLORTERM === 'truecolor' ? 3 : 2;
}

/** Styles as plain ANSI escapes (the codes chalk writes), or none at level 0. */
export function ansiStyle(level: 0 | 1 | 2 | 3): Style {
  const styles = Object.entries(CODES).map(([name, [open, close]]) => [
    name,
    (text: string) => (level > 0 ? `\u001b[${open}m${text}\u001b[${close}m` : text),
  ]);
  return { level, ...Object.fromEntries(styles) } as Style;
}

/** Creates the output channel of one CLI run. */
export function createOutput(options: OutputOptions): Output {
  const styleFor = options.style ?? ansiStyle;
  const { env, stdout, stderr } = options.io;
  const style = styleFor(colorLevel(options.color, env, stdout));
  const errStyle = styleFor(colorLevel(options.color, env, stderr));
  const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);
  const out = (text: string) => safeText(line(text), { ownColors: style.level > 0 });
  const err = (text: string) => safeText(line(text), { ownColors: errStyle.level > 0 });
  return {
    json: options.json,
    quiet: options.quiet,
    style,
    errStyle,
    print(text) {
      if (!options.json && !options.quiet && text !== '') stdout.write(out(text));
    },
    printJson(value) {
      stdout.write(`${safeJson(value, 2)}\n`);
    },
    warn(text) {
      if (!options.json && !options.quiet) stderr.write(err(errStyle.yellow(`warning: ${text}`)));
    },
    error(text) {
      stderr.write(err(errStyle.red(text)));
    },
  };
}

/** Reports `error` through `out` (one line on stderr, the error document with --json); returns its exit code. */
export function reportError(out: Output, error: unknown, io: CliIo): ExitCode {
  const report = describeError(error);
  out.error(`agent-state: ${errorText(report)}`);
  if (out.json) out.printJson(errorDocument(report));
  if (report.stack && io.env.AGENT_STATE_DEBUG) io.stderr.write(`${report.stack}\n`);
  return report.exit;
}
