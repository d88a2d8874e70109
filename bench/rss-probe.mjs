// Preloaded with `node --import` by bench/fingerprint.mjs: writes the process's peak RSS (KiB) to
// the file named by AGENT_STATE_RSS_FILE when it exits.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const file = process.env.AGENT_STATE_RSS_FILE;
  if (file) writeFileSync(file, String(process.resourceUsage().maxRSS));
});
