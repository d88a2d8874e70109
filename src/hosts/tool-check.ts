// The rules a tool call is checked against before it runs: the Forbidden globs of goals.md, and
// the current step's denied_tools, allowed_tools and file_scopes. Pure: facts in, findings out.
import { ALLOW_FORBIDDEN_ENV, compileForbidden } from '../state/forbidden.js';
import type { CurrentStep, ForbiddenEntry } from '../types.js';
import { toolNames } from '../events/tool-names.js';

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
  /** The file system ignores case (caseInsensitive). */
  nocase?: boolean;
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
  const forbidden = compileForbidden(input.forbidden, { nocase: input.nocase });
  const scopes = step?.file_scopes?.length
    ? compileForbidden([{ text: 'file scope', globs: step.file_scopes }])
    : null;
  for (const { raw, rel } of input.paths) {
    const hit = rel === null ? null : forbidden(rel);
    if (hit)
      findings.push({
        kind: 'forbidden',
        path: rel!,
        rule: hit.rule,
        message: `${rel} is Forbidden (goals.md: "${hit.rule}")`,
      });
    if (step && scopes && (rel === null || !scopes(rel)))
      findings.push({
        kind: 'out-of-scope',
        path: rel ?? raw,
        rule: `file_scopes: ${step.file_scopes!.join(', ')}`,
        message: `${rel ?? raw} is outside ${stepName(step)}'s file scopes (${step.file_scopes!.join(', ')})`,
      });
  }
  return findings;
}

/** How each kind of rule is checked: Forbidden globs, and the current step's limits. */
export interface ToolCheckModes {
  forbidden: 'enforce' | 'warn' | 'off';
  step: 'enforce' | 'warn' | 'off';
}

/**
 * The modes from the config: `integrations.forbidden` (default enforce) and
 * `integrations.pre_tool_use` (the step's limits, default warn). AGENT_STATE_ALLOW_FORBIDDEN=1 in
 * the host's environment, the user's approval, turns a Forbidden refusal into a warning.
 */
export function toolCheckModes(
  integrations: { forbidden?: ToolCheckModes['forbidden']; pre_tool_use: ToolCheckModes['step'] },
  env: NodeJS.ProcessEnv,
): ToolCheckModes {
  let forbidden = integrations.forbidden ?? 'enforce';
  if (forbidden === 'enforce' && env[ALLOW_FORBIDDEN_ENV] === '1') forbidden = 'warn';
  return { forbidden, step: integrations.pre_tool_use };
}

// Host names as the user knows them, for "restart <host> with ...".
const HOST_TITLES: Record<string, string> = {
  claude: 'Claude Code',
  codex: 'Codex',
  gemini: 'Gemini CLI',
  opencode: 'OpenCode',
};

/**
 * The deny reason shown to the agent when a call is refused. It names the rule, tells the agent
 * to ask the user rather than work around it, and says how the user approves. No closing period:
 * Codex appends ". Command: ..." to it.
 */
export function denyReason(findings: readonly ToolFinding[], host?: string): string {
  const what = findings.map((f) => f.message).join('; ');
  const forbidden = findings.some((f) => f.kind === 'forbidden');
  const hostName = (host && HOST_TITLES[host]) ?? 'the agent host';
  const how = forbidden
    ? `Do not try another way to make this change: ask the user. Only the user can allow it, by changing .agent/state/goals.md themselves or by restarting ${hostName} with ${ALLOW_FORBIDDEN_ENV}=1`
    : 'Do not try another way around it: ask the user. Only the user can change the current step (`agent-state current`)';
  return `agent-state refused this tool call: ${what}. ${how}`;
}

/** The warning added to the agent's context (warn mode). */
export function warningContext(findings: readonly ToolFinding[]): string {
  return `agent-state warning: ${findings.map((f) => f.message).join('; ')}. This breaks a rule of the task: do not go ahead unless the user asked for exactly this.`;
}
