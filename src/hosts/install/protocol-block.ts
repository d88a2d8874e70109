// The instructions block for AGENTS.md / CLAUDE.md / GEMINI.md: teaches any agent the protocol
// in well under 400 tokens (a test counts them). Read state, boot, check before redoing, done,
// checkpoint. Hosts without hooks rely on it alone; hosts with hooks get it as a reminder.
import { MARKDOWN_MARKERS } from '../../text/managed-block.js';
import { textEdit, type FileEdit } from './file-edits.js';

/** The body of the managed block (Markdown). */
export const PROTOCOL_BLOCK = `## Task state: agent-state

This repository keeps the task's durable state in \`.agent/\` (goal, constraints, forbidden paths,
plan, completion markers, evidence). Your context may be compacted or restarted at any time: the
files are the memory, not the conversation.

- Start of a session or after a compaction: run \`agent-state boot\` and follow it. It gives the
  goal, the constraints and forbidden paths verbatim, what is done, and \`next_action\`.
- Never edit a path listed under Forbidden in \`.agent/state/goals.md\`.
- Before redoing a step, run \`agent-state check <id>\`: exit 0 means it is done and its files are
  unchanged, so skip it.
- When a step is finished: \`agent-state done <id> --files <paths>\`.
- Record the next step: \`agent-state next "<what to do next>"\`.
- After meaningful progress: \`agent-state checkpoint -m "<summary>"\` (it verifies the tree and
  runs the tests first).
- Status at any time: \`agent-state status\`.`;

/** The FileEdit that puts the protocol block into a Markdown instructions file. */
export const protocolBlockEdit = (path: string, display: string): FileEdit =>
  textEdit(path, display, PROTOCOL_BLOCK, MARKDOWN_MARKERS);
