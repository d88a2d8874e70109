// Where command output goes: human text or one JSON document on stdout, warnings and errors on
// stderr, colors only on a TTY (NO_COLOR, FORCE_COLOR and --no-color honoured). Everything passes
// safeText / safeJson on the way out: no secret and no control character of the state reaches
// the terminal (or the agent reading it).
import { Chalk, type ChalkInstance } from 'chalk';
import { safeJson, safeText } from '../text/safe-text.js';

export interface OutputOptions {
  json: boolean;
  quiet: boolean;
  /** false when --no-color was given. */
  color: boolean;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

export interface Output {
  readonly json: boolean;
  readonly quiet: boolean;
  /** Styles for stdout text (no-ops without color). */
  readonly style: ChalkInstance;
  /** Human output (suppressed by --json and --quiet). */
  print(text: string): void;
  /** The --json document. */
  printJson(value: unknown): void;
  /** A warning on stderr (suppressed by --json and --quiet). */
  warn(text: string): void;
  /** An error line on stderr (never suppressed). */
  error(text: string): void;
}

function colorLevel(options: OutputOptions, stream: NodeJS.WriteStream): 0 | 1 | 2 | 3 {
  const { env } = options;
  if (!options.color || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')) return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') {
    if (force === '0' || force === 'false') return 0;
    const level = Number(force);
    return level >= 1 && level <= 3 ? (level as 1 | 2 | 3) : 1;
  }
  if (!stream.isTTY || env.TERM === 'dumb') return 0;
  return env.COLORTERM === 'truecolor' ? 3 : 2;
}

/** Creates the output channel of one CLI run. */
export function createOutput(options: OutputOptions): Output {
  const style = new Chalk({ level: colorLevel(options, options.stdout) });
  const errStyle = new Chalk({ level: colorLevel(options, options.stderr) });
  const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);
  const out = (text: string) => safeText(line(text), { ownColors: style.level > 0 });
  const err = (text: string) => safeText(line(text), { ownColors: errStyle.level > 0 });
  return {
    json: options.json,
    quiet: options.quiet,
    style,
    print(text) {
      if (!options.json && !options.quiet && text !== '') options.stdout.write(out(text));
    },
    printJson(value) {
      options.stdout.write(`${safeJson(value, 2)}\n`);
    },
    warn(text) {
      if (!options.json && !options.quiet)
        options.stderr.write(err(errStyle.yellow(`warning: ${text}`)));
    },
    error(text) {
      options.stderr.write(err(errStyle.red(text)));
    },
  };
}
