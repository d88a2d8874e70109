// The current step (pure, on a progress value): what is being done now and the limits that apply
// while doing it. Each given field replaces the stored one; an empty list or text removes it.
import { UsageError } from '../errors.js';
import type { CurrentStep, Progress } from '../types.js';
import { MAX_TEXT } from './text-input.js';

/** The fields to change; undefined leaves a field as it is. */
export interface CurrentStepChange {
  objective?: string;
  expected?: string;
  allowTools?: string[];
  denyTools?: string[];
  scopes?: string[];
  constraints?: string[];
  /** Remove the whole current step first. */
  clear?: boolean;
}

function text(value: string, what: string): string {
  const trimmed = value.trim();
  if (trimmed.length > MAX_TEXT)
    throw new UsageError(
      `${what} has ${trimmed.length} characters, over the limit of ${MAX_TEXT}`,
      {
        hint: 'keep it to a sentence or two',
      },
    );
  return trimmed;
}

/** Splits `a,b` and repeated values into a clean list of tool names. */
export function toolList(values: readonly string[]): string[] {
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** Throws unless `glob` is a POSIX path glob relative to the repository root. */
export function checkScope(glob: string): string {
  const value = glob.trim();
  if (
    value === '' ||
    value.startsWith('/') ||
    /^[A-Za-z]:/.test(value) ||
    value.includes('\\') ||
    value.split('/').includes('..')
  ) {
    throw new UsageError(`--scope "${glob}" is not a path glob inside the repository`, {
      hint: 'use a POSIX glob relative to the repository root, without `..`: --scope "src/routes/**"',
    });
  }
  return value;
}

function assign<K extends keyof CurrentStep>(
  step: CurrentStep,
  key: K,
  value: CurrentStep[K] | undefined,
): void {
  if (value === undefined) return;
  if ((Array.isArray(value) && value.length === 0) || value === '') delete step[key];
  else step[key] = value;
}

/** Applies `change` to `progress.current_step`; returns the new step (null when none is left). */
export function setCurrentStep(progress: Progress, change: CurrentStepChange): CurrentStep | null {
  const step: CurrentStep = change.clear ? {} : { ...(progress.current_step ?? {}) };
  assign(
    step,
    'objective',
    change.objective === undefined ? undefined : text(change.objective, '--objective'),
  );
  assign(
    step,
    'expected_output',
    change.expected === undefined ? undefined : text(change.expected, '--expected'),
  );
  assign(step, 'allowed_tools', change.allowTools && toolList(change.allowTools));
  assign(step, 'denied_tools', change.denyTools && toolList(change.denyTools));
  assign(
    step,
    'file_scopes',
    change.scopes && change.scopes.filter((s) => s.trim() !== '').map(checkScope),
  );
  assign(
    step,
    'constraints',
    change.constraints &&
      change.constraints.map((c) => text(c, '--constraint')).filter((c) => c !== ''),
  );
  const allowed = new Set(step.allowed_tools ?? []);
  const both = (step.denied_tools ?? []).filter((t) => allowed.has(t));
  if (both.length > 0)
    throw new UsageError(`${both.join(', ')} is both allowed and denied`, {
      hint: 'name each tool in only one of --allow-tools and --deny-tools',
    });
  progress.current_step = Object.keys(step).length === 0 ? null : step;
  return progress.current_step;
}
