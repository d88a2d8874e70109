// Which files a shell command writes, when that can be read from the command line alone:
// redirections, tee, and the usual file commands (rm, mv, cp, touch, mkdir, sed -i, ...), each
// resolved against the directory a `cd` / `pushd` earlier on the line moved to.
// Deliberately conservative: a word with a substitution or a glob is not a path we can name.
import { isAbsolute, join } from 'node:path';

// Operators (redirections) are marked so that a quoted ">" stays a plain word.
const OP = '\u0000';

/** One simple command and the operator that ended it (`;`, `&&`, `|`, `(`, `)`, ... or ''). */
interface Segment {
  words: string[];
  end: string;
}

/** Splits a command line into simple commands of words (quotes removed; operators split). */
export function shellWords(command: string): string[][] {
  return tokenize(command)
    .filter((s) => s.words.length > 0)
    .map((s) => s.words.map((w) => w.replace(OP, '')));
}

function tokenize(command: string): Segment[] {
  const segments: Segment[] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  const endWord = () => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = (end: string) => {
    endWord();
    segments.push({ words, end });
    words = [];
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < command.length) word += command[++i];
      else word += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (c === ';' || c === '\n' || c === '|' || c === '&' || c === '(' || c === ')') {
      // `&>` and `>&` are redirections, not separators.
      if (c === '&' && command[i + 1] === '>') {
        endWord();
        words.push(`${OP}&>`);
        i++;
        continue;
      }
      const double = (c === '&' || c === '|') && command[i + 1] === c;
      if (double) i++;
      endCommand(double ? c + c : c);
    } else if (c === '>' || c === '<') {
      endWord();
      let op = c;
      while (command[i + 1] === '>' || command[i + 1] === '|' || command[i + 1] === '&')
        op += command[++i];
      words.push(OP + op);
    } else if (c === ' ' || c === '\t') {
      endWord();
    } else {
      word += c;
      inWord = true;
    }
  }
  endCommand('');
  return segments;
}

const NOT_A_PATH = /[$`*?[\]{}]|^~|^\/dev\//;

function literal(word: string | undefined): string | null {
  if (word === undefined || word === '' || NOT_A_PATH.test(word) || /^\d+$/.test(word)) return null;
  return word;
}

function operands(args: readonly string[]): string[] {
  const out: string[] = [];
  let afterDashDash = false;
  for (const arg of args) {
    if (!afterDashDash && arg === '--') afterDashDash = true;
    else if (afterDashDash || !arg.startsWith('-')) out.push(arg);
  }
  return out;
}

// Commands whose every operand is written (created, changed or removed).
const ALL_OPERANDS = new Set([
  'rm',
  'rmdir',
  'touch',
  'mkdir',
  'truncate',
  'shred',
  'unlink',
  'mv',
]);
// Commands whose last operand is written.
const LAST_OPERAND = new Set(['cp', 'ln', 'install', 'rsync']);

function writtenBy(words: readonly string[]): string[] {
  const args = [...words];
  // Skip leading VAR=value assignments and wrappers that run the rest as a command.
  while (args.length && /^\w+=/.test(args[0]!)) args.shift();
  while (args.length && ['sudo', 'command', 'env', 'nohup', 'time', 'exec'].includes(args[0]!))
    args.shift();
  const [name, ...rest] = args;
  if (!name) return [];
  const base = name.split('/').pop()!;
  if (ALL_OPERANDS.has(base)) return operands(rest);
  if (LAST_OPERAND.has(base)) return operands(rest).slice(-1);
  if (base === 'tee') return operands(rest);
  if (base === 'git' && (rest[0] === 'rm' || rest[0] === 'mv')) return operands(rest.slice(1));
  if (
    (base === 'sed' || base === 'perl') &&
    rest.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))
  ) {
    // The script is the first operand unless -e/-f gave it.
    const ops = operands(rest.filter((a, i) => rest[i - 1] !== '-e' && rest[i - 1] !== '-f'));
    return rest.includes('-e') || rest.includes('-f') ? ops : ops.slice(1);
  }
  if (base === 'dd') return rest.filter((a) => a.startsWith('of=')).map((a) => a.slice(3));
  return [];
}

/** The command line without here-document bodies (their lines are data, not commands). */
export function stripHeredocs(command: string): string {
  const lines = command.split('\n');
  const out: string[] = [];
  const pending: string[] = [];
  for (const line of lines) {
    if (pending.length) {
      if (line.replace(/^\t+/, '') === pending[0]) pending.shift();
      continue;
    }
    out.push(line);
    for (const m of line.matchAll(/<<-?\s*(['"]?)([\w.-]+)\1/g)) pending.push(m[2]!);
  }
  return out.join('\n');
}

// The directory a `cd` / `pushd` moves to, relative to the line's start ('' = unchanged), or
// null when it cannot be read (`cd`, `cd -`, `cd "$DIR"`, `popd`).
function cdTarget(words: readonly string[], from: string | null): string | null | undefined {
  const [name, ...rest] = words;
  if (name === 'popd') return null;
  if (name !== 'cd' && name !== 'pushd') return undefined;
  const target = operands(rest.filter((a) => !/^-[LPe@]+$/.test(a)))[0];
  const dir = literal(target);
  if (dir === null || target === '-') return null;
  if (isAbsolute(dir)) return dir;
  return from === null ? null : join(from, dir);
}

/**
 * The files a shell command writes, as written on the command line (relative or absolute) and
 * joined onto the directory an earlier `cd` moved to, in order, without duplicates. Paths
 * behind substitutions, globs or `~`, and relative paths after a `cd` that cannot be followed,
 * are not reported.
 */
export function shellWrittenPaths(command: string): string[] {
  const found: string[] = [];
  let dir: string | null = '';
  const outer: (string | null)[] = [];
  let previousEnd = '';
  for (const { words, end } of tokenize(stripHeredocs(command))) {
    const plain: string[] = [];
    const written: string[] = [];
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (!w.startsWith(OP)) {
        plain.push(w);
        continue;
      }
      const op = w.slice(1);
      // `2>`: the fd number was a word just before the operator.
      if (/^\d+$/.test(plain[plain.length - 1] ?? '') && /^[>]/.test(op)) plain.pop();
      if (/^(?:>{1,2}\|?|&>|>&)$/.test(op)) written.push(words[++i] ?? '');
      else if (op.startsWith('<')) i++;
    }
    written.push(...writtenBy(plain));
    for (const path of written.map(literal)) {
      if (path === null) continue;
      if (isAbsolute(path) || dir === '') found.push(path);
      else if (dir !== null) found.push(join(dir, path));
    }
    // A cd in a pipeline or in the background runs in a subshell: it moves nothing after it.
    const moved = cdTarget(plain, dir);
    if (moved !== undefined && end !== '|' && end !== '&' && previousEnd !== '|') dir = moved;
    if (end === '(') outer.push(dir);
    if (end === ')' && outer.length) dir = outer.pop()!;
    previousEnd = end;
  }
  return [...new Set(found)];
}
