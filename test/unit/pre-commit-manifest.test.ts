import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { preCommitManifest, preCommitSnippet } from '../../src/git-hooks/pre-commit-framework.js';
import { REPO_ROOT } from '../helpers/fixtures.js';

describe('.pre-commit-hooks.yaml', () => {
  it('ships exactly what the generator produces', () => {
    const shipped = readFileSync(join(REPO_ROOT, '.pre-commit-hooks.yaml'), 'utf8');
    expect(parse(shipped)).toEqual(parse(preCommitManifest()));
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      files: string[];
    };
    expect(pkg.files).toContain('.pre-commit-hooks.yaml');
  });

  it('defines hooks that never block when agent-state is missing and run once per stage', () => {
    const hooks = parse(preCommitManifest()) as Record<string, unknown>[];
    expect(hooks.map((h) => h.id)).toEqual([
      'agent-state',
      'agent-state-post-checkout',
      'agent-state-post-merge',
    ]);
    for (const hook of hooks) {
      expect(hook).toMatchObject({ language: 'system', pass_filenames: false, always_run: true });
      expect(String(hook.entry)).toMatch(/^sh -c 'if \[ -x node_modules\/\.bin\/agent-state \]/);
      expect(String(hook.entry)).not.toContain('npx');
    }
    expect(hooks[1]!.stages).toEqual(['post-checkout']);
  });

  it('prints a repo: local snippet that parses under repos:', () => {
    const config = parse(`repos:\n${preCommitSnippet(['pre-commit'])}`) as {
      repos: { repo: string; hooks: { id: string }[] }[];
    };
    expect(config.repos[0]!.repo).toBe('local');
    expect(config.repos[0]!.hooks.map((h) => h.id)).toEqual(['agent-state']);
  });
});
