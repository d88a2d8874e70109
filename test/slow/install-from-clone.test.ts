// A copy of the sources with no dist/ (a fresh clone) installed the two ways the README gives,
// `npm install -g .` and `npm pack`: each gives a bin that runs, because `prepare` builds first.
// Two builds of the whole package: the slow tier.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { REPO_ROOT, testdir } from '../helpers/fixtures.js';

const VERSION = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

const run = (cwd: string, command: string, args: string[]) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

it('npm install -g . and npm pack in a clone without dist/ give a bin that runs', () => {
  const dir = testdir();
  const clone = join(dir, 'clone');
  mkdirSync(clone);
  // The tracked and new files as a clone has them (no dist/), with the dependencies installed.
  const files = run(REPO_ROOT, 'git', ['ls-files', '-co', '--exclude-standard']);
  run(REPO_ROOT, 'tar', ['-cf', join(dir, 'src.tar'), ...files.split('\n').filter(Boolean)]);
  run(clone, 'tar', ['-xf', join(dir, 'src.tar')]);
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(clone, 'node_modules'));
  expect(existsSync(join(clone, 'dist'))).toBe(false);

  const npm = ['--offline', '--no-audit', '--no-fund', '--loglevel=error'];
  run(clone, 'npm', ['install', '-g', '--prefix', join(dir, 'global'), '.', ...npm]);
  expect(run(dir, join(dir, 'global', 'bin', 'agent-state'), ['--version']).trim()).toBe(VERSION);

  rmSync(join(clone, 'dist'), { recursive: true });
  run(clone, 'npm', ['pack', '--pack-destination', dir, ...npm]);
  run(dir, 'tar', ['-xzf', `agent-state-${VERSION}.tgz`]);
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'package', 'node_modules'));
  const bin = join(dir, 'package', 'bin', 'agent-state.js');
  expect(run(dir, process.execPath, [bin, '--version']).trim()).toBe(VERSION);
}, 240_000);
