// A shell command line as words: quotes and backslashes removed, operators split off and marked,
// simple commands split at `;`, `&&`, `|`, newlines, parentheses and backquotes.

// Operators (redirections) are marked so that a quoted ">" stays a plain word.
export const OP = '\u0000';

/** One simple command and the operator that ended it (`;`, `&&`, `|`, `(`, `)`, ... or ''). */
export interface Segment {
  words: string[];
  end: string;
}

/** Splits a command line into simple commands of words (quotes removed; operators split). */
export function shellWords(command: string): string[][] {
  return tokenize(command)
    .filter((s) => s.words.length > 0)
    .map((s) => s.words.map((w) => w.replace(OP, '')));
}

/** The simple commands of a command line, operators kept as words marked with OP. */
export function tokenize(command: string): Segment[] {
  const segments: Segment[] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  let tick = false;
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
    } else if (c === '>' || c === '<' || (c === '&' && command[i + 1] === '>')) {
      // `&>` and `>&` are redirections, not separators.
      endWord();
      let op = c;
      while ('<>|&'.includes(command[i + 1] ?? ' ')) op += command[++i];
      words.push(OP + op);
    } else if (';\n|&()`'.includes(c)) {
      const double = (c === '&' || c === '|') && command[i + 1] === c;
      if (double) i++;
      // A backquoted command is a subshell, like `$(...)`.
      if (c === '`') tick = !tick;
      endCommand(double ? c + c : c === '`' ? (tick ? '(' : ')') : c);
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
