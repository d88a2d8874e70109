// The Stop hook's wait for background post-tool calls (src/hosts/async-post-tool.ts), on real files.
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectPostTool, inFlight, settlePostTool } from '../../src/hosts/async-post-tool.js';
import { statePaths } from '../../src/state/paths.js';

const paths = () => statePaths(mkdtempSync(join(tmpdir(), 'agent-state-post-tool-')));

describe('settlePostTool', () => {
  it('waits for a post-tool call announced before its process has started', async () => {
    const p = paths();
    expectPostTool(p, 'toolu_01');
    const order: string[] = [];
    const settled = settlePostTool(p).then(() => order.push('settled'));
    // The post-tool process comes later than the Stop hook's first look.
    await new Promise((done) => setTimeout(done, 100));
    await inFlight(p, async () => order.push('recorded'), 'toolu_01');
    await settled;
    expect(order).toEqual(['recorded', 'settled']);
    expect(readdirSync(join(p.logDir, 'post-tool'))).toEqual([]);
  });

  it('returns at once with nothing to come, and drops a mark whose post-tool never ran', async () => {
    const p = paths();
    await settlePostTool(p); // no folder at all
    expectPostTool(p, 'call/../x');
    const mark = join(p.logDir, 'post-tool', 'call-call____x');
    expect(existsSync(mark)).toBe(true);
    await settlePostTool(p);
    expect(existsSync(mark)).toBe(false);
  });
});
