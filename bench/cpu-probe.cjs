// Preloaded with `node --require` by the benchmarks' --cpu mode (lib.mjs): writes the process's
// CPU time (user + system, microseconds) to the file named by AGENT_STATE_CPU_FILE when it exits.
// CPU time barely moves with the machine's load, where wall time does; both sides of a ratio
// get this same preload. CommonJS, so that it loads no ES module loader.
'use strict';
process.on('exit', () => {
  const file = process.env.AGENT_STATE_CPU_FILE;
  if (!file) return;
  const { user, system } = process.cpuUsage();
  require('node:fs').writeFileSync(file, String(user + system));
});
