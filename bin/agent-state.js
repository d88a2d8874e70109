#!/usr/bin/env node
// Thin shim: all logic lives in the compiled CLI. `agent-state hook ...` (run by git hooks on every
// commit) takes a lean entry that skips commander and the other commands' imports.
if (process.argv[2] === 'hook') await import('../dist/bundle/hook-entry.js');
else await import('../dist/bundle/main.js');
