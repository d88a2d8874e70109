#!/usr/bin/env node
// Thin shim: all logic lives in the compiled CLI. The calls hosts make after every tool call or
// message (`hook <host>`, `statusline`) go to a lean bundle that skips building the whole program.
const [command, sub, ...rest] = process.argv.slice(2);
const fast =
  rest.length === 0 &&
  ((command === 'hook' && ['claude', 'codex', 'gemini', 'opencode'].includes(sub)) ||
    (command === 'statusline' && sub === undefined));
await import(fast ? '../dist/bundle/hook/hook-main.js' : '../dist/bundle/main.js');
