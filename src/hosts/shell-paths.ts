// Which files a shell command writes, as far as the command line tells: redirections, the usual
// file commands (COMMANDS), through wrappers, nested shells and here-documents, after any `cd`.
// A command it does not know is reported by the paths it names, so a guard can treat them as
// written. A word with a substitution or `~` is no path.
import { isAbsolute, join } from 'node:path';
import { GLOB_CHARS } from '../state/forbidden.js';
import { patchPaths } from './patch-text.js';
import { OP, tokenize } from './shell-words.js';

/**
 * How a command changes a path: `write` the path itself; `tree` the path and all below it (a
 * recursive delete or move); `into` a copy's destination (a tree, unless it is an existing
 * directory); `inside` the copy's path in that directory (counts only when it is one); `named`
 * a path named by a command whose effect is unknown.
 */
export type WriteHow = 'write' | 'tree' | 'into' | 'inside' | 'named';

/** One path a command changes, as written (relative to its directory, or absolute). */
export interface PathWrite {
  path: string;
  how: WriteHow;
}

const NOT_A_PATH = /[$`]|^~|^\/dev\//;

function literal(word: string | undefined): string | null {
  if (word === undefined || word === '' || NOT_A_PATH.test(word) || /^\d+$/.test(word)) return null;
  return word;
}

// The words that are not options: every word after the first `--`, and before it those without a `-`.
function operands(args: readonly string[]): string[] {
  const end = args.indexOf('--');
  const before = (end < 0 ? args : args.slice(0, end)).filter((a) => !a.startsWith('-'));
  return end < 0 ? before : [...before, ...args.slice(end + 1)];
}

const list = (words: string) => new Set(words.split(' '));

// Commands that change nothing but through a redirection (their operands are read).
const READERS = list(
  'cat tac head tail less more grep egrep fgrep rg ag ack ls tree wc diff cmp comm stat file du df nl od xxd hexdump strings cut tr jq echo printf true false test [ pwd realpath readlink basename dirname which type whereis date printenv id whoami uname sha1sum sha256sum sha512sum md5sum cksum b2sum column fold fmt paste expand rev seq sleep wait exit cd pushd popd agent-state',
);
// git subcommands that leave the work tree as it is.
const GIT_READERS = list(
  'status diff log show blame grep ls-files ls-tree rev-parse cat-file describe shortlog add commit fetch push branch tag remote config help version reflog',
);
// Wrappers that run the rest of the line as a command: their options taking a value, and how
// many operands come before the command.
const WRAPPERS: Record<string, [string, number]> = {
  env: ['-u -C -S --unset --chdir --split-string', 0],
  nice: ['-n --adjustment', 0],
  timeout: ['-s -k --signal --kill-after', 1],
  sudo: ['-u -g -C -D -h -p -r -t -U --user --group --chdir', 0],
  doas: ['-u -C', 0],
  stdbuf: ['-i -o -e', 0],
  ionice: ['-c -n -p', 0],
  time: ['-f -o --format --output', 0],
  xargs: ['-a -d -E -I -L -n -P -s', 0],
  exec: ['-a', 0],
  npx: ['-p --package', 0],
  flock: ['-w -E', 1],
  chrt: ['', 1],
  taskset: ['', 1],
  command: ['', 0],
  builtin: ['', 0],
  nohup: ['', 0],
  setsid: ['', 0],
  busybox: ['', 0],
  watch: ['-n -d', 0],
};

// The words a wrapper takes before its command (checked as named paths), and the command.
function unwrap(words: readonly string[]): { skipped: string[]; command: string[] } {
  const skipped: string[] = [];
  let i = 0;
  for (;;) {
    while (i < words.length && /^\w+=/.test(words[i]!)) i++;
    const name = (words[i] ?? '').split('/').pop()!;
    // Own keys only: a command named `toString` is no wrapper (nor a crash that refuses the call).
    const spec = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
    if (!spec) return { skipped, command: words.slice(i) };
    const valued = spec[0].split(' ');
    for (i++; i < words.length && words[i]!.startsWith('-') && words[i] !== '--'; i++)
      if (valued.includes(words[i]!)) skipped.push(words[++i] ?? '');
    if (words[i] === '--') i++;
    skipped.push(...words.slice(i, i + spec[1]));
    i += spec[1];
  }
}

// Every path-like token of a word (`--out=a/b`, `open('a/b')`, `HEAD:a/b`, `a/b:12`).
function namedIn(texts: readonly string[]): PathWrite[] {
  const tokens = new Set(texts.flatMap((t) => t.split(/[\s'"`()[\]{},;:=<>|&]+/)));
  return [...tokens]
    .filter((t) => t !== '' && !t.startsWith('-') && literal(t) !== null)
    .map((path) => ({ path, how: 'named' as const }));
}

const each = (paths: readonly string[], how: WriteHow): PathWrite[] =>
  paths.map((path) => ({ path, how }));

