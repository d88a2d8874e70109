// Just enough Markdown for the importers: numbered lines outside code fences and HTML comments,
// sections under headings, top-level list items, and text without emphasis.

/** A line of a source file, with its 1-based number. */
export interface SourceLine {
  text: string;
  line: number;
}

/** A heading and the lines under it, up to the next heading of any level. */
export interface Section {
  heading: string;
  level: number;
  line: number;
  lines: SourceLine[];
}

const FENCE = /^\s*(```|~~~)/;

/** The lines outside code fences; HTML comments become blank (their line numbers stay). */
export function sourceLines(text: string): SourceLine[] {
  const lines: SourceLine[] = [];
  let fenced = false;
  const uncommented = text.replace(/<!--[\s\S]*?-->/g, (c) => c.replace(/[^\n]/g, ''));
  uncommented.split(/\r?\n/).forEach((raw, i) => {
    if (FENCE.test(raw)) fenced = !fenced;
    else if (!fenced) lines.push({ text: raw, line: i + 1 });
  });
  return lines;
}

/** The sections of a text; lines before the first heading form one with level 0. */
export function sections(text: string): Section[] {
  const all: Section[] = [{ heading: '', level: 0, line: 1, lines: [] }];
  for (const line of sourceLines(text)) {
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line.text);
    if (heading)
      all.push({
        heading: plain(heading[2]!),
        level: heading[1]!.length,
        line: line.line,
        lines: [],
      });
    else all[all.length - 1]!.lines.push(line);
  }
  return all;
}

/** The first section whose heading matches. */
export function findSection(all: readonly Section[], heading: RegExp): Section | undefined {
  return all.find((s) => heading.test(s.heading));
}

/** The first line of each top-level list item (`-`, `*`, `+`, `1.`), without its marker. */
export function listItems(lines: readonly SourceLine[]): SourceLine[] {
  return lines.flatMap((l) => {
    const item = /^(?:[-*+]|\d+[.)])\s+(.*)$/.exec(l.text);
    const text = plain(item?.[1] ?? '').replace(/:$/, '');
    return text ? [{ text, line: l.line }] : [];
  });
}

/** The first paragraph of prose (not a list, table or quote), joined into one line. */
export function firstParagraph(lines: readonly SourceLine[]): string {
  const words: string[] = [];
  for (const { text } of lines) {
    if (text.trim() === '') {
      if (words.length) break;
    } else if (/^\s*([-*+|>]|\d+[.)])\s/.test(text) || /^\s*(---|\*\*\*)\s*$/.test(text)) {
      if (words.length) break;
    } else words.push(text.trim());
  }
  return plain(words.join(' '));
}

/** The first sentence of a text. */
export function firstSentence(text: string): string {
  return /^.*?[.!?。](?=\s|$)/.exec(text)?.[0] ?? text;
}

/** Text without emphasis markers and surrounding space. */
export function plain(text: string): string {
  const bare = text.replace(/(\*\*|__)(.*?)\1/g, '$2');
  return bare.replace(/\s+/g, ' ').trim();
}
