// Byte-pair merging in O(n log n) for long pieces. gpt-tokenizer's merge is O(n²) in a piece's
// length (one unbroken 1 MB line in goals.md took minutes); this is the same merge (lowest rank
// first, leftmost on ties) over a heap and a linked list, as tiktoken merges large pieces.

/** The rank of the bytes `piece[start, end)` as one token, or undefined. */
export type RankOf = (start: number, end: number) => number | undefined;

// Heap keys pack (rank, start) into one double: ranks < 2^21, starts < 2^32.
const SHIFT = 2 ** 32;

/** The start offsets of the tokens `piece` (n bytes) merges into, plus n (`bytePairMerge`'s). */
export function mergeBoundaries(length: number, rankOf: RankOf): number[] {
  // Tokens as a linked list of start offsets; `length` is the end sentinel.
  const next = new Int32Array(length + 1);
  const prev = new Int32Array(length + 1);
  const rank = new Float64Array(length + 1).fill(Infinity);
  for (let i = 0; i <= length; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  // A binary min-heap of keys in a typed array: n initial pairs, at most two more per merge.
  const heap = new Float64Array(3 * length + 1);
  let size = 0;
  for (let i = 0; i + 1 < length; i++) {
    const r = rankOf(i, i + 2);
    if (r === undefined) continue;
    rank[i] = r;
    heap[size++] = r * SHIFT + i;
  }
  for (let i = (size >> 1) - 1; i >= 0; i--) siftDown(heap, size, i);
  const update = (start: number): void => {
    const second = next[start]!;
    const r = second >= length ? undefined : rankOf(start, next[second]!);
    rank[start] = r ?? Infinity;
    if (r !== undefined) size = push(heap, size, r * SHIFT + start);
  };
  while (size > 0) {
    const key = heap[0]!;
    heap[0] = heap[--size]!;
    siftDown(heap, size, 0);
    const start = key % SHIFT;
    // Stale entries (a merged-away start, or a rank that changed since) are skipped.
    if (next[start] === 0 || rank[start] !== (key - start) / SHIFT) continue;
    const removed = next[start]!;
    const after = next[removed]!;
    next[start] = after;
    if (after <= length) prev[after] = start;
    next[removed] = 0;
    rank[removed] = Infinity;
    update(start);
    if (prev[start]! >= 0) update(prev[start]!);
  }
  const starts: number[] = [];
  for (let i = 0; i < length; i = next[i]!) starts.push(i);
  starts.push(length);
  return starts;
}

function push(heap: Float64Array, size: number, key: number): number {
  let i = size;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (heap[parent]! <= key) break;
    heap[i] = heap[parent]!;
    i = parent;
  }
  heap[i] = key;
  return size + 1;
}

function siftDown(heap: Float64Array, size: number, from: number): void {
  const key = heap[from]!;
  let i = from;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= size) break;
    const right = left + 1;
    const child = right < size && heap[right]! < heap[left]! ? right : left;
    if (heap[child]! >= key) break;
    heap[i] = heap[child]!;
    i = child;
  }
  heap[i] = key;
}

/** The slice of gpt-tokenizer's BytePairEncodingCore that the long-piece merge replaces. */
interface MergeCore {
  bytePairMerge(piece: Uint8Array): number[];
  getBpeRankFromString(key: string): number | undefined;
  getBpeRankFromBytes(key: Uint8Array): number | undefined;
}

/** Pieces at least this long (bytes) take the heap merge; shorter ones the library's scan. */
export const LONG_PIECE_BYTES = 256;

const decoder = new TextDecoder();

// The rank of a byte range, as getBpeRankFromBytes gives it, but without decoding the range on
// every lookup: the piece (valid UTF-8, from TextEncoder) is decoded once, and a range that starts
// and ends on character boundaries is looked up as the substring it decodes to.
function rankLookup(core: MergeCore, piece: Uint8Array): RankOf {
  const text = decoder.decode(piece);
  const charAt = new Int32Array(piece.length + 1).fill(-1);
  for (let byte = 0, unit = 0; byte < piece.length;) {
    charAt[byte] = unit;
    const lead = piece[byte]!;
    const bytes = lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
    byte += bytes;
    unit += bytes === 4 ? 2 : 1;
  }
  charAt[piece.length] = text.length;
  return (start, end) => {
    const from = charAt[start]!;
    const to = charAt[end]!;
    return from >= 0 && to >= 0
      ? core.getBpeRankFromString(text.slice(from, to))
      : core.getBpeRankFromBytes(piece.subarray(start, end));
  };
}

/** Makes a BytePairEncodingCore merge long pieces in O(n log n); false if its internals differ. */
export function linearizeMerges(core: unknown): boolean {
  const target = core as Partial<MergeCore> | null;
  if (
    typeof target?.bytePairMerge !== 'function' ||
    typeof target.getBpeRankFromString !== 'function' ||
    typeof target.getBpeRankFromBytes !== 'function'
  )
    return false;
  const scan = target.bytePairMerge.bind(core);
  const ranks = target as MergeCore;
  target.bytePairMerge = (piece: Uint8Array): number[] => {
    if (piece.length < LONG_PIECE_BYTES) return scan(piece);
    const rankOf = rankLookup(ranks, piece);
    const starts = mergeBoundaries(piece.length, rankOf);
    const tokens: number[] = [];
    for (let i = 0; i + 1 < starts.length; i++) {
      const rank = rankOf(starts[i]!, starts[i + 1]!);
      if (rank === undefined) throw new Error('a merged token is not in the byte pair encoder');
      tokens.push(rank);
    }
    return tokens;
  };
  return true;
}
