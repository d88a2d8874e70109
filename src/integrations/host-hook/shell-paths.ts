// Which files a shell command writes, when that can be read from the command line alone:
// redirections, tee, and the usual file commands (rm, mv, cp, touch, mkdir, sed -i, ...).
// Deliberately conservative: a word with a substitution or a glob is not a path we can name.

// Operators (redirections) are marked so that a quoted ">" stays a plain word.
const OP = '\u0000';

/** Splits a command line into simple commands of words (quotes removed; operators split). */
export function shellWords(command: string): string[][] {
  return tokenize(command).map((words) => words.map((w) => w.replace(OP, '')));
}

function tokenize(command: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  const endWord = () => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length) commands.push(words);
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
      endCommand();
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
  endCommand();
  return commands;
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

/**
 * The files a shell command writes, as written on the command line (relative or absolute), in
 * order, without duplicates. Paths behind substitutions, globs or `~` are not reported.
 */
export function shellWrittenPaths(command: string): string[] {
  const found: string[] = [];
  for (const words of tokenize(stripHeredocs(command))) {
    const plain: string[] = [];
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (!w.startsWith(OP)) {
        plain.push(w);
        continue;
      }
      const op = w.slice(1);
      // `2>`: the fd number was a word just before the operator.
      if (/^\d+$/.test(plain[plain.length - 1] ?? '') && /^[>]/.test(op)) plain.pop();
      if (/^(?:>{1,2}\|?|&>|>&)$/.test(op)) found.push(words[++i] ?? '');
      else if (op.startsWith('<')) i++;
    }
    found.push(...writtenBy(plain));
  }
  const paths = found.map(literal).filter((p): p is string => p !== null);
  return [...new Set(paths)];
}
