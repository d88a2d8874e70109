// The rules a tool call is checked against before it runs: the Forbidden globs of goals.md, and
// the current step's denied_tools, allowed_tools and file_scopes. Pure: facts in, findings out.
import { compileForbidden } from '../../state/forbidden.js';
import type { CurrentStep, ForbiddenEntry } from '../../types.js';
import { toolNames } from './tool-paths.js';

/** One rule a tool call breaks. */
export interface ToolFinding {
  kind: 'forbidden' | 'denied-tool' | 'not-allowed-tool' | 'out-of-scope';
  /** The repository path concerned (absent for tool rules; `raw` path when outside the repo). */
  path?: string;
  /** The rule as written (the Forbidden entry, the step's list). */
  rule: string;
  /** One sentence for the agent. */
  message: string;
}

export interface ToolCheckInput {
  tool: string;
  /** The paths the call writes: as named, and relative to the root (null: outside the repository). */
  paths: { raw: string; rel: string | null }[];
  forbidden: readonly ForbiddenEntry[];
  step: CurrentStep | null | undefined;
}

function stepName(step: CurrentStep): string {
  return step.id ? `the current step (${step.id})` : 'the current step';
}

/** Every rule the tool call breaks, tool rules first, then per path. */
export function checkToolCall(input: ToolCheckInput): ToolFinding[] {
  const findings: ToolFinding[] = [];
  const names = toolNames(input.tool);
  const step = input.step ?? null;
  if (step?.denied_tools?.some((t) => names.includes(t.toLowerCase()))) {
    findings.push({
      kind: 'denied-tool',
      rule: `denied_tools: ${step.denied_tools.join(', ')}`,
      message: `${stepName(step)} denies the ${input.tool} tool`,
    });
  } else if (
    step?.allowed_tools?.length &&
    !step.allowed_tools.some((t) => names.includes(t.toLowerCase()))
  ) {
    findings.push({
      kind: 'not-allowed-tool',
      rule: `allowed_tools: ${step.allowed_tools.join(', ')}`,
      message: `${stepName(step)} allows only ${step.allowed_tools.join(', ')}, not ${input.tool}`,
    });
  }
  const forbidden = compileForbidden(input.forbidden);
  const scopes = step?.file_scopes?.length
    ? compileForbidden([{ text: 'file scope', globs: step.file_scopes }])
    : null;
  for (const { raw, rel } of input.paths) {
    const hit = rel === null ? null : forbidden(rel);
    if (hit) {
      findings.push({
        kind: 'forbidden',
        path: rel!,
        rule: hit.rule,
        message: `${rel} is Forbidden (goals.md: "${hit.rule}")`,
      });
    }
    if (step && scopes && (rel === null || !scopes(rel))) {
      findings.push({
        kind: 'out-of-scope',
        path: rel ?? raw,
        rule: `file_scopes: ${step.file_scopes!.join(', ')}`,
        message: `${rel ?? raw} is outside ${stepName(step)}'s file scopes (${step.file_scopes!.join(', ')})`,
      });
    }
  }
  return findings;
}

/** The deny reason shown to the agent when a call is refused (enforce mode). */
export function denyReason(findings: readonly ToolFinding[]): string {
  return `agent-state refused this tool call: ${findings.map((f) => f.message).join('; ')}. Choose another way that keeps to the task's rules; only the user can change them (.agent/state/goals.md, \`agent-state current\`).`;
}

/** The warning added to the agent's context (warn mode). */
export function warningContext(findings: readonly ToolFinding[]): string {
  return `agent-state warning: ${findings.map((f) => f.message).join('; ')}. This breaks a rule of the task: do not go ahead unless the user asked for exactly this.`;
}
