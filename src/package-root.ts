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

// A path as sh reads it: quoted when it holds anything but plain path characters.
const shPath = (path: string) => (/^[\w@%+=:,./-]+$/.test(path) ? path : `'${path}'`);

/**
 * How to put this copy on PATH (agent-state is not on the npm registry): npm's bin folder for a
 * global install, else `npm install -g` of this folder (a clone, an unpacked tarball).
 */
export function installHint(root = packageRoot()): string {
  const prefix = /^(.*)\/lib\/node_modules\/agent-state$/.exec(root)?.[1];
  if (prefix !== undefined)
    return `add ${shPath(`${prefix}/bin`)} to PATH (npm installed agent-state there)`;
  return `npm install -g ${shPath(root)}`;
}

/** How to replace this copy with a newer one, the way it was installed. */
export function upgradeHint(root = packageRoot()): string {
  const at = shPath(root);
  return existsSync(join(root, '.git'))
    ? `git -C ${at} pull && npm install -g ${at}`
    : `install a newer agent-state in place of ${at} (\`npm pack\` in a newer clone, then \`npm install -g\` its tarball)`;
}