// cp, mv, ln, install, rsync: the destination (or -t DIR) and each source's path inside it;
// the whole destination when what lands there is a tree's content (`-T`, `dir/.`, rsync).
function copyWrites(
  rest: readonly string[],
  sourcesHow: WriteHow | null,
  contents = false,
): PathWrite[] {
  const t = rest.indexOf('-t');
  const attached = rest.find((a) => /^(-t.|--target-directory=)/.test(a));
  const dir = t >= 0 ? rest[t + 1] : attached?.replace(/^(-t|--target-directory=)/, '');
  const ops = operands(rest.filter((_, i) => t < 0 || i !== t + 1));
  const sources = dir === undefined ? ops.slice(0, -1) : ops;
  if (sources.length === 0) return each(ops, 'tree');
  const dest = dir ?? ops[ops.length - 1]!;
  const from = sourcesHow ? each(sources, sourcesHow) : [];
  if (
    contents ||
    rest.some((a) => /^-[a-zA-Z]*T|^--no-target-directory$/.test(a)) ||
    sources.some((s) => /(^|\/)\.\/?$/.test(s))
  )
    return [...from, { path: dest, how: 'tree' }];
  const inside = sources.map((s) => join(dest, s.replace(/\/+$/, '').split('/').pop()!));
  const into: PathWrite[] =
    dir === undefined
      ? [{ path: dest, how: 'into' }, ...each(inside, 'inside')]
      : each(inside, 'tree');
  return [...from, ...into];
}

// sed, awk, perl -i: the script is the first operand unless -e/-f gave it, and it may write
// (`w file`); with -i the files are written.
function scriptWrites(rest: readonly string[]): PathWrite[] {
  const given = rest.filter((_, i) => /^-[ef]$/.test(rest[i - 1] ?? ''));
  const ops = operands(rest.filter((_, i) => !/^-[ef]$/.test(rest[i - 1] ?? '')));
  const files = given.length > 0 ? ops : ops.slice(1);
  const named = namedIn(given.length > 0 ? given : ops.slice(0, 1));
  return rest.some(inPlace) ? [...named, ...each(files, 'write')] : named;
}

const inPlace = (a: string) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place');

