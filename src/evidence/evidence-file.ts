// One evidence entry on disk: `NNNNNN-<slug>.md`, YAML front matter (schemas/evidence.schema.json)
// then a Markdown body. Rendering and parsing are pure.
import { stringify } from 'yaml';
import { schemaProblems } from '../state/schema-problems.js';
import { validateAgainst } from '../state/validators.js';
import { parseYaml, type Problem } from '../state/yaml-doc.js';

/** A raw artifact an entry refers to. */
export interface EvidenceRef {
  /** POSIX path relative to the repository root (under .agent/artifacts/). */
  path: string;
  sha256: string;
  bytes?: number;
}

/** The front matter of an entry. */
export interface EvidenceMeta {
  /** Six digits, or a unique id (`20261130T140500123Z-3f9c2a`); also the start of the file name. */
  id: string;
  /** The agent that wrote it, when it had a name. */
  agent?: string;
  at: string;
  kind: string;
  summary: string;
  redactions?: number;
  truncated_bytes?: number;
  refs?: EvidenceRef[];
}

/** An entry read from disk. */
export interface EvidenceEntry extends EvidenceMeta {
  /** The file, relative to the repository root. */
  file: string;
  body: string;
}

/**
 * Entry file names: the id (six digits, or a unique id: UTC time to the millisecond and six
 * random hex digits), a dash, a slug, `.md`.
 */
export const ENTRY_FILE = /^(\d{6}|\d{8}T\d{9}Z-[0-9a-f]{6})-[a-z0-9-]*\.md$/;

/** A file-name slug of a summary: lowercase ASCII words joined by dashes, at most 40 characters. */
export function slugify(text: string, fallback: string): string {
  const words = text.normalize('NFKD').toLowerCase();
  const dashed = words.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  const slug = dashed.slice(0, 40).replace(/-+$/, '');
  return slug === '' ? fallback : slug;
}

/** `text` cut to at most `maxBytes` UTF-8 bytes plus a `[truncated N bytes]` note, and N. */
export function truncateUtf8(
  text: string,
  maxBytes: number,
): { text: string; truncatedBytes: number } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return { text, truncatedBytes: 0 };
  let cut = maxBytes;
  // Back off to the first byte of a character (continuation bytes are 10xxxxxx).
  while (cut > 0 && (bytes[cut]! & 0xc0) === 0x80) cut--;
  const truncatedBytes = bytes.length - cut;
  const kept = bytes.subarray(0, cut).toString('utf8');
  const note = `${kept.endsWith('\n') ? '' : '\n'}\n[truncated ${truncatedBytes} bytes]\n`;
  return { text: kept + note, truncatedBytes };
}

/** The file text of an entry. */
export function renderEntry(meta: EvidenceMeta, body: string): string {
  const { id, agent, at, kind, summary, redactions = 0, truncated_bytes = 0, refs } = meta;
  const front: Record<string, unknown> = { id, ...(agent === undefined ? {} : { agent }) };
  Object.assign(front, { at, kind, summary, redactions, truncated_bytes });
  if (refs?.length) front.refs = refs;
  const text = body.endsWith('\n') || body === '' ? body : `${body}\n`;
  return `---\n${stringify(front, { lineWidth: 0 })}---\n${text}`;
}

/** An entry parsed from its text, or the problems that prevent it (located in `display`). */
export function parseEntry(
  text: string,
  display: string,
): { meta: EvidenceMeta | undefined; body: string; problems: Problem[] } {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const problem = (message: string, line = 1): Problem => ({
    location: { file: display, line },
    message,
    hint: 'an entry starts with a `---` line, YAML front matter (id, at, kind, summary), a closing `---` line, then the body',
  });
  const refuse = (message: string) => ({ meta: undefined, body: '', problems: [problem(message)] });
  if (!normalized.startsWith('---\n')) return refuse(`${display} has no front matter`);
  const rest = normalized.slice(4);
  const end = /^---[ \t]*$/m.exec(rest);
  if (!end) return refuse(`${display}: the front matter is not closed by a --- line`);
  const yamlText = rest.slice(0, end.index);
  const body = rest.slice(end.index + end[0].length).replace(/^\n/, '');
  // Lines of the front matter start at line 2 of the file: pad so positions match the file.
  const located = parseYaml(`\n${yamlText}`, display);
  if (located.problems.length > 0) return { meta: undefined, body, problems: located.problems };
  const data: unknown = located.doc.toJS();
  const problems = schemaProblems(validateAgainst('evidence', data), data, located);
  return { meta: problems.length ? undefined : (data as EvidenceMeta), body, problems };
}
