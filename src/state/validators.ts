// Schema validation through validators precompiled at build time (scripts/build.mjs): compiling
// a schema at run time would cost ~80 ms of start-up on every command.
import type { ErrorObject } from 'ajv';
import { AgentStateError } from '../errors.js';
import { requireValidatorFile } from './validator-file.js';

/** The schemas shipped in schemas/, by file stem. */
export type SchemaName = 'progress' | 'config' | 'evidence' | (string & {});

interface StandaloneValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

const cache = new Map<string, StandaloneValidator>();

function load(name: SchemaName): StandaloneValidator {
  let validate = cache.get(name);
  if (!validate) {
    try {
      const loaded = requireValidatorFile(name) as
        StandaloneValidator | { default: StandaloneValidator };
      validate = typeof loaded === 'function' ? loaded : loaded.default;
    } catch (cause) {
      throw new AgentStateError('INTERNAL', `the ${name} validator is missing`, {
        cause,
        hint: 'run `npm run build` (validators are generated at build time)',
      });
    }
    cache.set(name, validate);
  }
  return validate;
}

/** Validates `data` against a shipped schema; returns ajv's errors (empty when valid). */
export function validateAgainst(name: SchemaName, data: unknown): ErrorObject[] {
  const validate = load(name);
  return validate(data) ? [] : [...(validate.errors ?? [])];
}
