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

// Matches lines by prefix so a reworded begin marker still finds an old block.
function markerPrefix(marker: string): string {
  return marker.split(' (')[0]!;
}

interface Found {
  start: number;
  end: number;
}

function findBlock(text: string, markers: BlockMarkers): Found | null {
  const lines = text.split('\n');
  const beginPrefix = markerPrefix(markers.begin);
  const start = lines.findIndex((l) => l.trimEnd().startsWith(beginPrefix));
  if (start < 0) return null;
  const endOffset = lines.slice(start + 1).findIndex((l) => l.trimEnd() === markers.end);
  if (endOffset < 0) return null;
  return { start, end: start + 1 + endOffset };
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
  if (!found) return null;
  return text
    .split('\n')
    .slice(found.start + 1, found.end)
    .join('\n');
}

/** `text` with the block set to `body`: replaced where it is, or appended after a blank line. */
export function upsertBlock(text: string, body: string, markers: BlockMarkers): string {
  const block = renderBlock(body, markers);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const found = findBlock(text.replace(/\r\n/g, '\n'), markers);
  if (found) {
    const lines = text.replace(/\r\n/g, '\n').split('\n');
    lines.splice(found.start, found.end - found.start + 1, ...block.split('\n'));
    return lines.join('\n').replace(/\n/g, eol);
  }
  if (text.trim() === '') return block.replace(/\n/g, eol) + eol;
  const separator = text.endsWith('\n') ? eol : eol + eol;
  return text + separator + block.replace(/\n/g, eol) + eol;
}

/** `text` without the block and the blank line before it; unchanged when there is none. */
export function removeBlock(text: string, markers: BlockMarkers): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const normalized = text.replace(/\r\n/g, '\n');
  const found = findBlock(normalized, markers);
  if (!found) return text;
  const lines = normalized.split('\n');
  let start = found.start;
  if (start > 0 && lines[start - 1]!.trim() === '') start--;
  lines.splice(start, found.end - start + 1);
  let result = lines.join('\n');
  if (result.trim() === '') result = '';
  return result.replace(/\n/g, eol);
}
