// A minimal line diff for `--dry-run` previews of small config files (LCS over lines; files over
// a few thousand lines are shown whole instead).

const MAX_DIFF_LINES = 3000;

/** The changed lines of `before` → `after`, as `- old` / `+ new` lines with two lines of context. */
export function lineDiff(before: string | null, after: string | null, context = 2): string {
  const a = before === null || before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const b = after === null || after === '' ? [] : after.replace(/\n$/, '').split('\n');
  if (a.length > MAX_DIFF_LINES || b.length > MAX_DIFF_LINES)
    return b.map((l) => `+ ${l}`).join('\n');
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] =
        a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const ops: { kind: ' ' | '-' | '+'; text: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: ' ', text: a[i]! });
      i++;
      j++;
    } else if (j < b.length && (i >= a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      ops.push({ kind: '+', text: b[j++]! });
    } else {
      ops.push({ kind: '-', text: a[i++]! });
    }
  }
  const near = ops.map((_, k) =>
    ops.slice(Math.max(0, k - context), k + context + 1).some((op) => op.kind !== ' '),
  );
  const lines: string[] = [];
  ops.forEach((op, k) => {
    if (near[k]) lines.push(`${op.kind} ${op.text}`);
    else if (lines.at(-1) !== '  ...') lines.push('  ...');
  });
  return lines.join('\n');
}
