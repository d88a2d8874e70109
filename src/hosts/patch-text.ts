// The apply_patch format of Codex and OpenCode (`*** Begin Patch` ... `*** End Patch`), read the
// way Codex's own parser reads it (codex-rs/apply-patch): every header line is trimmed first, so
// an indented `  *** Add File: x` adds x; an update's chunks are found after their `@@ context`
// line, and a chunk that only adds lines adds them at the end.

/** One file of a patch: what happens to it, and the lines that follow its header. */
export interface PatchFile {
  op: 'Add' | 'Update' | 'Delete';
  path: string;
  moveTo?: string;
  body: string[];
}

/** The files of a patch, in order. */
export function parsePatch(patch: string): PatchFile[] {
  const files: PatchFile[] = [];
  for (const raw of patch.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const header = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line.trim());
    const move = /^\*\*\* Move to: (.+)$/.exec(line.trim());
    const last = files[files.length - 1];
    if (header) files.push({ op: header[1] as PatchFile['op'], path: header[2]!.trim(), body: [] });
    else if (move && last) last.moveTo = move[1]!.trim();
    else if (move) files.push({ op: 'Add', path: move[1]!.trim(), body: [] });
    else last?.body.push(line);
  }
  return files;
}

/** The files a patch adds, updates, deletes or moves to. */
export function patchPaths(patch: string): string[] {
  return parsePatch(patch).flatMap((f) => (f.moveTo ? [f.path, f.moveTo] : [f.path]));
}

// The first index from `from` where `want` stands in `lines`: exactly, then ignoring trailing
// and then all surrounding whitespace (as Codex's seek_sequence does).
function seek(lines: readonly string[], want: readonly string[], from: number): number {
  for (const norm of [(s: string) => s, (s: string) => s.trimEnd(), (s: string) => s.trim()])
    for (let i = from; i + want.length <= lines.length; i++)
      if (want.every((w, k) => norm(lines[i + k]!) === norm(w))) return i;
  return -1;
}

/** What an update's body makes of `before`; null when a chunk does not apply. */
export function patchedText(before: string, body: readonly string[]): string | null {
  const lines = before.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let at = 0;
  const chunks: { context: string | null; old: string[]; add: string[] }[] = [];
  for (const line of body) {
    if (line.startsWith('@@') || chunks.length === 0)
      chunks.push({ context: line.startsWith('@@ ') ? line.slice(3) : null, old: [], add: [] });
    if (line.startsWith('@@') || line.startsWith('***')) continue;
    const chunk = chunks[chunks.length - 1]!;
    const text = line.slice(1);
    if (line === '' || line[0] === ' ') {
      chunk.old.push(text);
      chunk.add.push(text);
    } else if (line[0] === '-') chunk.old.push(text);
    else if (line[0] === '+') chunk.add.push(text);
  }
  for (const { context, old, add } of chunks) {
    if (context !== null) {
      const found = seek(lines, [context], at);
      if (found < 0) return null;
      at = found + 1;
    }
    const start = old.length === 0 ? lines.length : seek(lines, old, at);
    if (start < 0) return null;
    lines.splice(start, old.length, ...add);
    at = start + add.length;
  }
  return `${lines.join('\n')}\n`;
}
