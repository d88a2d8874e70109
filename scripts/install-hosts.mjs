#!/usr/bin/env node
// Installs the agent hosts the conformance tier runs (test/hosts/versions.json pins them) into a
// cache outside the repository, one folder per package and version, and says how to run each.
// Idempotent: an installed host is not installed again. Only the npm registry is used: the native
// binaries ship inside the hosts' platform packages (optional dependencies), so no install script
// runs (--ignore-scripts; npm 11 blocks them by default anyway) and this script finds the binary
// itself, where the hosts' postinstall would have copied it.
//
// Usage: node scripts/install-hosts.mjs [--host NAME]... [--latest] [--version NAME=VER]... [--json]
//   --latest          the newest version of each host on the registry (also AGENT_STATE_HOSTS_LATEST=1)
//   --version N=V     this version of host N instead of the pinned one
//   --json            print {host: {package, version, dir, command}} on stdout
// Cache: $AGENT_STATE_HOSTS_CACHE, default ${XDG_CACHE_HOME:-~/.cache}/agent-state/hosts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const VERSIONS = join(ROOT, 'test', 'hosts', 'versions.json');
const MARKER = 'agent-state-host.json';

/** The folder all hosts are cached under. */
export function hostsCache(env = process.env) {
  if (env.AGENT_STATE_HOSTS_CACHE) return env.AGENT_STATE_HOSTS_CACHE;
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'agent-state', 'hosts');
}

function isMusl() {
  const report = process.report?.getReport();
  return process.platform === 'linux' && !report?.header?.glibcVersionRuntime;
}

function hasAvx2() {
  try {
    return /(^|\s)avx2(\s|$)/.test(readFileSync('/proc/cpuinfo', 'utf8'));
  } catch {
    return false;
  }
}

// How to run each host from its install folder, without the package's postinstall: the argv
// before the host's own arguments. Claude Code and OpenCode are native binaries in a platform
// package; Codex's bin/codex.js finds its platform package itself; Gemini CLI is JavaScript.
const COMMANDS = {
  claude(modules) {
    const suffix = `${process.platform}-${process.arch}${isMusl() ? '-musl' : ''}`;
    return [join(modules, '@anthropic-ai', `claude-code-${suffix}`, 'claude')];
  },
  codex(modules) {
    return [process.execPath, join(modules, '@openai', 'codex', 'bin', 'codex.js')];
  },
  gemini(modules) {
    return [process.execPath, join(modules, '@google', 'gemini-cli', 'bundle', 'gemini.js')];
  },
  opencode(modules) {
    const os = process.platform === 'win32' ? 'windows' : process.platform;
    const base = `opencode-${os}-${process.arch}`;
    const musl = isMusl() ? '-musl' : '';
    const variants = hasAvx2()
      ? [`${base}${musl}`, `${base}-baseline${musl}`]
      : [`${base}-baseline${musl}`, `${base}${musl}`];
    const found = variants
      .map((v) => join(modules, v, 'bin', 'opencode'))
      .find((p) => existsSync(p));
    return [found ?? join(modules, variants[0], 'bin', 'opencode')];
  },
};

function npm(args, options = {}) {
  return execFileSync('npm', args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
    ...options,
  });
}

/** The newest version of a package on the registry. */
function latestVersion(pkg) {
  return JSON.parse(npm(['view', pkg, 'version', '--json']));
}

/** Installs one host (unless it is there) and returns where it is and how to run it. */
export function installHost(host, pkg, version, cache = hostsCache()) {
  const dir = join(cache, `${pkg}@${version}`);
  const marker = join(dir, MARKER);
  if (existsSync(marker)) {
    const installed = JSON.parse(readFileSync(marker, 'utf8'));
    if (installed.command.every((part, i) => i > 0 || existsSync(part))) return installed;
  }
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  writeFileSync(join(partial, 'package.json'), '{ "private": true }\n');
  process.stderr.write(`install-hosts: installing ${pkg}@${version} into ${dir}\n`);
  try {
    npm([
      'install',
      '--prefix',
      partial,
      '--ignore-scripts',
      '--include=optional',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      '--loglevel=error',
      `${pkg}@${version}`,
    ]);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw new Error(`npm install ${pkg}@${version} failed: ${error.stderr || error.message}`);
  }
  const command = COMMANDS[host](join(dir, 'node_modules'));
  const installed = { host, package: pkg, version, dir, command };
  const probe = COMMANDS[host](join(partial, 'node_modules'));
  if (!existsSync(probe[probe.length - 1])) {
    rmSync(partial, { recursive: true, force: true });
    throw new Error(`${pkg}@${version}: no ${probe[probe.length - 1]} after install`);
  }
  writeFileSync(join(partial, MARKER), `${JSON.stringify(installed, null, 2)}\n`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  renameSync(partial, dir);
  return installed;
}

/** The versions to install: pinned, overridden per host, or the newest. */
export function wantedVersions({ hosts, latest, overrides }) {
  const pinned = JSON.parse(readFileSync(VERSIONS, 'utf8'));
  const out = {};
  for (const host of hosts ?? Object.keys(pinned)) {
    const pin = pinned[host];
    if (!pin)
      throw new Error(
        `unknown host "${host}" (test/hosts/versions.json has ${Object.keys(pinned).join(', ')})`,
      );
    const version = overrides?.[host] ?? (latest ? latestVersion(pin.package) : pin.version);
    out[host] = { package: pin.package, version };
  }
  return out;
}

function parseArgs(argv) {
  const options = {
    hosts: undefined,
    latest: process.env.AGENT_STATE_HOSTS_LATEST === '1',
    overrides: {},
    json: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--host') (options.hosts ??= []).push(argv[++i]);
    else if (arg === '--latest') options.latest = true;
    else if (arg === '--json') options.json = true;
    else if (arg === '--version') {
      const [host, version] = String(argv[++i]).split('=');
      if (!host || !version) throw new Error('--version takes NAME=VERSION (e.g. codex=0.172.0)');
      options.overrides[host] = version;
    } else
      throw new Error(
        `unknown option ${arg} (see the usage at the top of scripts/install-hosts.mjs)`,
      );
  }
  return options;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const options = parseArgs(process.argv.slice(2));
    const result = {};
    for (const [host, want] of Object.entries(wantedVersions(options)))
      result[host] = installHost(host, want.package, want.version);
    if (options.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else
      for (const r of Object.values(result))
        console.log(`${r.package}@${r.version}: ${r.command.join(' ')}`);
  } catch (error) {
    console.error(`install-hosts: ${error.message}`);
    process.exit(1);
  }
}
