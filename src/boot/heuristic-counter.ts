// The --fast token estimate: no tokenizer to load. ASCII runs about four characters a token,
// a CJK character about one token, and other scripts about two characters a token.
import type { TokenCounter } from './types.js';

// Hiragana, Katakana, CJK ideographs (with extension A and compatibility), Hangul, CJK symbols and
// full-width forms.
const CJK =
  /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;

/** ascii/4 + CJK×1 + other/2, rounded up. */
export function heuristicTokens(text: string): number {
  let ascii = 0;
  let cjk = 0;
  let other = 0;
  for (const char of text) {
    if (char.charCodeAt(0) < 0x80) ascii++;
    else if (CJK.test(char)) cjk++;
    else other++;
  }
  return Math.ceil(ascii / 4 + cjk + other / 2);
}

/** The heuristic as a counter. */
// Not `splitsAtLines`: each count is rounded up, so the parts can sum to more than the whole.
export const heuristicCounter: TokenCounter = { name: 'heuristic', count: heuristicTokens };
