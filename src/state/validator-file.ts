// Loads a validator precompiled at build time, dist/validators/<name>.cjs. The CLI bundles that
// start from a V8 code cache (main.cjs, boot-cli.cjs) get a copy of this module from
// scripts/build.mjs that holds the validators inline: loading them by path cost a boot ~15 ms of
// compiling that the cache skips.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

// Named so that a bundler does not mistake it for its own `require`.
const requireCjs = createRequire(import.meta.url);

/** The module dist/validators/<name>.cjs exports (a standalone ajv validator). */
export function requireValidatorFile(name: string): unknown {
  return requireCjs(join(packageRoot(), 'dist', 'validators', `${name}.cjs`));
}
