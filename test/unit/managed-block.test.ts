import { describe, expect, it } from 'vitest';
import {
  HASH_MARKERS,
  MARKDOWN_MARKERS,
  readBlock,
  removeBlock,
  upsertBlock,
} from '../../src/text/managed-block.js';
import { PROTOCOL_BLOCK } from '../../src/hosts/install/protocol-block.js';
import { encode } from 'gpt-tokenizer';

describe('managed blocks', () => {
  it('appends after a blank line, replaces in place, and removes cleanly', () => {
    const text = '# Agents\n\nUse pnpm.\n';
    const once = upsertBlock(text, 'v1', MARKDOWN_MARKERS);
    expect(once).toBe(`${text}\n${MARKDOWN_MARKERS.begin}\nv1\n${MARKDOWN_MARKERS.end}\n`);
    expect(upsertBlock(once, 'v1', MARKDOWN_MARKERS)).toBe(once);
    const twice = upsertBlock(`${once}\n## More\n`, 'v2', MARKDOWN_MARKERS);
    expect(readBlock(twice, MARKDOWN_MARKERS)).toBe('v2');
    expect(twice.endsWith('\n## More\n')).toBe(true);
    expect(removeBlock(once, MARKDOWN_MARKERS)).toBe(text);
    expect(removeBlock(upsertBlock('', 'x', HASH_MARKERS), HASH_MARKERS)).toBe('');
  });

  it('keeps CRLF files CRLF', () => {
    const text = '# A\r\n';
    const once = upsertBlock(text, 'x', MARKDOWN_MARKERS);
    expect(once.replace(/\r\n/g, '')).not.toContain('\n');
    expect(removeBlock(once, MARKDOWN_MARKERS)).toBe(text);
  });

  it('teaches the protocol in under 400 tokens', () => {
    const tokens = encode(
      `${MARKDOWN_MARKERS.begin}\n${PROTOCOL_BLOCK}\n${MARKDOWN_MARKERS.end}`,
    ).length;
    expect(tokens).toBeLessThan(400);
    for (const word of [
      'agent-state boot',
      'agent-state check',
      'agent-state done',
      'agent-state checkpoint',
      'Forbidden',
    ])
      expect(PROTOCOL_BLOCK).toContain(word);
  });
});
