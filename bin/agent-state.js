#!/usr/bin/env node
// Thin shim: all logic lives in the compiled CLI (entry.cjs starts git early for verify, then
// routes to a command's fast path or to the full program). CommonJS (bin/package.json), so that
// a command loads no ES module loader unless it needs one.
'use strict';
require('../dist/bundle/entry.cjs');
