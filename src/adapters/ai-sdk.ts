// agent-state inside an AI SDK (`ai` 7) agent, in-process: a language-model middleware that gives
// the model the boot prompt and the status changes, and a tool-set wrapper that records each call
// and refuses a call on a Forbidden path before it runs. Only `ai`'s types are imported.
import type { LanguageModelMiddleware, ToolExecutionOptions, ToolSet } from 'ai';
import { boot } from '../boot/boot.js';
import { describeError, errorText } from '../error-report.js';
import { recordEvent } from '../events/append.js';
import type { EventInput } from '../events/types.js';
import { findRoot } from '../state/find-root.js';
import { publishStatusTo } from '../status/publish-to.js';
import { guardForbidden } from '../hosts/forbidden-guard.js';
import { bootFact } from '../boot/boot-fact.js';
import { recordFacts } from '../hosts/host-hook-context.js';
import { denyReason } from '../hosts/tool-check.js';

export interface AgentStateAiOptions {
  /** Where the task's state is found. Default `process.cwd()`. */
  cwd?: string;
  /** The agent acting (docs/multi-agent.md). Default `AGENT_STATE_AGENT`. */
  agent?: string;
}

export interface WithAgentStateOptions extends AgentStateAiOptions {
  /** The paths a call touches. Default: its `path`, `file_path`, `filePath` and `paths` arguments. */
  paths?: (toolName: string, input: unknown) => string[];
}

/** The status cursor the middleware publishes to (`agent-state status --publish delta --consumer ai-sdk`). */
const CONSUMER = 'ai-sdk';

type Prompt = Parameters<
  NonNullable<LanguageModelMiddleware['transformParams']>
>[0]['params']['prompt'];

// What changed in the status since the last call (`reset`: the baseline later deltas build on).
async function statusDelta({ cwd, agent }: AgentStateAiOptions, reset = false): Promise<string> {
  const publish = { cwd, agent, strategy: 'delta', consumer: CONSUMER, reset } as const;
  return (await publishStatusTo(publish)).output ?? '';
}

// The boot prompt (counted and recorded as a boot), then the status baseline.
async function bootContext(options: AgentStateAiOptions): Promise<string> {
  const base = { cwd: options.cwd, agent: options.agent };
  const result = await boot({ ...base, level: 'auto', source: 'startup' });
  await recordEvent(findRoot(options.cwd), bootFact(result), base);
  const status = await statusDelta(options, true);
  return status ? `${result.text}\n\n${status}` : result.text;
}

/**
 * A middleware for `wrapLanguageModel({ model, middleware: agentStateMiddleware() })`: the boot
 * prompt, rendered at the first call, heads the system prompt of every call; after each batch of
 * tool results the model gets what changed in the status. What a call was told is told again, at
 * the same place, in every later call, so the history the model sees never changes.
 */
export function agentStateMiddleware(options: AgentStateAiOptions = {}): LanguageModelMiddleware {
  let booted: Promise<string> | undefined;
  // The status text after each batch of tool results, by the batch's last tool call id.
  const told = new Map<string, string>();
  return {
    specificationVersion: 'v4',
    async transformParams({ params }) {
      booted ??= bootContext(options).catch((error: unknown) => {
        booted = undefined;
        throw error;
      });
      const prompt: Prompt = [{ role: 'system', content: await booted }];
      for (const message of params.prompt) {
        prompt.push(message);
        const last = message.role === 'tool' ? message.content.at(-1) : undefined;
        if (!last || last.type !== 'tool-result') continue;
        let status = told.get(last.toolCallId);
        if (status === undefined) told.set(last.toolCallId, (status = await statusDelta(options)));
        if (status) prompt.push({ role: 'user', content: [{ type: 'text', text: status }] });
      }
      return { ...params, prompt };
    },
  };
}

// `path`, `file_path`, `filePath` (strings) and `paths` (strings) of a tool's input.
function pathArguments(input: unknown): string[] {
  if (typeof input !== 'object' || input === null) return [];
  const args = input as Record<string, unknown>;
  const one = [args.path, args.file_path, args.filePath].filter((p) => typeof p === 'string');
  const many = Array.isArray(args.paths) ? args.paths.filter((p) => typeof p === 'string') : [];
  return [...one, ...many] as string[];
}

// Why the call must not run (a Forbidden path, or rules that cannot be read), or null.
function refusal(name: string, input: unknown, options: WithAgentStateOptions): string | null {
  const raw = options.paths ? options.paths(name, input) : pathArguments(input);
  if (raw.length === 0) return null;
  const cwd = options.cwd ?? process.cwd();
  try {
    const tool = { name, input: (input ?? {}) as Record<string, unknown> };
    const writes = raw.map((path) => ({ path, how: 'write' as const }));
    const { mode, findings } = guardForbidden(tool, cwd, findRoot(cwd), process.env, writes);
    return mode === 'enforce' && findings.length > 0 ? denyReason(findings) : null;
  } catch (error) {
    // The guard fails closed: without the Forbidden rules no path is known to be allowed.
    return `agent-state refused this tool call: the Forbidden rules could not be read (${errorText(describeError(error))})`;
  }
}

// A log that cannot be written must not fail the tool call.
const record = ({ cwd, agent }: AgentStateAiOptions, facts: EventInput[]) =>
  recordFacts({ cwd, agent }, facts);

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

type Execute = (input: unknown, options: ToolExecutionOptions<unknown>) => unknown;

function guarded(name: string, execute: Execute, options: WithAgentStateOptions): Execute {
  return (input, callOptions) => {
    const refused = refusal(name, input, options);
    if (refused !== null)
      return record(options, [{ type: 'permission.denied', tool: name, permission: refused }]).then(
        () => Promise.reject(new Error(refused)),
      );
    const started = Date.now();
    const recorded = record(options, [{ type: 'tool.started', name }]);
    const end = async (error?: unknown) => {
      const facts: EventInput[] = [
        { type: 'tool.finished', name, ok: error === undefined, duration_ms: Date.now() - started },
      ];
      const message = error instanceof Error ? error.message : String(error);
      if (error !== undefined)
        facts.push({ type: 'error', tool: name, message: message.slice(0, 500) });
      await recorded;
      await record(options, facts);
    };
    let output: unknown;
    try {
      output = execute(input, callOptions);
    } catch (error) {
      output = Promise.reject(error);
    }
    // A streaming tool stays a stream: its end is the call's end.
    if (isAsyncIterable(output))
      return (async function* () {
        try {
          yield* output;
        } catch (error) {
          await end(error);
          throw error;
        }
        await end();
      })();
    return Promise.resolve(output).then(
      async (value) => (await end(), value),
      async (error: unknown) => {
        await end(error);
        throw error;
      },
    );
  };
}

/**
 * The same tools, each call recorded as `tool.started` / `tool.finished` (and an `error` when it
 * throws); a call whose path arguments fall in a Forbidden zone is refused: `execute` does not
 * run and the model gets the reason as the tool's error.
 */
export function withAgentState<TOOLS extends ToolSet>(
  tools: TOOLS,
  options: WithAgentStateOptions = {},
): TOOLS {
  const wrapped: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute as Execute | undefined;
    wrapped[name] = execute ? { ...tool, execute: guarded(name, execute, options) } : tool;
  }
  return wrapped as TOOLS;
}
