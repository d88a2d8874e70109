// node:crypto on first use, not at import: it loads ~20 internal modules and the streams
// (~4 ms), and most hook, event, status and boot calls hash nothing.
import type * as Crypto from 'node:crypto';

const crypto = (): typeof Crypto => process.getBuiltinModule('node:crypto');

export const createHash: typeof Crypto.createHash = (...args) => crypto().createHash(...args);
export const randomBytes = (size: number): Buffer => crypto().randomBytes(size);
