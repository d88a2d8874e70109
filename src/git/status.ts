// Parsing `git status --porcelain=v2 -z --branch` (pure): HEAD, branch, upstream, ahead/behind
// and the changed entries, all from one run.

/** One changed path as git status reports it. */
export interface StatusEntry {
  /** Path relative to the git top level, POSIX-style. */
  path: string;
  /** `changed` (1), `renamed` (2), `unmerged` (u), `untracked` (?), `ignored` (!). */
  kind: 'changed' | 'renamed' | 'unmerged' | 'untracked' | 'ignored';
  /** The XY status letters (index, work tree); `??` for untracked. */
  xy: string;
  /** `N...` for a plain file, `S<c><m><u>` for a submodule. */
  submodule: string;
  /** For a rename or copy: the path it came from. */
  origPath?: string;
}

/** What one status run says about the repository. */
export interface GitStatus {
  head: string | null;
  branch: string | null;
  upstream: string | null;
  ahead: number | null;
  behind: number | null;
  entries: StatusEntry[];
}

// Fixed fields before the path: `1 XY sub mH mI mW hH hI path`, `u XY sub m1 m2 m3 mW h1 h2 h3 path`.
const TRACKED = { '1': ['changed', 8], '2': ['renamed', 9], u: ['unmerged', 10] } as const;

function afterFields(record: string, count: number): { fields: string[]; rest: string } {
  const fields: string[] = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    const space = record.indexOf(' ', start);
    if (space === -1) return { fields, rest: '' };
    fields.push(record.slice(start, space));
    start = space + 1;
  }
  return { fields, rest: record.slice(start) };
}

function parseHeader(status: GitStatus, header: string): void {
  const space = header.indexOf(' ', 2);
  const key = header.slice(2, space === -1 ? undefined : space);
  const value = space === -1 ? '' : header.slice(space + 1);
  if (key === 'branch.oid') status.head = value === '(initial)' ? null : value;
  else if (key === 'branch.head') status.branch = value === '(detached)' ? null : value;
  else if (key === 'branch.upstream') status.upstream = value;
  else if (key === 'branch.ab') {
    const match = /^\+(\d+) -(\d+)$/.exec(value);
    if (match) {
      status.ahead = Number(match[1]);
      status.behind = Number(match[2]);
    }
  }
}

/** Parses the NUL-separated records of `git status --porcelain=v2 -z [--branch]`. */
export function parseStatusV2(records: readonly string[]): GitStatus {
  const status: GitStatus = {
    head: null,
    branch: null,
    upstream: null,
    ahead: null,
    behind: null,
    entries: [],
  };
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    const type = record[0] ?? '';
    if (type === '#') parseHeader(status, record);
    else if (type in TRACKED) {
      const [kind, count] = TRACKED[type as keyof typeof TRACKED];
      const { fields, rest } = afterFields(record, count);
      const [, xy = '', submodule = ''] = fields;
      const entry: StatusEntry = { path: rest, kind, xy, submodule };
      // With -z a rename's original path is the next NUL-separated record.
      if (type === '2') entry.origPath = records[++i] ?? '';
      status.entries.push(entry);
    } else if (type === '?' || type === '!') {
      const kind = type === '?' ? 'untracked' : 'ignored';
      status.entries.push({ path: record.slice(2), kind, xy: type + type, submodule: 'N...' });
    }
  }
  if (status.upstream === null) status.ahead = status.behind = null;
  return status;
}
