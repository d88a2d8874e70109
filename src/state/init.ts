// `init`: scaffold .agent/ from templates/. Idempotent: an existing file is never changed unless
// `force` is set, and a second run changes no byte.
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { UsageError } from '../errors.js';
import { redactSecrets } from '../text/redact.js';
import { packageRoot } from '../package-root.js';
import type { BaseOptions, Warning } from '../types.js';
import { tempPathFor, writeFileAtomic, fsyncDirectory } from './atomic-write.js';
import { locateRoot } from './find-root.js';
import { parseGoals, setGoalAnchor } from './goals.js';
import { displayPath, statePaths, type StatePaths } from './paths.js';
import { parseProgress } from './progress.js';
import { rememberProgress } from './progress-cache.js';

export interface InitOptions extends BaseOptions {
  /** The goal anchor to write into a new goals.md. */
  goal?: string;
  /** The test command for a new config.yaml. */
  test?: string;
  /** Key-file globs for a new config.yaml (default: the usual manifests and lockfiles present). */
  keyFiles?: string[];
  /** Overwrite existing files with fresh ones. */
  force?: boolean;
}

export interface InitResult {
  root: string;
  /** Repository-relative paths, POSIX-style. */
  created: string[];
  kept: string[];
  overwritten: string[];
  /** Whether the root is inside a git work tree. */
  git: boolean;
  warnings: Warning[];
}

// Manifests and lockfiles whose change alters the build: fingerprinted when present.
const COMMON_KEY_FILES = [
  ...['package.json', 'package-lock.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lockb'],
  ...['tsconfig.json', 'Cargo.toml', 'Cargo.lock', 'go.mod', 'go.sum'],
  ...['pyproject.toml', 'poetry.lock', 'uv.lock', 'requirements.txt'],
  ...['Gemfile.lock', 'pom.xml', 'build.gradle', 'Makefile'],
];

function template(name: string): string {
  return readFileSync(join(packageRoot(), 'templates', name), 'utf8');
}

function configText(root: string, options: InitOptions): string {
  const doc = parseDocument(template('config.yaml'));
  if (options.test !== undefined) doc.set('test', options.test.trim() === '' ? null : options.test);
  const keyFiles = options.keyFiles ?? COMMON_KEY_FILES.filter((f) => existsSync(`${root}/${f}`));
  const node = doc.createNode(keyFiles);
  node.flow = keyFiles.length === 0;
  doc.set('key_files', node);
  return doc.toString({ lineWidth: 0 });
}

function goalsText(options: InitOptions): string {
  const text = template('goals.md');
  return options.goal && options.goal.trim() !== ''
    ? setGoalAnchor(text, redactSecrets(options.goal).text)
    : text;
}

// Creates `path` only if absent, atomically: write a temp file, then hard-link it into place
// (link fails when the target exists, so two concurrent inits cannot clobber each other).
function createExclusive(path: string, content: string): boolean {
  const temp = tempPathFor(path);
  writeFileSync(temp, content, { flag: 'wx' });
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Creates (or completes) the task directory for `cwd`: at the git top level, or `cwd` outside git. */
export function initState(options: InitOptions = {}): InitResult {
  if (options.goal !== undefined && options.goal.trim() === '')
    throw new UsageError('--goal is empty', {
      hint: 'give the goal as one sentence: --goal "Make X do Y"',
    });
  const info = locateRoot(options.cwd);
  const paths: StatePaths = statePaths(info.root);
  const result: InitResult = {
    root: info.root,
    created: [],
    kept: [],
    overwritten: [],
    git: info.gitRoot !== null,
    warnings: [],
  };
  for (const dir of [paths.agentDir, paths.stateDir, paths.evidenceDir])
    mkdirSync(dir, { recursive: true });

  const files: [string, () => string][] = [
    [paths.config, () => configText(info.root, options)],
    [paths.goals, () => goalsText(options)],
    [paths.progress, () => template('progress.yaml')],
    [paths.gitignore, () => template('gitignore')],
  ];
  for (const [path, content] of files) {
    const rel = displayPath(paths, path);
    if (options.force && existsSync(path)) {
      writeFileAtomic(path, content());
      result.overwritten.push(rel);
    } else (createExclusive(path, content()) ? result.created : result.kept).push(rel);
  }
  fsyncDirectory(paths.stateDir);
  // As each write of it does: the hooks after init read its value without YAML or ajv.
  const progressRel = displayPath(paths, paths.progress);
  if (!result.kept.includes(progressRel)) {
    const text = readFileSync(paths.progress, 'utf8');
    const { value } = parseProgress(text, progressRel);
    if (value) rememberProgress(paths, text, value);
  }
  result.warnings.push(...keptButDifferent(paths, options, result));
  return result;
}

// Options that only shape new files: say so when the file was kept and disagrees.
function keptButDifferent(paths: StatePaths, options: InitOptions, result: InitResult): Warning[] {
  const warnings: Warning[] = [];
  const goalsRel = displayPath(paths, paths.goals);
  if (options.goal && result.kept.includes(goalsRel)) {
    const { goals } = parseGoals(readFileSync(paths.goals, 'utf8'), goalsRel);
    const wanted = options.goal.replace(/\s+/g, ' ').trim();
    if (goals.anchor !== wanted)
      warnings.push({
        file: goalsRel,
        message: goals.anchor
          ? 'kept the existing goal anchor; run `agent-state goal "..."` to change it'
          : 'goals.md has no anchor; run `agent-state goal "..."` to set it',
      });
  }
  const configRel = displayPath(paths, paths.config);
  if (
    (options.test !== undefined || options.keyFiles !== undefined) &&
    result.kept.includes(configRel)
  ) {
    warnings.push({
      file: configRel,
      message: 'kept the existing config.yaml; edit it to change test or key_files',
    });
  }
  return warnings;
}
