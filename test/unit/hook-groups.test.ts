import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  commandRuns,
  hasOurHooks,
  mergeHooks,
  removeHooks,
  type HostHookSpec,
} from '../../src/hosts/install/hook-groups.js';
import type { JsonObject } from '../../src/hosts/install/json-text.js';

const ours = commandRuns('hook', 'claude');
const spec = (event: string, matcher?: string): HostHookSpec => ({
  event,
  ...(matcher ? { matcher } : {}),
  handler: { type: 'command', command: 'agent-state hook claude', timeout: 5 },
});
const SPECS = [spec('SessionStart'), spec('PreToolUse', 'Edit|Write')];

describe('mergeHooks / removeHooks', () => {
  it('recognizes our commands whatever the install path', () => {
    for (const command of [
      'agent-state hook claude',
      '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/agent-state hook claude',
      "'/opt/a b/bin/agent-state.js' hook claude",
    ])
      expect(ours({ type: 'command', command })).toBe(true);
    for (const command of [
      'agent-state hook codex',
      'my-agent-state-wrapper',
      'echo agent-state hook claudex',
    ])
      expect(ours({ type: 'command', command })).toBe(false);
  });

  it('replaces an outdated handler of ours in place and drops duplicates', () => {
    const settings: JsonObject = {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] },
          {
            matcher: 'Edit',
            hooks: [{ type: 'command', command: '/old/agent-state hook claude' }],
          },
          { hooks: [{ type: 'command', command: '/older/agent-state hook claude' }] },
        ],
        Notification: [{ hooks: [{ type: 'command', command: 'agent-state hook claude' }] }],
      },
    };
    const merged = mergeHooks(settings, SPECS, ours);
    expect(merged.hooks).toEqual({
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] },
        { matcher: 'Edit|Write', hooks: [SPECS[1]!.handler] },
      ],
      SessionStart: [{ hooks: [SPECS[0]!.handler] }],
    });
  });

  it('takes our handler out of a group someone else shares with it', () => {
    const settings: JsonObject = {
      hooks: {
        SessionStart: [
          {
            hooks: [
              { type: 'command', command: 'x' },
              { type: 'command', command: 'agent-state hook claude' },
            ],
          },
        ],
      },
    };
    expect(removeHooks(settings, ours)).toEqual({
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'x' }] }] },
    });
    const merged = mergeHooks(settings, [spec('SessionStart')], ours);
    expect(merged.hooks).toEqual({
      SessionStart: [
        { hooks: [{ type: 'command', command: 'x' }] },
        { hooks: [SPECS[0]!.handler] },
      ],
    });
  });

  // Any settings without our handlers: merge then remove gives them back; merge is idempotent.
  const handler = fc.record({
    type: fc.constant('command'),
    command: fc.constantFrom('a.sh', 'b.sh', 'prettier --write'),
  });
  const group = fc
    .record({
      matcher: fc.option(fc.constantFrom('Edit', 'Bash', '*'), { nil: undefined }),
      hooks: fc.array(handler, { minLength: 1, maxLength: 3 }),
    })
    .map((g) => (g.matcher === undefined ? { hooks: g.hooks } : g));
  const settingsArb = fc.record(
    {
      model: fc.string(),
      hooks: fc.dictionary(
        fc.constantFrom('SessionStart', 'PreToolUse', 'Stop', 'PostToolUse'),
        fc.array(group, { maxLength: 3 }),
      ),
    },
    { requiredKeys: [] },
  ) as fc.Arbitrary<JsonObject>;

  function withoutEmpty(settings: JsonObject): JsonObject {
    const hooks = Object.fromEntries(
      Object.entries((settings.hooks as JsonObject | undefined) ?? {}).filter(
        ([, v]) => !Array.isArray(v) || v.length > 0,
      ),
    );
    const rest = { ...settings };
    delete rest.hooks;
    return Object.keys(hooks).length ? { ...rest, hooks } : rest;
  }

  it('merge then remove is the identity, and merge is idempotent (property)', () => {
    fc.assert(
      fc.property(settingsArb, (settings) => {
        const merged = mergeHooks(settings, SPECS, ours);
        expect(hasOurHooks(merged, ours)).toBe(true);
        expect(mergeHooks(merged, SPECS, ours)).toEqual(merged);
        const removed = removeHooks(merged, ours);
        // Empty containers we filled and emptied again go away (the saved original restores
        // those bytes at the file level); everything else comes back as it was.
        expect(withoutEmpty(removed)).toEqual(withoutEmpty(settings));
        expect(hasOurHooks(removed, ours)).toBe(false);
      }),
    );
  });
});
