// The tools tier drives third-party tools that `npm test` does not assume: the Python pre-commit
// framework. `.ci/run` installs it from Debian before running this tier; run by hand, this setup
// installs the same Debian package when it can (root, or passwordless sudo), and otherwise stops
// the tier with what to install — it never skips a test.
import { spawnSync } from 'node:child_process';

function has(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

function aptInstall(pkg: string): boolean {
  const root = process.getuid?.() === 0;
  if (!root && !has('sudo', ['-n', 'true'])) return false;
  const run = (args: string[]) =>
    spawnSync(root ? args[0]! : 'sudo', root ? args.slice(1) : ['-n', ...args], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    }).status === 0;
  return (
    has('apt-get', ['--version']) &&
    run(['apt-get', 'update', '-qq']) &&
    run(['apt-get', 'install', '-y', '-qq', pkg])
  );
}

export default function setup(): void {
  if (has('pre-commit', ['--version'])) return;
  if (aptInstall('pre-commit') && has('pre-commit', ['--version'])) return;
  throw new Error(
    'the tools tier needs the pre-commit framework on PATH: install it (Debian: `apt-get install pre-commit`, elsewhere: `pipx install pre-commit`) and run `npm run test:tools` again',
  );
}
