// Counted words in English for every rendering (CLI, page, findings, status lines), so each says
// "1 file" / "3 files" the same way.

/** "3 items" / "1 item"; `pluralWord` where adding an s is wrong ("1 entry", "2 entries"). */
export function plural(count: number, word: string, pluralWord = `${word}s`): string {
  return `${count} ${count === 1 ? word : pluralWord}`;
}

/** "a, b, c, d, e and 2 more": the first `max` items, then how many more there are. */
export function shortList(items: readonly string[], max = 5): string {
  return items.length <= max
    ? items.join(', ')
    : `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}
