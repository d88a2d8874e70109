// The config cache (.agent/log/config.json) spares the hot paths the YAML parser; a config.yaml
// that holds a secret is never copied into it (agent-state writes no secret to disk).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cachedConfig, configCachePath } from '../../src/state/config-cache.js';
import { findRoot } from '../../src/state/find-root.js';
import { gitdir, runCli, writeFiles } from '../helpers/fixtures.js';
import { SECRETS } from '../helpers/secrets.js';

describe('the config cache', () => {
  it('keeps an ordinary config, and none that holds a secret', async () => {
    const repo = gitdir({ 'README.md': '# x\n' });
    expect((await runCli(repo, ['init', '--goal', 'Ship it'])).code).toBe(0);
    const paths = findRoot(repo);
    expect((await cachedConfig(paths)).boot.stall_threshold).toBe(3);
    expect(existsSync(configCachePath(paths))).toBe(true);

    const token = SECRETS.github_token!;
    writeFiles(repo, {
      '.agent/config.yaml': `version: 1\ntest: GITHUB_TOKEN=${token} npm test\n`,
    });
    expect((await cachedConfig(paths)).test).toBe(`GITHUB_TOKEN=${token} npm test`);
    expect(existsSync(configCachePath(paths))).toBe(false);
    // The hot path still works, parsing config.yaml each time.
    const hook = await runCli(repo, ['event', 'tool.finished', '--field', 'name=Read']);
    expect(hook.code, hook.stderr).toBe(0);
    const cache = configCachePath(paths);
    expect(existsSync(cache) ? readFileSync(cache, 'utf8') : '').not.toContain(token);
    expect(readFileSync(join(repo, '.agent', 'config.yaml'), 'utf8')).toContain(token);
  });

  it('is not a writer’s pass for a config.yaml changed since', async () => {
    const repo = gitdir({ 'README.md': '# x\n' });
    expect((await runCli(repo, ['init', '--goal', 'Ship it'])).code).toBe(0);
    expect((await runCli(repo, ['status'])).code).toBe(0);
    const paths = findRoot(repo);
    expect(existsSync(configCachePath(paths))).toBe(true);
    writeFiles(repo, { '.agent/config.yaml': 'version: 1\nboot:\n  level: loud\n' });
    const before = readFileSync(paths.progress, 'utf8');
    const next = await runCli(repo, ['next', 'Write the lexer']);
    expect(next.code).toBe(2);
    expect(next.stderr).toContain('config.yaml');
    expect(readFileSync(paths.progress, 'utf8')).toBe(before);
  });
});
