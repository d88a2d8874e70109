// Where the installed package lives (for templates/, dist/validators/ and package.json), found
// by walking up from this module: it works from src/ (tests), dist/ (tsc) and the CLI bundle.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;
let version: string | undefined;

/** The package's root directory (the one holding package.json). */
export function packageRoot(): string {
  if (root === undefined) {
    let dir = dirname(fileURLToPath(import.meta.url));
    while (!existsSync(join(dir, 'package.json'))) {
      const parent = dirname(dir);
      if (parent === dir) throw new Error('agent-state: cannot find its own package.json');
      dir = parent;
    }
    root = dir;
  }
  return root;
}

/** This build's version (e.g. "0.1.0"). */
export function packageVersion(): string {
  version ??= (
    JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }
  ).version;
  return version;
}
