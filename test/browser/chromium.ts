// The browser tier's browser: Debian's headless Chromium, driven by playwright-core (which never
// downloads a browser). When /usr/bin/chromium is missing and we are root with apt-get, it is
// installed (as .ci/run does); otherwise the tier fails saying how to install it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { REPO_ROOT, testdir } from '../helpers/fixtures.js';

/** Where screenshots go (git-ignored). */
export const ARTIFACTS = join(REPO_ROOT, 'test-artifacts', 'browser');

const EXECUTABLE = process.env.AGENT_STATE_CHROMIUM ?? '/usr/bin/chromium';

// Flags that work in a container without a display or a sandbox, and keep the browser off the
// network (no component updates, no sync, no QUIC probes).
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The Chromium binary, installed with apt-get first when it is missing and we may. */
export function chromiumPath(): string {
  if (existsSync(EXECUTABLE)) return EXECUTABLE;
  const root = process.getuid?.() === 0;
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0;
  if (root && apt && EXECUTABLE === '/usr/bin/chromium') {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
  }
  if (!existsSync(EXECUTABLE))
    throw new Error(
      `no Chromium at ${EXECUTABLE}: install Debian's package (apt-get install -y chromium) or set AGENT_STATE_CHROMIUM`,
    );
  return EXECUTABLE;
}

/** A fresh browser with a new, empty profile; `extraFlags` for one test (host resolver rules). */
export async function launchBrowser(
  options: { extraFlags?: string[]; offline?: boolean } = {},
): Promise<BrowserContext> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const profile = testdir(); // removed after the test file
  return chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: [...FLAGS, ...(options.extraFlags ?? [])],
    viewport: { width: 1280, height: 900 },
    offline: options.offline,
    // The browser's lifetime is the test file's (closed in afterAll): playwright's own SIGINT /
    // SIGTERM handlers would outlive each test (test/helpers/setup.ts checks that none does).
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}
