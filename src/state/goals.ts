// goals.md: the human-owned goal layer. Parsing is forgiving (headings in any order and case,
// English or Chinese, unknown sections kept verbatim) and reports warnings, never errors.
import type { ForbiddenEntry, Goals, Warning } from '../types.js';

type KnownSection = 'successCriteria' | 'constraints' | 'forbidden' | 'nonGoals';

// Each known section's headings as normalizeHeading leaves them, English or Chinese; the first,
// capitalized, is the one renderGoals writes (in this order).
const SECTIONS: Record<KnownSection, string[]> = {
  successCriteria: ['success criteria', 'acceptance criteria', '成功标准', '验收标准'],
  constraints: ['constraints', '约束', '约束条件'],
  forbidden: ['forbidden', 'forbidden zones', '禁区', '禁止'],
  nonGoals: ['non-goals', 'non goals', 'out of scope', '非目标'],
};
const KINDS = Object.keys(SECTIONS) as KnownSection[];

/** An anchor longer than this is no longer a one-sentence goal. */
export const ANCHOR_MAX_WORDS = 60;

export interface ParsedGoals {
  goals: Goals;
  warnings: Warning[];
}

interface Line {
  text: string;
  /** 1-based line number in the source. */
  number: number;
}

function normalizeHeading(heading: string): string {
  return heading
    .trim()
    .replace(/[\s:\uFF1A]+$/u, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;

// A word has a letter or a digit. The Unicode classes cost ~0.7 ms to compile on first use (every
// boot and hook parses the anchor): an ASCII word never needs them.
const isWord = (word: string): boolean =>
  /[0-9A-Za-z]/.test(word) || (/[\u0080-\uffff]/.test(word) && /[\p{L}\p{N}]/u.test(word));

// Intl.Segmenter knows CJK word breaks, but loading its dictionary costs ~25 ms: only for CJK.
/** Counts words the way a reader would, CJK included. */
export function countWords(text: string): number {
  if (!CJK.test(text)) return text.split(/\s+/).filter(isWord).length;
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
  let count = 0;
  for (const piece of segmentPieces(text))
    for (const part of segmenter.segment(piece)) if (part.isWordLike) count++;
  return count;
}

// The segmenter's CJK pass grows faster than an unbroken run (40,000 chars: 1.4 s; 200,000: 30 s),
// so it gets pieces of at most SEGMENT_CHARS, cut after a space or punctuation where it can; a
// word split by a hard cut counts twice: at most one word in SEGMENT_CHARS characters.
const SEGMENT_CHARS = 1000;
const BREAK = /[\s\p{P}]/u;

function segmentPieces(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (text.length - start > SEGMENT_CHARS) {
    let end = start + SEGMENT_CHARS;
    for (let i = end - 1; i > start + SEGMENT_CHARS / 2; i--) {
      if (BREAK.test(text[i]!)) {
        end = i + 1;
        break;
      }
    }
    // Never between the two halves of a surrogate pair.
    if (end < text.length && /[\udc00-\udfff]/.test(text[end]!)) end--;
    pieces.push(text.slice(start, end));
    start = end;
  }
  pieces.push(text.slice(start));
  return pieces;
}

const BULLET = /^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$/;

// Items: list items (continued after a blank line when indented, as in Markdown) or paragraphs;
// a fenced code block never ends one.
function sectionItems(lines: Line[]): string[] {
  const items: string[] = [];
  let current: string[] | null = null;
  let isBullet = false;
  let blanks = 0;
  let inFence = false;
  const flush = () => {
    if (current && current.join('').trim() !== '') items.push(current.join('\n').trim());
    current = null;
    isBullet = false;
  };
  for (const { text } of lines) {
    if (!inFence && text.trim() === '') {
      blanks++;
      continue;
    }
    const bullet = inFence ? null : BULLET.exec(text);
    if (bullet && bullet[1]!.length < 2) {
      flush();
      current = [bullet[2]!];
      isBullet = true;
    } else if (blanks > 0 && !(isBullet && /^\s{2,}\S/.test(text))) {
      flush();
      current = [text.trim()];
    } else if (current) {
      for (; blanks > 0; blanks--) current.push('');
      current.push(text.replace(/^\s{1,4}/, ''));
    } else {
      current = [text.trim()];
    }
    blanks = 0;
    if (/^\s*(```|~~~)/.test(text)) inFence = !inFence;
  }
  flush();
  return items;
}

/** The path globs of a Forbidden entry: every `backticked` span. */
export function extractGlobs(text: string): string[] {
  return [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim()).filter((g) => g !== '');
}

interface Layout {
  title: string;
  titleLine: number | null;
  /** 0-based line indexes [start, end) of the anchor paragraph, when present. */
  anchorRange: [number, number] | null;
  sections: { heading: string; headingLine: number; body: Line[]; raw: string[] }[];
  /** The source's lines with HTML comments blanked. */
  clean: string[];
}

// One pass over the lines: title, anchor paragraph, then H2 sections. Fenced code never counts
// as a heading.
function layout(source: string): Layout {
  const raw = source.split(/\r?\n/);
  // HTML comments (guidance in the template) blanked out, line numbers kept.
  const blanked = source.replace(/<!--[\s\S]*?(?:-->|$)/g, (c) => c.replace(/[^\n]/g, ' '));
  const clean = blanked.split(/\r?\n/);
  const result: Layout = { title: '', titleLine: null, anchorRange: null, sections: [], clean };
  let inFence = false;
  let section: Layout['sections'][number] | null = null;
  let anchor: 'before' | 'open' | 'done' = 'before';
  clean.forEach((text, i) => {
    if (/^\s*(```|~~~)/.test(text)) inFence = !inFence;
    const heading = inFence ? null : /^(##?)\s+(.+?)\s*#*\s*$/.exec(text);
    if (heading?.[1] === '#' && result.titleLine === null && !section) {
      result.title = heading[2]!;
      result.titleLine = i;
    } else if (heading?.[1] === '##') {
      anchor = 'done';
      section = { heading: heading[2]!, headingLine: i, body: [], raw: [] };
      result.sections.push(section);
    } else if (section) {
      section.body.push({ text, number: i + 1 });
      section.raw.push(raw[i]!);
    } else if (anchor !== 'done' && text.trim() === '') {
      if (anchor === 'open') anchor = 'done';
    } else if (anchor === 'before') {
      anchor = 'open';
      result.anchorRange = [i, i + 1];
    } else if (anchor === 'open') {
      result.anchorRange![1] = i + 1;
    }
  });
  return result;
}

/** Parses goals.md into its sections; `display` names the file in warnings. */
export function parseGoals(source: string, display = 'goals.md'): ParsedGoals {
  const shape = layout(source);
  const warnings: Warning[] = [];
  const anchorLines = shape.anchorRange ? shape.clean.slice(...shape.anchorRange) : [];
  const goals: Goals = {
    title: shape.title,
    // Every line of the anchor paragraph holds text (a blank one ends it).
    anchor: anchorLines.map((l) => l.trim()).join(' '),
    successCriteria: [],
    constraints: [],
    forbidden: [],
    nonGoals: [],
    extraSections: [],
  };
  if (goals.anchor === '') {
    warnings.push({
      file: display,
      line: shape.titleLine === null ? 1 : shape.titleLine + 1,
      message:
        'no goal anchor: write one short sentence right under the title (or run `agent-state goal "..."`)',
    });
  } else if (countWords(goals.anchor) > ANCHOR_MAX_WORDS) {
    warnings.push({
      file: display,
      line: shape.anchorRange![0] + 1,
      message: `the goal anchor has ${countWords(goals.anchor)} words; keep it to one sentence of at most ${ANCHOR_MAX_WORDS} (move details to Success criteria or Constraints)`,
    });
  }
  const empty: { heading: string; line: number }[] = [];
  for (const section of shape.sections) {
    const name = normalizeHeading(section.heading);
    const kind = KINDS.find((k) => SECTIONS[k].includes(name));
    if (!kind) {
      goals.extraSections.push({
        heading: section.heading,
        body: section.raw.join('\n').replace(/\n+$/, ''),
      });
      continue;
    }
    const items = sectionItems(section.body);
    if (items.length === 0) empty.push({ heading: section.heading, line: section.headingLine + 1 });
    if (kind === 'forbidden') {
      const entries = items.map((text): ForbiddenEntry => ({ text, globs: extractGlobs(text) }));
      goals.forbidden.push(...entries);
      warnings.push(...globWarnings(entries, section.body, display));
    } else {
      goals[kind].push(...items);
    }
  }
  if (empty.length > 0) warnings.push(emptySectionsWarning(empty, display));
  return { goals, warnings };
}

// The empty sections in one line (a fresh template has four), worth reading once.
function emptySectionsWarning(
  empty: { heading: string; line: number }[],
  display: string,
): Warning {
  const list = empty.map((e) => `"${e.heading}" (line ${e.line})`).join(', ');
  return {
    file: display,
    line: empty[0]!.line,
    message:
      empty.length === 1
        ? `empty section: ${list}: add a bullet, or delete the heading`
        : `empty sections: ${list}: add a bullet to each, or delete the heading`,
    once: `goals.md empty sections: ${empty.map((e) => e.heading).join(' | ')}`,
  };
}

// A glob that leaves the repository, is absolute, starts with `~` or uses backslashes guards
// nothing, silently: why `glob` cannot guard the path it seems to name, with the fix; or null.
function globProblem(glob: string): string | null {
  const shown = `the Forbidden glob \`${glob}\``;
  const inside = 'Forbidden globs name paths inside the repository, relative to its root';
  if (/^[A-Za-z]:/.test(glob) || glob.includes('\\'))
    return `${shown} can never match: paths are matched with \`/\` separators, relative to the repository root (fix: write it like \`src/storage/**\`)`;
  if (glob.split('/').includes('..'))
    return `${shown} can never match: \`..\` leaves the repository, and ${inside} (fix: name the path from the repository root, or remove it)`;
  if (glob.startsWith('~'))
    return `${shown} can never match: \`~\` is not expanded, and ${inside} (fix: name the path from the repository root, or remove it)`;
  if (glob.startsWith('/')) {
    const local = glob.replace(/^\/+/, '');
    return `${shown} is an absolute path: ${inside}, so it guards \`${local}\` here and never ${glob} (fix: write \`${local}\` if that is meant, or remove it)`;
  }
  return null;
}

// A warning for each Forbidden glob that cannot guard a repository path, on the line that holds it.
function globWarnings(entries: ForbiddenEntry[], body: Line[], display: string): Warning[] {
  const warnings: Warning[] = [];
  let from = 0;
  for (const entry of entries)
    for (const glob of entry.globs) {
      const message = globProblem(glob);
      if (!message) continue;
      const at = body.findIndex((l, i) => i >= from && l.text.includes(`\`${glob}\``));
      if (at >= 0) from = at;
      warnings.push({ file: display, line: at >= 0 ? body[at]!.number : undefined, message });
    }
  return warnings;
}

/** Renders goals as canonical Markdown (parseGoals(renderGoals(g)).goals deep-equals g). */
export function renderGoals(goals: Goals): string {
  const out: string[] = [`# ${goals.title || 'Task'}`, ''];
  if (goals.anchor) out.push(goals.anchor, '');
  for (const kind of KINDS) {
    const items = kind === 'forbidden' ? goals.forbidden.map((f) => f.text) : goals[kind];
    const heading = SECTIONS[kind][0]!;
    out.push(`## ${heading[0]!.toUpperCase()}${heading.slice(1)}`, '');
    for (const item of items) out.push(`- ${item.split('\n').join('\n  ')}`);
    if (items.length) out.push('');
  }
  for (const extra of goals.extraSections) {
    out.push(`## ${extra.heading}`, extra.body, '');
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

/** Replaces only the anchor paragraph (adding it, and a title, when missing); keeps all else. */
export function setGoalAnchor(source: string, anchor: string): string {
  const text = anchor.replace(/\s+/g, ' ').trim();
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  const lines = source.split(/\r?\n/);
  const shape = layout(source);
  if (shape.anchorRange) {
    const [start, end] = shape.anchorRange;
    lines.splice(start, end - start, text);
  } else if (shape.titleLine !== null) {
    // Insert after the guidance comments that sit between the title and the first section.
    const firstSection = shape.sections[0]?.headingLine ?? lines.length;
    let at = shape.titleLine + 1;
    for (let i = at; i < firstSection; i++) if (lines[i]!.trim() !== '') at = i + 1;
    const block = at === shape.titleLine + 1 ? ['', text] : [text];
    if (lines[at] !== undefined && lines[at]!.trim() !== '') block.push('');
    lines.splice(at, 0, ...block);
  } else {
    lines.unshift('# Task', '', text, '');
  }
  return lines.join(eol);
}
