// gpt-tokenizer's o200k_base ranks as a prebuilt table (scripts/build.mjs → dist/tokenizer/
// o200k.bin): one file read, probed in place, ready in a few ms instead of the ~150 ms Map the
// library builds on load. The table proves itself on load (PROBE) or is not used.
import { fnv1a } from '../text/fnv.js';

/** File layout version; bump when the layout changes. */
const VERSION = 1;
const MAGIC = 0x54534741; // "AGST", little-endian
const HEADER_BYTES = 32;

/** Text whose o200k count the table records at build time and checks at load (many scripts). */
export const PROBE =
  'Add pagination to GET /todos — 不改存储层。\n\n```ts\nconst x = await fetch(`/todos?page=${n}`);\n```\n' +
  '  \t  naïve café 👩‍💻🚀 ＡＢＣ ｶﾀｶﾅ 한국어 Ωμέγα \u0301\u200d <|endoftext|> 12345678 ∑∫≈ \u{1d11e}\r\n';

/** The table's key hash (the same function builds and reads the table). */
export const hashKey = fnv1a;

/** A rank table: string tokens by probing, byte tokens as a list. */
export interface RankTable {
  /** The rank of a token string, or undefined. */
  get(key: string): number | undefined;
  /** How many ranks there are (string and byte tokens, with their gaps). */
  size: number;
  /** The tokens that are not valid UTF-8 on their own, by rank. */
  byteTokens: [number, number[]][];
  /** The o200k count of PROBE measured at build time. */
  probeTokens: number;
}

/** Serializes ranks (gpt-tokenizer's bpeRanks array) and the probe count into the table format. */
export function buildRankTable(
  ranks: readonly (string | ArrayLike<number>)[],
  probeTokens: number,
): Buffer {
  const size = ranks.length;
  let slotCount = 1;
  while (slotCount < size * 2.5) slotCount *= 2;
  const offsets = new Uint32Array(size + 1);
  const slots = new Int32Array(slotCount);
  const strings: string[] = [];
  const byteTokens: [number, number[]][] = [];
  let units = 0;
  for (let rank = 0; rank < size; rank++) {
    const token = ranks[rank];
    offsets[rank] = units;
    if (token === undefined) continue;
    if (typeof token !== 'string') {
      byteTokens.push([rank, Array.from(token)]);
      continue;
    }
    strings.push(token);
    units += token.length;
    let slot = hashKey(token) & (slotCount - 1);
    while (slots[slot] !== 0) slot = (slot + 1) & (slotCount - 1);
    slots[slot] = rank + 1;
  }
  offsets[size] = units;
  const tail = Buffer.from(JSON.stringify(byteTokens), 'utf8');
  const header = Buffer.alloc(HEADER_BYTES);
  [MAGIC, VERSION, size, slotCount, units, probeTokens, tail.length].forEach((value, i) =>
    header.writeUInt32LE(value, i * 4),
  );
  return Buffer.concat([
    header,
    Buffer.from(offsets.buffer),
    Buffer.from(slots.buffer),
    Buffer.from(strings.join(''), 'utf16le'),
    tail,
  ]);
}

// A 32-bit view of bytes [start, end) of `file`: its own memory when aligned (a large read
// usually is), else an aligned copy.
function words<T extends Uint32Array | Int32Array>(
  Type: new (buffer: ArrayBufferLike, offset?: number, length?: number) => T,
  file: Buffer,
  start: number,
  end: number,
): T {
  const at = file.byteOffset + start;
  if (at % 4 === 0) return new Type(file.buffer, at, (end - start) / 4);
  const copy = new Type(new ArrayBuffer(end - start));
  new Uint8Array(copy.buffer).set(file.subarray(start, end));
  return copy;
}

/** Reads a table written by buildRankTable; throws on anything unexpected. */
export function readRankTable(file: Buffer): RankTable {
  if (
    file.length < HEADER_BYTES ||
    file.readUInt32LE(0) !== MAGIC ||
    file.readUInt32LE(4) !== VERSION
  )
    throw new Error('not an o200k rank table of this version');
  const size = file.readUInt32LE(8);
  const slotCount = file.readUInt32LE(12);
  const units = file.readUInt32LE(16);
  const probeTokens = file.readUInt32LE(20);
  const tailBytes = file.readUInt32LE(24);
  const offsetsAt = HEADER_BYTES;
  const slotsAt = offsetsAt + (size + 1) * 4;
  const stringsAt = slotsAt + slotCount * 4;
  const tailAt = stringsAt + units * 2;
  if (tailAt + tailBytes !== file.length) throw new Error('truncated o200k rank table');
  const offsets = words(Uint32Array, file, offsetsAt, slotsAt);
  const slots = words(Int32Array, file, slotsAt, stringsAt);
  const strings = file.toString('utf16le', stringsAt, tailAt);
  const byteTokens = JSON.parse(file.toString('utf8', tailAt)) as [number, number[]][];
  const mask = slotCount - 1;
  return {
    size,
    byteTokens,
    probeTokens,
    get(key) {
      for (let slot = hashKey(key) & mask; ; slot = (slot + 1) & mask) {
        const entry = slots[slot]!;
        if (entry === 0) return undefined;
        const rank = entry - 1;
        const start = offsets[rank]!;
        if (offsets[rank + 1]! - start !== key.length) continue;
        let i = 0;
        while (i < key.length && strings.charCodeAt(start + i) === key.charCodeAt(i)) i++;
        if (i === key.length) return rank;
      }
    },
  };
}
