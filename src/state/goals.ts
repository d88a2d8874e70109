// goals.md: the human-owned goal layer. Parsing is forgiving (headings in any order and case,
// English or Chinese, unknown sections kept verbatim) and reports warnings, never errors.
import type { ForbiddenEntry, Goals, Warning } from '../types.js';

type KnownSection = 'successCriteria' | 'constraints' | 'forbidden' | 'nonGoals';

const SECTION_ALIASES: Record<string, KnownSection> = {
  'success criteria': 'successCriteria',
  'acceptance criteria': 'successCriteria',
  成功标准: 'successCriteria',
  验收标准: 'successCriteria',
  constraints: 'constraints',
  约束: 'constraints',
  约束条件: 'constraints',
  forbidden: 'forbidden',
  'forbidden zones': 'forbidden',
  禁区: 'forbidden',
  禁止: 'forbidden',
  'non-goals': 'nonGoals',
  'non goals': 'nonGoals',
  'out of scope': 'nonGoals',
  非目标: 'nonGoals',
};

const SECTION_HEADINGS: Record<KnownSection, string> = {
  successCriteria: 'Success criteria',
  constraints: 'Constraints',
  forbidden: 'Forbidden',
  nonGoals: 'Non-goals',
};

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

/** Blanks out HTML comments (guidance in the template) while keeping line numbers. */
function stripComments(source: string): string {
  return source.replace(/<!--[\s\S]*?(?:-->|$)/g, (comment) => comment.replace(/[^\n]/g, ' '));
}

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;

/**
 * Counts words the way a reader would, CJK included. Intl.Segmenter knows CJK word breaks but
 * loading its dictionary costs ~25 ms, so it is used only for CJK text.
 */
export function countWords(text: string): number {
  if (!CJK.test(text)) return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  let count = 0;
  for (const part of new Intl.Segmenter(undefined, { granularity: 'word' }).segment(text)) {
    if (part.isWordLike) count++;
  }
  return count;
}

const BULLET = /^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$/;

/**
 * Splits a section body into items: list items (with continuation lines, also after a blank line
 * when indented, as in Markdown) or paragraphs. A fenced code block never ends an item.
 */
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
}

// One pass over the lines: title, anchor paragraph, then H2 sections. Fenced code never counts
// as a heading.
function layout(source: string): Layout {
  const raw = source.split(/\r?\n/);
  const clean = stripComments(source).split(/\r?\n/);
  const result: Layout = { title: '', titleLine: null, anchorRange: null, sections: [] };
  let inFence = false;
  let section: Layout['sections'][number] | null = null;
  let anchorOpen = false;
  let anchorDone = false;
  for (let i = 0; i < clean.length; i++) {
    const text = clean[i]!;
    if (/^\s*(```|~~~)/.test(text)) inFence = !inFence;
    const h1 = !inFence && /^#\s+(.+?)\s*#*\s*$/.exec(text);
    const h2 = !inFence && /^##\s+(.+?)\s*#*\s*$/.exec(text);
    if (h1 && result.titleLine === null && !section) {
      result.title = h1[1]!;
      result.titleLine = i;
      continue;
    }
    if (h2) {
      if (anchorOpen) anchorOpen = false;
      anchorDone = true;
      section = { heading: h2[1]!, headingLine: i, body: [], raw: [] };
      result.sections.push(section);
      continue;
    }
    if (section) {
      section.body.push({ text, number: i + 1 });
      section.raw.push(raw[i]!);
      continue;
    }
    if (anchorDone) continue;
    if (text.trim() === '') {
      if (anchorOpen) {
        anchorOpen = false;
        anchorDone = true;
      }
      continue;
    }
    if (!anchorOpen) {
      anchorOpen = true;
      result.anchorRange = [i, i + 1];
    } else {
      result.anchorRange![1] = i + 1;
    }
  }
  return result;
}

/** Parses goals.md into its sections; `display` names the file in warnings. */
export function parseGoals(source: string, display = 'goals.md'): ParsedGoals {
  const shape = layout(source);
  const clean = stripComments(source).split(/\r?\n/);
  const warnings: Warning[] = [];
  const goals: Goals = {
    title: shape.title,
    anchor: '',
    successCriteria: [],
    constraints: [],
    forbidden: [],
    nonGoals: [],
    extraSections: [],
  };
  if (shape.anchorRange) {
    const [start, end] = shape.anchorRange;
    goals.anchor = clean
      .slice(start, end)
      .map((l) => l.trim())
      .join(' ')
      .trim();
  }
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
  const seen = new Set<KnownSection>();
  for (const section of shape.sections) {
    const kind = SECTION_ALIASES[normalizeHeading(section.heading)];
    if (!kind) {
      goals.extraSections.push({
        heading: section.heading,
        body: section.raw.join('\n').replace(/\n+$/, ''),
      });
      continue;
    }
    seen.add(kind);
    const items = sectionItems(section.body);
    if (items.length === 0) {
      warnings.push({
        file: display,
        line: section.headingLine + 1,
        message: `the "${section.heading}" section is empty`,
      });
    }
    if (kind === 'forbidden') {
      goals.forbidden.push(
        ...items.map((text): ForbiddenEntry => ({ text, globs: extractGlobs(text) })),
      );
    } else {
      goals[kind].push(...items);
    }
  }
  return { goals, warnings };
}

/** Renders goals as canonical Markdown (parseGoals(renderGoals(g)).goals deep-equals g). */
export function renderGoals(goals: Goals): string {
  const out: string[] = [`# ${goals.title || 'Task'}`, ''];
  if (goals.anchor) out.push(goals.anchor, '');
  const lists: [KnownSection, string[]][] = [
    ['successCriteria', goals.successCriteria],
    ['constraints', goals.constraints],
    ['forbidden', goals.forbidden.map((f) => f.text)],
    ['nonGoals', goals.nonGoals],
  ];
  for (const [kind, items] of lists) {
    out.push(`## ${SECTION_HEADINGS[kind]}`, '');
    for (const item of items) out.push(`- ${item.split('\n').join('\n  ')}`);
    if (items.length) out.push('');
  }
  for (const extra of goals.extraSections) {
    out.push(`## ${extra.heading}`, extra.body, '');
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

/**
 * Replaces only the anchor paragraph of a goals.md source (inserting it under the title when
 * missing, and a title when there is none); every other byte is kept.
 */
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
