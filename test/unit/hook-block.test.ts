import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BLOCK_BEGIN,
  BLOCK_END,
  SHELL_HEADER,
  directBody,
  hasBlock,
  isShellHook,
  portableBody,
  removeBlock,
  shebangOf,
  upsertBlock,
} from '../../src/git-hooks/hook-block.js';

const body = portableBody('pre-commit');

describe('upsertBlock / removeBlock', () => {
  it('appends after the user hook and never touches its lines', () => {
    const user = '#!/bin/sh\nnpm run lint\n';
    const text = upsertBlock(user, body, SHELL_HEADER);
    expect(text.startsWith(user)).toBe(true);
    expect(text).toContain(`${BLOCK_BEGIN}\n`);
    expect(text.endsWith(`${BLOCK_END}\n`)).toBe(true);
    expect(removeBlock(text, SHELL_HEADER)).toEqual({ text: user, removed: true, delete: false });
  });

  it('restores a file that had no final newline byte for byte', () => {
    const user = '#!/bin/bash\necho user';
    const text = upsertBlock(user, body, SHELL_HEADER);
    expect(text.startsWith(`${user}\n${BLOCK_BEGIN}`)).toBe(true);
    expect(removeBlock(text, SHELL_HEADER).text).toBe(user);
  });

  it('marks a file it created and deletes it when nothing else is left', () => {
    const created = upsertBlock(null, body, SHELL_HEADER);
    expect(created.startsWith(SHELL_HEADER)).toBe(true);
    expect(removeBlock(created, SHELL_HEADER).delete).toBe(true);
    // The user added a line to a file we created: keep the file, with their line.
    const edited = `${created}echo mine\n`;
    const result = removeBlock(edited, SHELL_HEADER);
    expect(result.delete).toBe(false);
    expect(result.text).toBe(`${SHELL_HEADER}echo mine\n`);
  });

  it('is idempotent and refreshes a block in place', () => {
    const user = '#!/bin/sh\necho before\n';
    const once = upsertBlock(user, body, SHELL_HEADER);
    expect(upsertBlock(once, body, SHELL_HEADER)).toBe(once);
    const withTail = `${once}echo after\n`;
    const newBody = directBody('pre-commit', { node: '/usr/bin/node', script: "/opt/it's/bin.js" });
    const refreshed = upsertBlock(withTail, newBody, SHELL_HEADER);
    expect(refreshed.startsWith(user)).toBe(true);
    expect(refreshed.endsWith('echo after\n')).toBe(true);
    expect(refreshed).toContain(`agent_state_js='/opt/it'\\''s/bin.js'`);
    expect(removeBlock(refreshed, SHELL_HEADER).text).toBe(`${user}echo after\n`);
  });

  it('round-trips any existing hook content exactly', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (tail) => {
        const user = `#!/bin/sh\n${tail.replace(/# [<>]{3} agent-state/g, '')}`;
        const text = upsertBlock(user, body, SHELL_HEADER);
        expect(hasBlock(text)).toBe(true);
        expect(removeBlock(text, SHELL_HEADER).text).toBe(user);
      }),
    );
  });
});

describe('hook bodies', () => {
  it('calls the recorded binary directly, then node_modules/.bin and PATH, never npx', () => {
    const lines = directBody('pre-commit', { node: '/n/node', script: '/p/bin/agent-state.js' });
    const text = lines.join('\n');
    expect(text).toContain(`agent_state_js='/p/bin/agent-state.js'`);
    expect(text).toContain('"$agent_state_node" "$agent_state_js" hook pre-commit "$@" || exit $?');
    expect(text).toContain('./node_modules/.bin/agent-state hook pre-commit');
    expect(text).toContain('command -v agent-state');
    expect(text).toContain('"${AGENT_STATE-}" != "0"');
    expect(text).not.toContain('npx');
  });

  it('never fails a post-* hook (its status becomes git checkout’s)', () => {
    const text = portableBody('post-checkout').join('\n');
    expect(text).toContain('hook post-checkout "$@" || true');
    expect(text).not.toContain('exit $?');
  });
});

describe('shebangs', () => {
  it('accepts shell hooks and refuses other interpreters', () => {
    expect(shebangOf('#!/usr/bin/env python3\nprint(1)\n')).toBe('python3');
    expect(shebangOf('#!/bin/bash -e\n')).toBe('bash');
    expect(isShellHook('echo no shebang\n')).toBe(true);
    expect(isShellHook('#!/usr/bin/env sh\n')).toBe(true);
    expect(isShellHook('#!/usr/bin/env node\n')).toBe(false);
  });
});
