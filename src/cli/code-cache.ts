// Loads a CommonJS file (the CLI bundle) through a V8 code cache: Node 20 has no module compile
// cache, and compiling the bundle was a fifth of every start-up. The cache sits next to the bundle
// or in the temp directory; one from another file, Node, V8 or flags is ignored and rewritten.
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs';
import { createRequire, Module } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { commandWord } from './command-list.js';
import { fnv1a } from '../text/fnv.js';

// Tells the caches of two installations (and two kinds of run) apart.
const shortHash = (text: string): string => fnv1a(text).toString(36);

// One cache per command word (and Node version): a cache holds the functions its runs compiled,
// and deserializing what `status` compiled would only slow down `event`. Only the first word
// that looks like a command is read here (the router proper parses the call): a word that is not
// one of agent-state's commands (a typo, an option's value) shares the `-` cache, so the caches
// stay as few as the commands.
export function cacheFamily(argv: readonly string[]): string {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-C' || arg === '--cwd' || arg === '--agent') i++;
    else if (!arg.startsWith('-')) return arg === 'help' ? arg : (commandWord(arg) ?? '-');
  }
  return '-';
}

function cachePaths(file: string, family: string): string[] {
  const name = (tag: string) => `${basename(file)}${tag}.${family}.${process.version}.cache`;
  const temp = join(tmpdir(), `agent-state-${process.getuid?.() ?? 'user'}`);
  return [join(dirname(file), name('')), join(temp, name(`.${shortHash(dirname(file))}`))];
}

// Compiled code runs with this process's rights: use a cache only from a directory that nobody
// else can write (the temp directory is shared).
function trusted(dir: string): boolean {
  const stat = statSync(dir);
  const uid = process.getuid?.();
  return (uid === undefined || stat.uid === uid || stat.uid === 0) && (stat.mode & 0o022) === 0;
}

// What kind of run this is, for the cache: the command words and option names, with an option's
// value when it is a word or one digit (`--level 2`, `--format xml`), sorted and joined by `+`
// (`-` for none). Free text, ids and paths are left out, so the kinds stay few.
export function runShape(argv: readonly string[]): string {
  const tokens = new Set<string>();
  for (const arg of argv) {
    const [name, value] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if (arg.startsWith('-'))
      tokens.add(value !== undefined && SHAPE_VALUE.test(value) ? arg : name);
    else if (SHAPE_VALUE.test(arg)) tokens.add(arg);
  }
  return tokens.size === 0 ? '-' : [...tokens].sort().join('+');
}
const SHAPE_VALUE = /^(?:[a-z][a-z-]{0,23}|[0-9])$/;
// The kinds of run a cache covers, at most (then it starts over from the current one).
const MAX_SHAPES = 24;

// V8 accepts a cache made for any source of the same length, and its cache holds the functions
// compiled when it was made (by the run that made it). So each cache starts with a line naming the
// one file it was made from (size, inode, ctime: an install or a rebuild writes new files, and
// ctime moves even where npm normalizes mtimes) and the kinds of run whose functions it holds; a
// run of a new kind writes it again at exit, so the cache grows to what this user runs.
interface CacheHeader {
  file: string;
  shapes: string[];
}

function encodeHeader(header: CacheHeader): Buffer {
  const line = `agent-state-cache ${header.file} ${header.shapes.join('|')}`;
  // Padded so that the V8 data after it starts 8-byte aligned (no copy before deserializing).
  return Buffer.from(`${line.padEnd(Math.ceil((line.length + 1) / 8) * 8 - 1)}\n`, 'latin1');
}

function decodeHeader(data: Buffer): { header: CacheHeader; length: number } | null {
  const end = data.indexOf(0x0a);
  if (end === -1 || end > 8192) return null;
  const [tag, file, shapes] = data.toString('latin1', 0, end).trimEnd().split(' ');
  if (tag !== 'agent-state-cache' || !file || !shapes) return null;
  return { header: { file, shapes: shapes.split('|') }, length: end + 1 };
}

function readCache(paths: string[], file: string): { data: Buffer; shapes: string[] } | undefined {
  for (const path of paths) {
    try {
      if (!trusted(dirname(path))) continue;
      const data = readFileSync(path);
      const decoded = decodeHeader(data);
      if (decoded?.header.file === file)
        return { data: data.subarray(decoded.length), shapes: decoded.header.shapes };
    } catch {
      /* next */
    }
  }
  return undefined;
}

// Written once, at exit, when the run compiled what the cache should hold.
function writeCache(paths: string[], header: CacheHeader, data: Buffer): void {
  for (const path of paths) {
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      if (!trusted(dirname(path))) continue;
      const temp = `${path}.${process.pid}.tmp`;
      const fd = openSync(temp, 'w', 0o644);
      try {
        writeSync(fd, encodeHeader(header));
        writeSync(fd, data);
      } finally {
        closeSync(fd);
      }
      renameSync(temp, path);
      return;
    } catch {
      /* read-only install: try the next place */
    }
  }
}

/** Runs the CommonJS file `file` as a module, compiling it from (and into) a V8 code cache. */
export function loadCached(file: string): unknown {
  // ASCII only (the build checks): latin1 is a plain copy, UTF-8 would be decoded (~3 ms).
  const source = readFileSync(file, 'latin1');
  const argv = process.argv.slice(2);
  const paths = cachePaths(file, cacheFamily(argv));
  const stat = statSync(file);
  const key = `${stat.size}:${stat.ino}:${stat.ctimeMs}`;
  // Hashed: the header must not keep words of the user's command lines.
  const shape = shortHash(runShape(argv));
  const cached = readCache(paths, key);
  // A script compiled from a code cache has no dynamic-import callback on Node 20: the build
  // rewrites the bundle's `import(x)` (of the packages left outside it) into calls of this
  // function, resolved against the bundle.
  const base = pathToFileURL(file);
  (globalThis as Record<string, unknown>).__agentStateImport = (specifier: string) =>
    import(specifier.startsWith('.') ? new URL(specifier, base).href : specifier);
  const script = new Script(Module.wrap(source), { filename: file, cachedData: cached?.data });
  const kept = cached === undefined || script.cachedDataRejected ? [] : cached.shapes;
  if (!kept.includes(shape)) {
    const shapes = kept.length < MAX_SHAPES ? [...kept, shape] : [shape];
    process.once('exit', () => writeCache(paths, { file: key, shapes }, script.createCachedData()));
  }
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {}, filename: file, id: file };
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}
