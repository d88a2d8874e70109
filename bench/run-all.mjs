// `npm run bench`: every benchmark in this folder, one after the other (they compete for the
// CPU otherwise). Each prints its own ratios against a baseline measured in the same run.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
let failed = 0;
for (const file of readdirSync(here).sort()) {
  if (
    !file.endsWith('.mjs') ||
    ['lib.mjs', 'run-all.mjs', 'rss-probe.mjs', 'cpu-probe.cjs'].includes(file)
  )
    continue;
  if (only.length && !only.some((name) => file.includes(name))) continue;
  // The real agent hosts (hundreds of MB to install, minutes to run): only when named.
  if (file === 'hosts.mjs' && !only.includes('hosts')) continue;
  console.log(`\n== ${file}`);
  const result = spawnSync(process.execPath, [join(here, file)], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
