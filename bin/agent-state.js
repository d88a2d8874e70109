#!/usr/bin/env node
// Thin shim: all logic lives in the compiled CLI (entry.js starts git early for verify, then
// routes to the fast path of `event` or to the full program).
import '../dist/bundle/entry.js';
