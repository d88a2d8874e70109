import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRedactor, redactSecrets, redactValue } from '../../src/text/redact.js';
import { SECRETS, sensitivePart } from '../helpers/secrets.js';

describe('redactSecrets', () => {
  for (const [kind, secret] of Object.entries(SECRETS)) {
    it(`redacts ${kind}`, () => {
      const { text, redactions } = redactSecrets(`before\nvalue: ${secret} after\nend\n`);
      expect(text).not.toContain(sensitivePart(kind, secret));
      expect(text).toContain('[REDACTED:');
      expect(text.startsWith('before\n')).toBe(true);
      expect(text.endsWith('end\n')).toBe(true);
      expect(redactions).toBeGreaterThanOrEqual(1);
    });
  }

  it('keeps the key of an assignment and counts a token once', () => {
    const { text, redactions, kinds } = redactSecrets(
      `GITHUB_TOKEN=${SECRETS.github_token}\nDB_PASSWORD='x y z'\n`,
    );
    expect(text).toBe('GITHUB_TOKEN=[REDACTED:github_token]\nDB_PASSWORD=[REDACTED:secret]\n');
    expect(redactions).toBe(2);
    expect(kinds).toEqual({ github_token: 1, secret: 1 });
  });

  it('leaves ordinary text alone', () => {
    const text = 'Tests  12 passed (12)\nThe secret to speed is caching.\nsk-short\npassword:\n';
    expect(redactSecrets(text)).toEqual({ text, redactions: 0, kinds: {} });
  });

  it('removes a whole private key block, even when unterminated', () => {
    expect(redactSecrets(`a\n${SECRETS.private_key}\nb\n`).text).toBe(
      'a\n[REDACTED:private_key]\nb\n',
    );
    expect(redactSecrets('x -----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\nBBBB').text).toBe(
      'x [REDACTED:private_key]\n',
    );
  });
});

describe('createRedactor', () => {
  it('redacts a stream split at any byte the same as the whole text', () => {
    const whole = `log line\n${SECRETS.github_token} and ${SECRETS.npm_token}\n${SECRETS.private_key}\nok\n`;
    for (const size of [1, 3, 7, 64]) {
      const redactor = createRedactor();
      let out = '';
      for (let i = 0; i < whole.length; i += size) out += redactor.push(whole.slice(i, i + size));
      out += redactor.end();
      expect(out).toBe(redactSecrets(whole).text);
      expect(redactor.count).toBe(3);
    }
  });
});

describe('redactSecrets on texts without a secret', () => {
  it('gives what the full redactor gives, for any mix of secrets and noise', () => {
    const pieces = [...Object.values(SECRETS), 'token', 'key: ', '=', ' ', '\n', 'sk-', 'pass'];
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string())), (parts) => {
        const text = parts.join('');
        const redactor = createRedactor();
        const full = redactor.push(text) + redactor.end();
        expect(redactSecrets(text).text).toBe(full);
        expect(redactSecrets(text).redactions).toBe(redactor.count);
      }),
    );
  });
});

describe('redactValue', () => {
  it('redacts every string of a plain value and keeps keys and other values', () => {
    const value = { next_action: `use ${SECRETS.github_token}`, n: 3, list: [SECRETS.npm_token] };
    expect(redactValue(value)).toEqual({
      next_action: 'use [REDACTED:github_token]',
      n: 3,
      list: ['[REDACTED:npm_token]'],
    });
  });
});
