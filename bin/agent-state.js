#!/usr/bin/env node
// Thin shim: all logic lives in the compiled CLI.
import '../dist/bundle/main.js';
