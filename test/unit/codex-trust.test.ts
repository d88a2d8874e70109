// Codex's hook trust: its hash (vectors from `codex app-server` hooks/list, Codex 0.171), the
// trust tables of a config.toml, and the block agent-state writes without defining a table twice.
import { describe, expect, it } from 'vitest';
import {
  codexHookHash,
  codexHookTrusts,
  codexTrustBlock,
  codexTrustGaps,
  readCodexTrust,
} from '../../src/hosts/codex/codex-trust.js';
import type { JsonObject } from '../../src/hosts/install/json-text.js';

const command = '/work/wt/issue-12a/bin/agent-state.js hook codex';
const ours = (h: unknown) =>
  typeof h === 'object' && h !== null && (h as { command?: string }).command === command;

describe('Codex hook trust', () => {
  it("computes Codex's own hashes", () => {
    // codex app-server hooks/list, Codex 0.171.0, for hooks.json written by `integrate codex`.
    expect(
      codexHookHash('pre_tool_use', 'Bash|apply_patch', { type: 'command', command, timeout: 5 }),
    ).toBe('sha256:304f741d8c7b0370f2c34d10002da6f07fd796a92115af5de1dbdea82bee824e');
    expect(
      codexHookHash('post_tool_use', undefined, { type: 'command', command, timeout: 5 }),
    ).toBe('sha256:05719e60b80bfe33ab9fab3f5aaefd910926e5c21a037aa38496408f30e106a4');
    expect(
      codexHookHash('session_start', undefined, { type: 'command', command, timeout: 20 }),
    ).toBe('sha256:ebcff4af91b0176875b162637723e66ce5f25ba65a9c7727ef7a4db444826071');
  });

  it('keys hooks by file, event, group and handler position', () => {
    const file: JsonObject = {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'other' }] },
          {
            matcher: 'Bash|apply_patch',
            hooks: [
              { type: 'command', command: 'x' },
              { type: 'command', command, timeout: 5 },
            ],
          },
        ],
        Stop: [{ hooks: [{ type: 'command', command, timeout: 10 }] }],
      },
    };
    expect(codexHookTrusts(file, '/r/.codex/hooks.json', ours).map((t) => t.key)).toEqual([
      '/r/.codex/hooks.json:pre_tool_use:1:1',
      '/r/.codex/hooks.json:stop:0:0',
    ]);
  });

  it('reads trust tables, and writes only the ones the file lacks', () => {
    const config = [
      'model = "gpt-5.5"',
      "[projects.'/r']",
      'trust_level = "trusted" # comment',
      '[hooks.state."/r/.codex/hooks.json:stop:0:0"]',
      'trusted_hash = "sha256:old"',
      '[other]',
      'trusted_hash = "not a hook"',
    ].join('\n');
    const state = readCodexTrust(config);
    expect(state.projects.get('/r')).toBe('trusted');
    expect(state.hooks.get('/r/.codex/hooks.json:stop:0:0')).toBe('sha256:old');
    expect(state.hooks.size).toBe(1);
    const hooks = [
      { key: '/r/.codex/hooks.json:stop:0:0', hash: 'sha256:new', event: 'Stop' },
      { key: '/r/.codex/hooks.json:pre_tool_use:0:0', hash: 'sha256:p', event: 'PreToolUse' },
    ];
    const gaps = codexTrustGaps(state, hooks, '/r');
    expect(gaps.project).toBeNull();
    expect(gaps.untrusted.map((h) => h.event)).toEqual(['Stop', 'PreToolUse']);
    expect(gaps.modified.map((h) => h.event)).toEqual(['Stop']);
    // The Stop table exists already (TOML forbids a second one): only PreToolUse is written.
    expect(codexTrustBlock(state, hooks, '/r')).toBe(
      '[hooks.state."/r/.codex/hooks.json:pre_tool_use:0:0"]\ntrusted_hash = "sha256:p"',
    );
    const empty = readCodexTrust('');
    expect(codexTrustGaps(empty, hooks, '/r')).toMatchObject({
      project: '/r',
      projectDenied: false,
    });
    expect(codexTrustBlock(empty, hooks, '/r')).toContain(
      '[projects."/r"]\ntrust_level = "trusted"',
    );
    const denied = readCodexTrust('[projects."/r"]\ntrust_level = "untrusted"\n');
    expect(codexTrustGaps(denied, hooks, '/r').projectDenied).toBe(true);
    expect(codexTrustBlock(denied, hooks, '/r')).not.toContain('projects');
  });
});
