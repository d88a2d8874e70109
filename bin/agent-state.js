#!/usr/bin/env node
// Thin shim: all logic lives in the compiled CLI. `agent-state hook ...` (run by git hooks on every
// commit) takes a lean bundle of its own that skips commander and the other commands.
if (process.argv[2] === 'hook') {
  const { hookMain } = await import('../dist/bundle/hook/hook-entry.js');
  process.exitCode = await hookMain(process.argv.slice(2));
} else await import('../dist/bundle/main.js');
