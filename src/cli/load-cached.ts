// Loads the CLI's bundles (CommonJS) with a V8 code cache. Node 20 has no compile cache for
// modules, and compiling the ~300 KB main bundle was a fifth of every command's start-up; a
// cached compile skips it. The cache lives next to the bundle when that is writable, else in the
// temp directory; a cache made from another file (header below), another V8 version or other
// flags is not used: the bundle is compiled as usual and the cache rewritten. Failing to write it
// is harmless.
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
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

// 32-bit FNV-1a: tells the caches of two installations apart in the shared temp directory.
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

function cachePaths(file: string): string[] {
  const name = `${basename(file)}.${process.version}.cache`;
  return [
    join(dirname(file), name),
    join(
      tmpdir(),
      `agent-state-${process.getuid?.() ?? 'user'}`,
      `${basename(file)}.${shortHash(dirname(file))}.${process.version}.cache`,
    ),
  ];
}

// V8 accepts a cache made for any source of the same length, so each cache starts with a line
// naming the one file it was made from: size, inode and ctime. An install or a rebuild writes
// new files, so the ctime moves even where npm normalizes mtimes.
function cacheHeader(file: string): Buffer {
  const stat = statSync(file);
  return Buffer.from(`agent-state-cache ${stat.size}:${stat.ino}:${stat.ctimeMs}\n`, 'latin1');
}

// Compiled code runs with this process's rights: use a cache only from a directory that nobody
// else can write (the temp directory is shared).
function trusted(dir: string): boolean {
  const stat = statSync(dir);
  const uid = process.getuid?.();
  return (uid === undefined || stat.uid === uid || stat.uid === 0) && (stat.mode & 0o022) === 0;
}

function readCache(paths: string[], header: Buffer): Buffer | undefined {
  for (const path of paths) {
    try {
      if (!trusted(dirname(path))) continue;
      const data = readFileSync(path);
      if (data.subarray(0, header.length).equals(header)) return data.subarray(header.length);
    } catch {
      /* next */
    }
  }
  return undefined;
}

// Written once, at exit, when the run compiled what the cache should hold.
function writeCache(paths: string[], header: Buffer, data: Buffer): void {
  for (const path of paths) {
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      if (!trusted(dirname(path))) continue;
      const temp = `${path}.${process.pid}.tmp`;
      const fd = openSync(temp, 'w', 0o644);
      try {
        writeSync(fd, header);
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
  const source = readFileSync(file, 'utf8');
  const paths = cachePaths(file);
  const header = cacheHeader(file);
  const cachedData = readCache(paths, header);
  // A script compiled from a code cache has no dynamic-import callback on Node 20: the build
  // rewrites the bundle's `import(x)` into calls of this function, resolved against the bundle.
  const base = pathToFileURL(file);
  (globalThis as Record<string, unknown>).__agentStateImport = (specifier: string) =>
    import(specifier.startsWith('.') ? new URL(specifier, base).href : specifier);
  const script = new Script(Module.wrap(source), { filename: file, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once('exit', () => writeCache(paths, header, script.createCachedData()));
  }
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {}, filename: file, id: file };
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}

/** Loads another CommonJS bundle of dist/bundle/ (e.g. `boot-cli`) through the code cache. */
export function loadBundle(name: string): unknown {
  return loadCached(join(dirname(fileURLToPath(import.meta.url)), `${name}.cjs`));
}

/** Runs the full program, dist/bundle/main.cjs, from any bundle in dist/bundle/. */
export function runMainBundle(): void {
  loadBundle('main');
}
