// Random suffixes for temp-file names and lock tokens. They must be unique, not secret, so
// Math.random is enough: loading node:crypto costs ~6 ms, paid by every hook that runs `event`.

let counter = 0;

/** 8 random hex digits, plus a per-process counter so that two calls never repeat. */
export function uniqueSuffix(): string {
  const random = Math.floor(Math.random() * 0x1_0000_0000)
    .toString(16)
    .padStart(8, '0');
  return `${random}${(counter++).toString(16)}`;
}
