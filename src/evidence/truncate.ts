// Capping an entry body in bytes without splitting a UTF-8 character.

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
  return {
    text: `${kept}${kept.endsWith('\n') ? '' : '\n'}\n[truncated ${truncatedBytes} bytes]\n`,
    truncatedBytes,
  };
}
