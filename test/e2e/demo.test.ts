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
  // The compaction boot restored level 2 and showed the reminder; the agent's recorded edit kept
  // a resume at level 1; someone else's edit made auto pick level 3.
  expect(result.stdout).toContain('agent-state boot · level 2 (restore)');
  expect(result.stdout).toContain('- Ask the user about the maximum page size before merging');
  expect(result.stdout).toContain('agent-state boot · level 1 (resume)');
  expect(result.stdout).toContain('1 file (src/server.js) since the last checkpoint');
  expect(result.stdout).toContain(
    'Why level 3: 1 file changed that no recorded edit of yours explains (test/pagination.test.js)',
  );
  expect(result.stdout).toContain('You are in a restart loop: 3 boots in a row');
}, 120_000);
