#!/usr/bin/env node
// Thin shim: all logic lives in the compiled CLI. The prefetch starts the git queries of `verify`
// and `fingerprint` before the CLI bundle loads, so that the two overlap (src/cli/prefetch.ts).
import { prefetch } from '../dist/bundle/prefetch.js';

prefetch(process.argv.slice(2));
await import('../dist/bundle/main.js');
