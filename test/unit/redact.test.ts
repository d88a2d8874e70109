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

describe('redactSecrets on the common forms of a credential', () => {
  const cases: [string, string][] = [
    [
      'curl -H "Authorization: Basic dXNlcjpwYXNzd29yZA==" https://api',
      'curl -H "Authorization: Basic [REDACTED:basic_auth]" https://api',
    ],
    [
      'git remote add origin https://alice:s3cr3t-pw@github.com/o/r.git',
      'git remote add origin https://alice:[REDACTED:url_password]@github.com/o/r.git',
    ],
    [
      'DATABASE_URL=postgres://app:p%40ss@db:5432/app',
      'DATABASE_URL=postgres://app:[REDACTED:url_password]@db:5432/app',
    ],
    ['login --password hunter2 --user bob', 'login --password [REDACTED:password_flag] --user bob'],
    ["psql --db-password 'two words'", 'psql --db-password [REDACTED:password_flag]'],
    ['keytool -list -storepass changeit', 'keytool -list -storepass [REDACTED:password_flag]'],
    ['mysql -u root -psecret42 shop', 'mysql -u root -p[REDACTED:mysql_password] shop'],
    ['mysqldump -h db -p"x y" shop', 'mysqldump -h db -p[REDACTED:mysql_password] shop'],
    [
      'Cookie: session=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl',
      'Cookie: session=[REDACTED:jwt]',
    ],
  ];
  for (const [input, output] of cases)
    it(`redacts ${input.split(' ')[0]} ${output.match(/REDACTED:(\w+)/)![1]}`, () => {
      expect(redactSecrets(input).text).toBe(output);
    });

  it('leaves alone what only looks like one', () => {
    for (const text of [
      'cat: /etc/passwd: no such directory',
      'passwd: no such directory',
      'password: not set',
      'see https://github.com/o/r and git@github.com:o/r.git or ssh://git@host/x',
      'mail bob@example.com at https://example.com/a@b',
      'mkdir -p build && cp -pr src out',
      'Basic usage: run the tests',
      'Basic authentication is disabled',
      'run with --max-tokens 100 --token-limit 5 --bypass cache',
      'keytool -storepass -keypass',
      'mysql -p shop (asks for the password)',
      'eyJ alone, or a.b.c',
    ])
      expect(redactSecrets(text).text, text).toBe(text);
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
