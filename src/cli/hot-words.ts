// The commands of the hot bundle (run-hot.ts). Imports nothing: start.ts reads it before a bundle loads.
export const HOT_WORDS = ['event'] as const;
