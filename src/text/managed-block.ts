// A block of text that agent-state owns inside a file someone else owns (AGENTS.md, GEMINI.md,
// .codex/config.toml): delimited by marker lines, replaced in place when it changes, appended
// when absent, and removed with the blank line that separated it. Pure functions over text.

/** The first and last line of a managed block. */
export interface BlockMarkers {
  begin: string;
  end: string;
}

/** Markers for Markdown files: HTML comments, invisible when rendered. */
export const MARKDOWN_MARKERS: BlockMarkers = {
  begin: '<!-- agent-state:begin (managed by `agent-state integrate`; edits here are replaced) -->',
  end: '<!-- agent-state:end -->',
};

/** Markers for TOML and shell-like files. */
export const HASH_MARKERS: BlockMarkers = {
  begin: '# >>> agent-state >>> (managed by `agent-state integrate`; edits here are replaced)',
  end: '# <<< agent-state <<<',
};

interface Found {
  lines: string[];
  start: number;
  end: number;
}

// The block's first and last line in `text` (LF line ends); the begin marker is matched by prefix,
// so a reworded one still finds an old block.
function findBlock(text: string, markers: BlockMarkers): Found | null {
  const lines = text.split('\n');
  const beginPrefix = markers.begin.split(' (')[0]!;
  const start = lines.findIndex((l) => l.trimEnd().startsWith(beginPrefix));
  const end = start < 0 ? -1 : lines.findIndex((l, i) => i > start && l.trimEnd() === markers.end);
  return end < 0 ? null : { lines, start, end };
}

/** The block as written into a file: markers around `body` (no trailing newline). */
export function renderBlock(body: string, markers: BlockMarkers): string {
  return `${markers.begin}\n${body.replace(/\n+$/, '')}\n${markers.end}`;
}

/** Whether `text` holds a managed block. */
export function hasBlock(text: string, markers: BlockMarkers): boolean {
  return findBlock(text, markers) !== null;
}

/** The body between the markers, or null when there is no block. */
export function readBlock(text: string, markers: BlockMarkers): string | null {
  const found = findBlock(text, markers);
  return found && found.lines.slice(found.start + 1, found.end).join('\n');
}

/** `text` with the block set to `body`: replaced where it is, or appended after a blank line. */
export function upsertBlock(text: string, body: string, markers: BlockMarkers): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const block = renderBlock(body, markers);
  const found = findBlock(text.replace(/\r\n/g, '\n'), markers);
  if (found) {
    found.lines.splice(found.start, found.end - found.start + 1, block);
    return found.lines.join('\n').replace(/\n/g, eol);
  }
  const tail = block.replace(/\n/g, eol) + eol;
  if (text.trim() === '') return tail;
  return text + (text.endsWith('\n') ? eol : eol + eol) + tail;
}

/** `text` without the block and the blank line before it; unchanged when there is none. */
export function removeBlock(text: string, markers: BlockMarkers): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const found = findBlock(text.replace(/\r\n/g, '\n'), markers);
  if (!found) return text;
  const { lines, end } = found;
  const start =
    found.start > 0 && lines[found.start - 1]!.trim() === '' ? found.start - 1 : found.start;
  lines.splice(start, end - start + 1);
  const result = lines.join('\n');
  return result.trim() === '' ? '' : result.replace(/\n/g, eol);
}
