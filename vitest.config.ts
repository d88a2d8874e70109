import { defineConfig } from 'vitest/config';

// The tiers (STYLE.md): `npm test` runs the first four (Node and git are all they need);
// `.ci/run` runs every project. Each tier is a folder of test/.
const tier = (name: string, extra: Record<string, unknown> = {}) => ({
  extends: true as const,
  test: { name, include: [`test/${name}/**/*.test.ts`], ...extra },
});

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    projects: [
      tier('unit'),
      tier('integration'),
      tier('e2e'),
      // Many processes at once (concurrency, locks): minutes, not seconds.
      tier('slow', { testTimeout: 300_000 }),
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
