// `npm run demo` keeps working, docs/boot.md shows its real boot outputs, and the demo state boots
// small: level 1 under 600 tokens, level 2 under 2,000.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/fixtures.js';

it('runs the demo, whose boot outputs are the ones docs/boot.md shows, within the size limits', () => {
  const result = spawnSync(
    process.execPath,
    [join(REPO_ROOT, 'scripts', 'demo.mjs'), '--check-docs'],
    {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  const sizes =
    /boot sizes on the demo state: level 1 (\d+) tokens, level 2 (\d+) tokens, level 3 (\d+) tokens/.exec(
      result.stdout,
    );
  expect(sizes).not.toBeNull();
  const [one, two, three] = sizes!.slice(1).map(Number);
  expect(one).toBeLessThan(600);
  expect(two).toBeLessThan(2000);
  expect(one).toBeLessThan(two!);
  expect(two).toBeLessThan(three!);
  // The compaction boot restored level 2 and showed the reminder; the edit made auto pick level 3.
  expect(result.stdout).toContain('agent-state boot · level 2 (restore)');
  expect(result.stdout).toContain('- Ask the user about the maximum page size before merging');
  expect(result.stdout).toContain(
    'Why level 3: the tree changed since the last checkpoint; a done step is stale (t1).',
  );
  expect(result.stdout).toContain('You are in a restart loop: this is boot 3');
}, 120_000);
