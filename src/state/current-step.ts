// The current step (pure, on a progress value): what is being done now and the limits that apply
// while doing it. Each given field replaces the stored one; an empty list or text removes it.
import { UsageError } from '../errors.js';
import type { CurrentStep, Progress } from '../types.js';
import { requireText } from './text-input.js';

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

// Throws unless `glob` is a POSIX path glob relative to the repository root.
function checkScope(glob: string): string {
  const value = glob.trim();
  if (
    value === '' ||
    value.startsWith('/') ||
    /^[A-Za-z]:/.test(value) ||
    value.includes('\\') ||
    value.split('/').includes('..')
  )
    throw new UsageError(`--scope "${glob}" is not a path glob inside the repository`, {
      hint: 'use a POSIX glob relative to the repository root, without `..`: --scope "src/routes/**"',
    });
  return value;
}

/** Applies `change` to `progress.current_step`; returns the new step (null when none is left). */
export function setCurrentStep(progress: Progress, change: CurrentStepChange): CurrentStep | null {
  const step: Record<string, unknown> = change.clear ? {} : { ...(progress.current_step ?? {}) };
  const text = (value: string, what: string) =>
    requireText(value, what, undefined, 'keep it to a sentence or two');
  // `a,b` and repeated values, as one clean list of tool names.
  const tools = (values?: string[]) =>
    values
      ?.flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '');
  const fields: Partial<Record<keyof CurrentStep, string | string[]>> = {
    objective: change.objective === undefined ? undefined : text(change.objective, '--objective'),
    expected_output:
      change.expected === undefined ? undefined : text(change.expected, '--expected'),
    allowed_tools: tools(change.allowTools),
    denied_tools: tools(change.denyTools),
    file_scopes: change.scopes?.filter((s) => s.trim() !== '').map(checkScope),
    constraints: change.constraints?.map((c) => text(c, '--constraint')).filter((c) => c !== ''),
  };
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (value.length === 0) delete step[key];
    else step[key] = value;
  }
  const allowed = new Set((step.allowed_tools as string[] | undefined) ?? []);
  const both = ((step.denied_tools as string[] | undefined) ?? []).filter((t) => allowed.has(t));
  if (both.length > 0)
    throw new UsageError(`${both.join(', ')} is both allowed and denied`, {
      hint: 'name each tool in only one of --allow-tools and --deny-tools',
    });
  progress.current_step = Object.keys(step).length === 0 ? null : (step as CurrentStep);
  return progress.current_step;
}