// find: its start points are trees when it deletes, or runs a command that is not a reader.
function findWrites(rest: readonly string[]): PathWrite[] {
  const first = rest.findIndex((a) => /^[-(!]/.test(a));
  const starts = first < 0 ? [...rest] : rest.slice(0, first);
  const exec = rest.findIndex((a) => /^-(exec|execdir|ok|okdir)$/.test(a));
  const runs = exec >= 0 && !READERS.has(rest[exec + 1] ?? '');
  const out: PathWrite[] = [];
  rest.forEach((a, i) => {
    if (/^-f(print0?|printf|ls)$/.test(a)) out.push({ path: rest[i + 1] ?? '', how: 'write' });
  });
  if (rest.includes('-delete') || runs) out.push(...each(starts.length ? starts : ['.'], 'tree'));
  return out;
}

function gitWrites(rest: readonly string[], inputs: readonly string[]): PathWrite[] {
  const at = rest.findIndex((a, i) => !a.startsWith('-') && !/^-[cC]$/.test(rest[i - 1] ?? ''));
  const sub = rest[at] ?? '';
  const args = rest.slice(at + 1);
  if (sub === 'rm') return each(operands(args), 'tree');
  if (sub === 'mv') return copyWrites(args, 'tree');
  if (sub === 'clean')
    return args.some((a) => a === '--dry-run' || /^-[a-z]*n/.test(a))
      ? []
      : each(operands(args).length ? operands(args) : ['.'], 'tree');
  if (GIT_READERS.has(sub)) return [];
  return namedIn([...args, ...inputs]);
}

// How deep shells nest in each other (`sh -c`, `eval`, `$(...)`) before their scripts are only
// read for the paths they name: each level reads the whole script again.
const MAX_NESTING = 8;
let nesting = 0;

function nestedWrites(scripts: readonly string[]): PathWrite[] {
  if (nesting >= MAX_NESTING) return namedIn(scripts);
  nesting++;
  try {
    return scripts.flatMap((s) => shellWrites(s));
  } finally {
    nesting--;
  }
}

type Rule = (rest: readonly string[], inputs: readonly string[]) => PathWrite[];
const unknown: Rule = (rest, inputs) => namedIn([...rest, ...inputs]);
// What each known command changes, by base name (a Map: `constructor` is no command).
const COMMANDS = new Map<string, Rule>();
for (const [names, rule] of Object.entries<Rule>({
  'sh bash zsh dash ksh fish su': (r, i) => {
    const c = r.findIndex((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a));
    if (c >= 0) return nestedWrites([r.slice(c + 1).find((a) => !a.startsWith('-')) ?? '']);
    return operands(r)[0] === undefined ? nestedWrites(i) : namedIn(r);
  },
  eval: (r) => nestedWrites([r.join(' ')]),
  'rm shred unlink': (r) => each(operands(r), 'tree'),
  'rmdir touch mkdir truncate tee': (r) => each(operands(r), 'write'),
  mv: (r) => copyWrites(r, 'tree'),
  ln: (r) => copyWrites(r, r.some((a) => /^-\w*s/.test(a)) ? null : 'write'),
  install: (r) => (r.includes('-d') ? each(operands(r), 'write') : copyWrites(r, null)),
  cp: (r) => copyWrites(r, null),
  rsync: (r) => copyWrites(r, null, true),
  dd: (r) => r.flatMap((a) => (a.startsWith('of=') ? each([a.slice(3)], 'write') : [])),
  find: findWrites,
  git: gitWrites,
  'apply_patch applypatch': (r, i) => each([...i, ...r].flatMap(patchPaths), 'write'),
  'sed awk gawk': scriptWrites,
  perl: (r, i) => (r.some(inPlace) ? scriptWrites(r) : unknown(r, i)),
}))
  for (const name of names.split(' ')) COMMANDS.set(name, rule);

/**
 * What one simple command changes: `words` without its redirections, `inputs` the text it reads
 * on stdin from a here-document or here-string.
 */
function commandWrites(words: readonly string[], inputs: readonly string[]): PathWrite[] {
  const { skipped, command } = unwrap(words);
  const [name, ...rest] = command;
  if (!name) return namedIn(skipped);
  const base = name.split('/').pop()!;
  const rule = COMMANDS.get(base) ?? (READERS.has(base) ? null : unknown);
  return [...namedIn(skipped), ...(rule?.(rest, inputs) ?? [])];
}

// The command line without here-document bodies, and each body by its delimiter, in order.
function splitHeredocs(command: string): { command: string; bodies: Map<string, string[]> } {
  const out: string[] = [];
  const pending: string[] = [];
  let next = 0;
  const bodies = new Map<string, string[]>();
  let body: string[] = [];
  for (const line of command.split('\n')) {
    if (next < pending.length) {
      if (line.replace(/^\t+/, '') !== pending[next]) body.push(line);
      else {
        const delimiter = pending[next++]!;
        bodies.set(delimiter, [...(bodies.get(delimiter) ?? []), body.join('\n')]);
        body = [];
      }
      continue;
    }
    out.push(line);
    for (const m of line.matchAll(/<<-?\s*(['"]?)([\w.-]+)\1/g)) pending.push(m[2]!);
  }
  // Taken from the end, in order.
  for (const list of bodies.values()) list.reverse();
  return { command: out.join('\n'), bodies };
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

// Command substitutions inside a (double-quoted) word: `$(...)` and backticks.
function substitutions(word: string): string[] {
  return [...word.matchAll(/\$\(((?:[^()]|\([^()]*\))*)\)|`([^`]*)`/g)].map((m) => m[1] ?? m[2]!);
}

/**
 * What a shell command changes, as written on the command line (relative or absolute) and
 * joined onto the directory an earlier `cd` moved to, in order, without duplicates. Relative
 * paths after a `cd` that cannot be followed are not reported.
 */
export function shellWrites(command: string): PathWrite[] {
  const found = new Map<string, PathWrite>();
  let dir: string | null = '';
  const outer: (string | null)[] = [];
  let previousEnd = '';
  const { command: lines, bodies } = splitHeredocs(command);
  for (const { words, end } of tokenize(lines)) {
    const plain: string[] = [];
    const inputs: string[] = [];
    const written: PathWrite[] = [];
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (!w.startsWith(OP)) {
        plain.push(w);
        continue;
      }
      const op = w.slice(1);
      // `2>`: the fd number was a word just before the operator.
      if (/^\d+$/.test(plain[plain.length - 1] ?? '') && /^[>]/.test(op)) plain.pop();
      const next = words[++i] ?? '';
      if (/^(?:>{1,2}\|?|&>>?|>&)$/.test(op)) written.push({ path: next, how: 'write' });
      else if (op === '<<<') inputs.push(next);
      else if (op.startsWith('<<')) inputs.push(bodies.get(next.replace(/^-/, ''))?.pop() ?? '');
    }
    written.push(...commandWrites(plain, inputs));
    written.push(...nestedWrites(plain.flatMap(substitutions)));
    for (const write of written) {
      const path = literal(write.path);
      if (path === null) continue;
      const at = isAbsolute(path) || dir === '' ? path : dir === null ? null : join(dir, path);
      if (at !== null && !found.has(`${write.how}\0${at}`))
        found.set(`${write.how}\0${at}`, { path: at, how: write.how });
    }
    // A cd in a pipeline or in the background runs in a subshell: it moves nothing after it.
    const moved = cdTarget(plain, dir);
    if (moved !== undefined && end !== '|' && end !== '&' && previousEnd !== '|') dir = moved;
    if (end === '(') outer.push(dir);
    if (end === ')' && outer.length) dir = outer.pop()!;
    previousEnd = end;
  }
  return [...found.values()];
}

/** The files written as such (not only named, not a glob), once each. */
export const writtenPaths = (writes: readonly PathWrite[]): string[] => [
  ...new Set(
    writes
      .filter((w) => w.how !== 'named' && w.how !== 'inside' && !GLOB_CHARS.test(w.path))
      .map((w) => w.path),
  ),
];

/** The files a shell command writes (writtenPaths of shellWrites). */
export const shellWrittenPaths = (command: string): string[] => writtenPaths(shellWrites(command));
