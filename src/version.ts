// The package version, read once from package.json (src/ and dist/ sit at the same depth).
import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** This build's version (e.g. "0.1.0"). */
export function packageVersion(): string {
  cached ??= (
    JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version;
  return cached;
}
