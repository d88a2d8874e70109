// The published schemas are a contract: each has an $id, and every field says what it means.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/fixtures.js';

const dir = join(REPO_ROOT, 'schemas');
const files = readdirSync(dir).filter((f) => f.endsWith('.schema.json'));

// Walks every subschema reachable through properties, items, $defs and additionalProperties.
function undescribed(node: unknown, path: string, out: string[]): string[] {
  if (typeof node !== 'object' || node === null) return out;
  const schema = node as Record<string, unknown>;
  for (const [key, child] of Object.entries(
    (schema.properties ?? {}) as Record<string, Record<string, unknown>>,
  )) {
    if (typeof child.description !== 'string' && typeof child.$ref !== 'string')
      out.push(`${path}.${key}`);
    undescribed(child, `${path}.${key}`, out);
  }
  for (const [key, child] of Object.entries(
    (schema.$defs ?? {}) as Record<string, Record<string, unknown>>,
  )) {
    if (typeof child.description !== 'string') out.push(`${path}.$defs.${key}`);
    undescribed(child, `${path}.$defs.${key}`, out);
  }
  if (schema.items) undescribed(schema.items, `${path}[]`, out);
  if (typeof schema.additionalProperties === 'object')
    undescribed(schema.additionalProperties, `${path}{}`, out);
  return out;
}

describe('schemas/', () => {
  it('holds the protocol schemas', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'config.schema.json',
        'evidence.schema.json',
        'progress.schema.json',
      ]),
    );
  });

  for (const file of files) {
    it(`${file} has an $id, draft 2020-12 and a description on every field`, () => {
      const schema = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema.$id).toBe(`https://unpkg.com/agent-state/schemas/${file}`);
      expect(typeof schema.description).toBe('string');
      expect(undescribed(schema, '', [])).toEqual([]);
    });
  }
});
