#!/usr/bin/env node
// Thin shim: the CLI is one bundle (dist/bundle/agent-state.cjs), loaded through a V8 code cache
// by dist/bundle/start.cjs (docs/architecture.md). CommonJS (bin/package.json), so that a command
// loads no ES module loader unless it needs one.
'use strict';
require('../dist/bundle/start.cjs');
