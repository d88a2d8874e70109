#!/usr/bin/env node
// Thin shim: all logic lives in the compiled CLI (entry.js routes to the full program or to the fast path of `event`).
import '../dist/bundle/entry.js';
