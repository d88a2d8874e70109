// Forbidden globs are matched against POSIX paths inside the repository: a glob that leaves it
// (`../**`), is absolute (`/etc/**`, `C:\...`), starts with `~` or uses backslashes guards nothing
// the user meant, silently. Saying so is how the user learns it (pure; no matcher loaded).

/** Why `glob` cannot guard the repository path it seems to name, with the fix; null when it can. */
export function globProblem(glob: string): string | null {
  const shown = `the Forbidden glob \`${glob}\``;
  const inside = 'Forbidden globs name paths inside the repository, relative to its root';
  if (/^[A-Za-z]:/.test(glob) || glob.includes('\\'))
    return `${shown} can never match: paths are matched with \`/\` separators, relative to the repository root (fix: write it like \`src/storage/**\`)`;
  if (glob.split('/').includes('..'))
    return `${shown} can never match: \`..\` leaves the repository, and ${inside} (fix: name the path from the repository root, or remove it)`;
  if (glob.startsWith('~'))
    return `${shown} can never match: \`~\` is not expanded, and ${inside} (fix: name the path from the repository root, or remove it)`;
  if (glob.startsWith('/')) {
    const local = glob.replace(/^\/+/, '');
    return `${shown} is an absolute path: ${inside}, so it guards \`${local}\` here and never ${glob} (fix: write \`${local}\` if that is meant, or remove it)`;
  }
  return null;
}
