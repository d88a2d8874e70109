// Turning sections into text: Markdown (headings and lists) or XML (one element per section,
// text escaped). Pure.
import type { Block, Section } from './model.js';
import type { BootLevel, BootRole } from './types.js';
import { LEVEL_NAMES } from './types.js';

export type TextFormat = 'markdown' | 'xml';

/** A section as it will be printed: the blocks that survived the budget and its summary line. */
export interface VisibleSection {
  section: Section;
  blocks: Block[];
  summary: string | null;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Escapes text for an XML element: `&` and `<` only (a bare `>` is valid and easier to read). */
export function escapeXml(text: string): string {
  return text.replace(/[&<]/g, (c) => ESCAPES[c]!);
}

/** Escapes text for an XML attribute value. */
export function escapeXmlAttribute(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ESCAPES[c]!);
}

/** A block's text in a format. */
export function blockText(text: string, format: TextFormat): string {
  return format === 'xml' ? escapeXml(text) : text;
}

function attrs(values: Record<string, string> | undefined): string {
  return Object.entries(values ?? {})
    .map(([k, v]) => ` ${k}="${escapeXmlAttribute(v)}"`)
    .join('');
}

/** The markup around a section's content: [before, after]. */
export function sectionFrame(section: Section, format: TextFormat): [string, string] {
  if (format === 'xml')
    return [`<${section.key}${attrs(section.xmlAttrs)}>\n`, `\n</${section.key}>`];
  return [`## ${section.title}\n`, ''];
}

/** One visible section as text. */
export function renderSection(visible: VisibleSection, format: TextFormat): string {
  const [before, after] = sectionFrame(visible.section, format);
  let body = '';
  visible.blocks.forEach((block, i) => {
    body += (i === 0 ? '' : (block.sep ?? '\n')) + blockText(block.text, format);
  });
  if (visible.summary) body += (body ? '\n' : '') + blockText(visible.summary, format);
  return before + body + after;
}

/** The header line as printed. */
export function renderHeader(header: string, format: TextFormat): string {
  return format === 'xml' ? `<header>${escapeXml(header)}</header>` : `# ${header}`;
}

/** The prompt in pieces, each ending with a newline before a `#` or `<` (see splitsAtLines). */
export function documentPieces(
  format: TextFormat,
  header: string,
  sections: readonly string[],
  meta: { level: BootLevel; role: BootRole },
): string[] {
  if (format === 'xml') {
    const open = `<agent-boot level="${meta.level}" name="${LEVEL_NAMES[meta.level]}" role="${meta.role}">`;
    return [open, renderHeader(header, format), ...sections, '</agent-boot>'].map((p) => `${p}\n`);
  }
  const pieces = [renderHeader(header, format), ...sections];
  return pieces.map((p, i) => (i === pieces.length - 1 ? `${p}\n` : `${p}\n\n`));
}
