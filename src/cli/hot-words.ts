// The commands that hosts run around every tool call and session start, each from a bundle of its
// own (run-hot.ts). Imports nothing: start.ts reads it before a bundle loads.
export const HOT_WORDS = ['event', 'hook', 'boot'] as const;
export type HotWord = (typeof HOT_WORDS)[number];
