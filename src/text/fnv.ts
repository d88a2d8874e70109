// Fast string hashes for telling versions apart where nobody gains by forging a collision (a
// progress digest, a cache's name, the tokenizer table's probe): no node:crypto to load (~4 ms of
// a boot). What must hold against an adversary (file states, Forbidden approvals) stays sha256.

/** 32-bit FNV-1a over UTF-16 code units, as an unsigned integer. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** 64 bits as 16 hex digits: two multiply-xor lanes over UTF-16 code units, mixed at the end. */
export function hash64(text: string): string {
  let a = 0xdeadbeef;
  let b = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x9e3779b1);
    b = Math.imul(b ^ c, 0x5f356495);
  }
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b) ^ Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  b = Math.imul(b ^ (b >>> 16), 0x85ebca6b) ^ Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
  return hex(b) + hex(a);
}
