import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The tiers (STYLE.md), each a folder of test/. `npm test` (scripts/test.mjs) runs unit,
// integration and e2e, which Node and git are all they need; `.ci/run` runs every project.
const tier = (name: string, extra: Record<string, unknown> = {}) => ({
  extends: true as const,
  test: { name, include: [`test/${name}/**/*.test.ts`], ...extra },
});

// The default loop's files share their worker's modules instead of loading them again for each
// file (a third of the unit tier's time); test/helpers/setup.ts checks that no test leaves the
// process changed for the next one.
const shared = { isolate: false };

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two workers on two cores too (vitest's default there is one): e2e and integration files
    // spend much of their time waiting for git.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    setupFiles: ['test/helpers/setup.ts'],
    projects: [
      tier('unit', shared),
      tier('integration', shared),
      tier('e2e', shared),
      // Load: many processes at once (concurrency, locks), minutes, not seconds; alone, since
      // the fair-lock test measures the waits and slows every file beside it.
      tier('slow', { testTimeout: 300_000, maxWorkers: 1 }),
      // Packages that declare Node >= 22 (the AI SDK, `ai` 7): only on .ci/run's Node 22 and 24 runs.
      tier('node22'),
      // Third-party tools that `npm test` does not assume (the pre-commit framework, from Debian).
      tier('tools', { globalSetup: ['test/tools/setup.ts'] }),
      // Fuzzed and hostile input; TORTURE_SCALE sets the size of a full run.
      tier('torture', {
        testTimeout: 6 * 3_600_000,
        hookTimeout: 600_000,
        globalSetup: ['test/torture/setup.ts'],
      }),
      // The real host CLIs against a model stub on 127.0.0.1 (test/hosts/versions.json).
      tier('hosts', { testTimeout: 300_000, hookTimeout: 600_000 }),
      // Debian's headless Chromium.
      tier('browser', { testTimeout: 60_000, hookTimeout: 120_000 }),
    ],
  },
});
