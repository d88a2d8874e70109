// `agent-state evidence add|list|show`: the capped, redacted evidence folder.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AgentCommand } from '../agent-command.js';
import { UsageError } from '../../errors.js';
import { findRoot } from '../../state/find-root.js';
import { requireInsideRepo } from '../../state/repo-path.js';
import { type CommandContext } from '../action.js';
import { plural } from '../../text/plural.js';
import { readStdin } from '../read-stdin.js';
import { recordFact } from '../record.js';

interface AddFlags {
  kind: string;
  summary: string;
  body?: string;
  bodyFile?: string;
  raw?: string;
  allowOutside?: boolean;
}

// `--body -` reads stdin; `--body-file F` reads a file (relative to the working directory), inside
// the repository unless --allow-outside.
async function readBody(flags: AddFlags, { cwd, io }: CommandContext): Promise<string | undefined> {
  if (flags.body !== undefined && flags.bodyFile !== undefined)
    throw new UsageError('--body and --body-file cannot be used together', {
      hint: 'give the body one way',
    });
  if (flags.body === '-') return readStdin(io, true);
  if (flags.body !== undefined) return flags.body;
  if (flags.bodyFile === undefined) return undefined;
  const path = resolve(cwd, flags.bodyFile);
  requireInsideRepo(findRoot(cwd).root, path, '--body-file', flags.allowOutside);
  if (!existsSync(path) || !statSync(path).isFile())
    throw new UsageError(`--body-file ${flags.bodyFile}: no such file`, {
      hint: 'name a readable text file',
    });
  return readFileSync(path, 'utf8');
}

export function registerEvidence(program: AgentCommand): void {
  const evidence = program
    .command('evidence')
    .description(
      'the evidence folder: short, redacted summaries of what was done (newest evidence.keep kept)',
    )
    .helpAfter(
      '\nExamples:\n  $ agent-state evidence add --kind test --summary "All 42 tests pass" --raw test.log\n  $ agent-state evidence list\n  $ agent-state evidence show 12',
    );

  evidence
    .command('add')
    .description(
      'add an entry (secrets redacted, body capped at evidence.max_bytes, oldest entries pruned)',
    )
    .requiredOption('--kind <kind>', 'what sort of operation: test, decision, diff, note, ...')
    .requiredOption('--summary <text>', 'one line a restarted agent reads first')
    .option('--body <text>', 'the Markdown body; `-` reads it from stdin')
    .option('--body-file <file>', 'read the body from a file')
    .option(
      '--raw <file>',
      'raw output to keep in .agent/artifacts/ (redacted, same file mode) and reference by sha256',
    )
    .option(
      '--allow-outside',
      'let --raw and --body-file read a file outside the repository (refused by default)',
    )
    .helpAfter(
      `
Examples:
  $ agent-state evidence add --kind decision --summary "Keep the v1 token format" --body "Clients pin it."
  $ npm test 2>&1 | agent-state evidence add --kind test --summary "Auth tests pass" --body -
  $ agent-state evidence add --kind test --summary "Full run" --raw test.log
  $ agent-state evidence add --kind test --summary "CI log" --raw /tmp/ci.log --allow-outside`,
    )
    .run<AddFlags>(async (ctx, _args, flags) => {
      const { addEvidence } = await import('../../evidence/add-evidence.js');
      const body = await readBody(flags, ctx);
      const result = await addEvidence(
        {
          kind: flags.kind,
          summary: flags.summary,
          body,
          rawFile: flags.raw === undefined ? undefined : resolve(ctx.cwd, flags.raw),
          allowOutside: flags.allowOutside === true,
        },
        ctx,
      );
      const notes = [
        result.redactions ? `${plural(result.redactions, 'secret')} redacted` : '',
        result.truncated_bytes ? `body truncated by ${result.truncated_bytes} bytes` : '',
        result.removed.length
          ? `${plural(result.removed.length, 'old entry', 'old entries')} removed`
          : '',
      ].filter(Boolean);
      const { id: evidence, kind, summary } = result.meta;
      const warnings = await recordFact(ctx, { type: 'evidence.added', evidence, kind, summary });
      return {
        text: `Added evidence ${result.meta.id}: ${result.file}${notes.length ? ` (${notes.join('; ')})` : ''}`,
        json: { ...result.meta, file: result.file, removed: result.removed },
        warnings,
      };
    });

  evidence
    .command('list')
    .description('list the entries, oldest first')
    .helpAfter('\nExample:\n  $ agent-state evidence list --json')
    .run(async (ctx) => {
      const { listEvidence } = await import('../../evidence/evidence-folder.js');
      const { formatLocation } = await import('../../errors.js');
      const { entries, problems } = listEvidence(ctx);
      const line = (e: (typeof entries)[number]) =>
        `${e.id}  ${e.at.slice(0, 19).replace('T', ' ')}  ${e.kind.padEnd(10)}  ${e.summary}`;
      const text = entries.length
        ? entries.map(line).join('\n')
        : '(no evidence yet: add an entry with `agent-state evidence add --kind note --summary "..."`)';
      return {
        text,
        json: {
          entries: entries.map(({ body: _body, ...summary }) => summary),
          problems: problems.map((p) => ({
            at: formatLocation(p.location),
            message: p.message,
            hint: p.hint,
          })),
        },
        warnings: problems.map((p) => ({
          file: p.location.file,
          line: p.location.line,
          message: p.message,
        })),
      };
    });

  evidence
    .command('show')
    .argument('<id>', 'the entry id (12 or 000012)')
    .description('print one entry')
    .helpAfter('\nExample:\n  $ agent-state evidence show 12')
    .run(async (ctx, [id]) => {
      const { readEvidence } = await import('../../evidence/evidence-folder.js');
      const entry = readEvidence(id!, ctx);
      const { style } = ctx.out;
      const refs = (entry.refs ?? []).map(
        (r) =>
          `  ref ${r.path} ${r.sha256.slice(0, 19)}…${r.bytes === undefined ? '' : ` (${r.bytes} bytes)`}`,
      );
      const head = [
        style.bold(`${entry.id} ${entry.kind}: ${entry.summary}`),
        style.dim(
          `${entry.at} — ${entry.file}${entry.redactions ? `, ${plural(entry.redactions, 'secret')} redacted` : ''}${entry.truncated_bytes ? `, ${entry.truncated_bytes} bytes truncated` : ''}`,
        ),
        ...refs,
      ];
      return { text: `${head.join('\n')}\n\n${entry.body}`.trimEnd(), json: entry };
    });
}
