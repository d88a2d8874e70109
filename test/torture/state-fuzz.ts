// Malformed state files, from a valid baseline: byte-level (flips, inserts, deletions, cuts, BOM,
// CRLF, invalid UTF-8) and structure-aware (wrong types, missing and unknown keys, hostile strings,
// and the YAML features a state file must not rely on: aliases, alias bombs, merge keys, tags,
// duplicate keys, several documents, deep nesting). Generated with fast-check from the run's seed.
import fc from 'fast-check';
import { parse, stringify } from 'yaml';
import { SECRETS } from '../helpers/secrets.js';

/** The state files a run fuzzes, relative to the repository. */
export const STATE_FILES = {
  progress: '.agent/state/progress.yaml',
  config: '.agent/config.yaml',
  goals: '.agent/state/goals.md',
} as const;

export type StateFile = keyof typeof STATE_FILES;

/** One malformed file: which file, how it was made, its bytes. */
export interface FuzzedFile {
  file: StateFile;
  how: string;
  bytes: Buffer;
}

const ESCAPES = [
  '\u001b]0;pwned\u0007',
  '\u001b[2J',
  '\r',
  '\u009b31m',
  '\u202e',
  '\u0000',
  '\u007f',
];

const YAML_TOKENS = [
  '*nope',
  '&a ',
  '*a',
  '<<: *a\n',
  '!!binary ',
  '!!js/function ',
  '!!python/object:os.system ',
  '!custom ',
  '? ',
  '{',
  '}',
  '[',
  ']',
  '---\n',
  '...\n',
  '%YAML 1.1\n',
  '\t',
  ': ',
  '- ',
  '"',
  "'",
  '|',
  '>-',
  '#',
  '@',
  '`',
  '\ufeff',
  ...ESCAPES,
  ...Object.values(SECRETS),
];

type Mutation =
  | { op: 'flip'; at: number; bit: number }
  | { op: 'insert'; at: number; bytes: Uint8Array }
  | { op: 'token'; at: number; token: string }
  | { op: 'delete'; at: number; len: number }
  | { op: 'duplicate'; at: number; len: number }
  | { op: 'truncate'; at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    op: fc.constant('flip' as const),
    at: fc.nat(),
    bit: fc.integer({ min: 0, max: 7 }),
  }),
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 12 }),
  }),
  fc.record({
    op: fc.constant('token' as const),
    at: fc.nat(),
    token: fc.constantFrom(...YAML_TOKENS),
  }),
  fc.record({
    op: fc.constant('delete' as const),
    at: fc.nat(),
    len: fc.integer({ min: 1, max: 80 }),
  }),
  fc.record({
    op: fc.constant('duplicate' as const),
    at: fc.nat(),
    len: fc.integer({ min: 1, max: 300 }),
  }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
);

function applyMutation(bytes: Buffer, m: Mutation): Buffer {
  const at = bytes.length === 0 ? 0 : m.at % (bytes.length + 1);
  switch (m.op) {
    case 'flip': {
      if (bytes.length === 0) return bytes;
      const copy = Buffer.from(bytes);
      const i = m.at % bytes.length;
      copy[i] = copy[i]! ^ (1 << m.bit);
      return copy;
    }
    case 'insert':
      return Buffer.concat([bytes.subarray(0, at), Buffer.from(m.bytes), bytes.subarray(at)]);
    case 'token':
      return Buffer.concat([bytes.subarray(0, at), Buffer.from(m.token), bytes.subarray(at)]);
    case 'delete':
      return Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + m.len)]);
    case 'duplicate':
      return Buffer.concat([bytes.subarray(0, at + m.len), bytes.subarray(at)]);
    case 'truncate':
      return bytes.subarray(0, at);
  }
}

/** Byte-level damage to a valid file. */
export function byteLevel(file: StateFile, baseline: string): fc.Arbitrary<FuzzedFile> {
  return fc
    .record({
      ops: fc.array(mutation, { minLength: 1, maxLength: 6 }),
      bom: fc.boolean(),
      crlf: fc.boolean(),
    })
    .map(({ ops, bom, crlf }) => {
      let bytes: Buffer = Buffer.from(crlf ? baseline.replace(/\n/g, '\r\n') : baseline);
      for (const op of ops) bytes = applyMutation(bytes, op);
      if (bom) bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
      return {
        file,
        how: `bytes ${ops.map((o) => o.op).join(',')}${bom ? ' +bom' : ''}${crlf ? ' +crlf' : ''}`,
        bytes,
      };
    });
}

const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'null',
    '~',
    'NaN',
    '2026-13-45T99:99:99Z',
    '../../etc/passwd',
    '/etc/passwd',
    'C:\\Windows\\system32',
    'src/**/../../..',
    '*',
    '[',
    ...ESCAPES.map((e) => `x${e}y`),
    ...Object.values(SECRETS).map((s) => `uses ${s}`),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ minLength: 2001, maxLength: 2100 }),
);

const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53 + 2, -(2 ** 31), 1e300),
  fc.integer(),
  fc.double({ noNaN: true }),
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileScalar },
  { weight: 1, arbitrary: fc.array(hostileScalar, { maxLength: 4 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), hostileScalar, { maxKeys: 3 }),
  },
);

type Json = unknown;

// Every path of a parsed value (objects and arrays), the root included.
function paths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

function setAt(root: Json, path: (string | number)[], value: Json): Json {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(root)) {
    const copy = [...root];
    copy[head as number] = setAt(copy[head as number], rest, value);
    return copy;
  }
  const obj = (root && typeof root === 'object' ? root : {}) as Record<string, Json>;
  return { ...obj, [head!]: setAt(obj[head as string], rest, value) };
}

function deleteAt(root: Json, path: (string | number)[]): Json {
  if (path.length === 0) return root;
  const [head, ...rest] = path;
  if (Array.isArray(root)) {
    if (rest.length === 0) return root.filter((_, i) => i !== head);
    return root.map((v, i) => (i === head ? deleteAt(v, rest) : v));
  }
  if (!root || typeof root !== 'object') return root;
  const obj = { ...(root as Record<string, Json>) };
  if (rest.length === 0) delete obj[head as string];
  else obj[head as string] = deleteAt(obj[head as string], rest);
  return obj;
}

type Edit =
  | { op: 'set'; pick: number; value: unknown }
  | { op: 'delete'; pick: number }
  | { op: 'add'; pick: number; key: string; value: unknown };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant('set' as const), pick: fc.nat(), value: hostileValue }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('add' as const),
      pick: fc.nat(),
      key: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'x')),
      value: hostileValue,
    }),
  },
);

// YAML a state file must not lean on, written around or into a serialized value.
type Feature =
  | 'none'
  | 'undefined alias'
  | 'alias bomb'
  | 'anchor and alias'
  | 'merge key'
  | 'tag'
  | 'duplicate key'
  | 'two documents'
  | 'deep nesting'
  | 'flow soup';

const FEATURES: Feature[] = [
  'none',
  'undefined alias',
  'alias bomb',
  'anchor and alias',
  'merge key',
  'tag',
  'duplicate key',
  'two documents',
  'deep nesting',
  'flow soup',
];

function withFeature(text: string, feature: Feature, firstKey: string, depth: number): string {
  const lines = text.split('\n');
  // The first top-level `key: value` line (not a comment) gets the feature, when there is one.
  const at = lines.findIndex((l) => /^[a-z_]+:\s*\S/.test(l));
  const key = at >= 0 ? lines[at]!.split(':')[0]! : firstKey;
  const replace = (value: string) => {
    if (at >= 0) lines[at] = `${key}: ${value}`;
    else lines.push(`${key}: ${value}`);
    return lines.join('\n');
  };
  switch (feature) {
    case 'none':
      return text;
    case 'undefined alias':
      return replace('*nope');
    case 'alias bomb': {
      const defs = ['bomb0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
      for (let i = 1; i < 9; i++)
        defs.push(
          `bomb${i}: &a${i} [${Array(9)
            .fill(`*a${i - 1}`)
            .join(', ')}]`,
        );
      return `${defs.join('\n')}\n${replace('*a8')}`;
    }
    case 'anchor and alias':
      return `${replace('&same "value"')}\nalso: *same\n`;
    case 'merge key':
      return `base: &base { ${key}: merged }\n${text}\n<<: *base\n`;
    case 'tag':
      return replace('!!binary aGVsbG8=');
    case 'duplicate key':
      return `${text}\n${key}: again\n`;
    case 'two documents':
      return `${text}\n---\n${text}`;
    case 'deep nesting':
      return replace(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    case 'flow soup':
      return replace('{ a: [1, {b: [2, {c: [3, *x]}]}] }');
  }
}

/** Structure-aware damage to a YAML state file (progress.yaml, config.yaml). */
export function structureAware(
  file: 'progress' | 'config',
  baseline: string,
): fc.Arbitrary<FuzzedFile> {
  const value = parse(baseline) as Json;
  const all = paths(value);
  return fc
    .record({
      edits: fc.array(edit, { minLength: 0, maxLength: 4 }),
      feature: fc.constantFrom(...FEATURES),
      depth: fc.integer({ min: 50, max: 20_000 }),
    })
    .map(({ edits, feature, depth }) => {
      let next = value;
      for (const e of edits) {
        const path = all[e.pick % all.length]!;
        if (e.op === 'set') next = setAt(next, path, e.value);
        else if (e.op === 'delete') next = deleteAt(next, path);
        else next = setAt(next, [...path, e.key], e.value);
      }
      let text: string;
      try {
        text = stringify(next, { aliasDuplicateObjects: false, lineWidth: 0 });
      } catch {
        text = baseline;
      }
      const firstKey = file === 'progress' ? 'stage' : 'test';
      return {
        file,
        how: `structure ${edits.map((e) => e.op).join(',') || 'as is'} + ${feature}`,
        bytes: Buffer.from(withFeature(text, feature, firstKey, depth)),
      };
    });
}

const markdownLine = fc.oneof(
  fc.constantFrom(
    '# ',
    '## Forbidden',
    '## Constraints',
    '## Success criteria',
    '## Non-goals',
    '## 禁区',
    '## 约束',
    '- `../**` — outside',
    '- `/etc/**`',
    '- `[` unbalanced',
    '- `src/{a,b` brace',
    '- ``',
    '```',
    '~~~',
    '    indented code',
    '> quote',
    '<!-- comment -->',
    '<script>alert(1)</script>',
    '中文的目标锚点没有空格中文的目标锚点没有空格中文的目标锚点没有空格',
    '\u202eevil',
    ...ESCAPES.map((e) => `- item ${e}`),
    ...Object.values(SECRETS).map((s) => `- ${s}`),
  ),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.string({ minLength: 1000, maxLength: 5000 }).map((s) => s.replace(/\n/g, ' ')),
);

/** Structure-aware damage to goals.md: sections, lists, fences, globs and text a parser trips on. */
export function goalsStructure(baseline: string): fc.Arbitrary<FuzzedFile> {
  return fc
    .record({
      keep: fc.integer({ min: 0, max: baseline.split('\n').length }),
      lines: fc.array(markdownLine, { minLength: 1, maxLength: 40 }),
      repeat: fc.integer({ min: 1, max: 30 }),
    })
    .map(({ keep, lines, repeat }) => {
      const head = baseline.split('\n').slice(0, keep).join('\n');
      const body = Array.from({ length: repeat }, () => lines.join('\n')).join('\n');
      return {
        file: 'goals' as const,
        how: `goals structure ${lines.length} lines × ${repeat}`,
        bytes: Buffer.from(`${head}\n${body}\n`),
      };
    });
}

/**
 * A valid progress.yaml whose texts are hostile (escapes, secrets, RTL overrides, odd Unicode):
 * the commands must work, print no control character, and redact the secret at the next write.
 */
export function hostileText(baseline: string): fc.Arbitrary<FuzzedFile> {
  const value = parse(baseline) as {
    next_action?: string;
    plan?: { title: string; note?: string }[];
  };
  const text = fc
    .array(
      fc.oneof(
        hostileString.filter((t) => t.length < 100),
        fc.constantFrom(...ESCAPES),
      ),
      {
        minLength: 1,
        maxLength: 4,
      },
    )
    .map((parts) => `text ${parts.join(' ')}`.replace(/\s+/g, ' ').slice(0, 400));
  return fc.record({ next: text, title: text, note: text }).map(({ next, title, note }) => {
    const plan = (value.plan ?? []).map((item, i) => (i === 1 ? { ...item, title, note } : item));
    return {
      file: 'progress' as const,
      how: 'hostile text, valid',
      bytes: Buffer.from(stringify({ ...value, next_action: next, plan }, { lineWidth: 0 })),
    };
  });
}

/** `count` malformed files spread over the three state files and both kinds of damage. */
export function fuzzedFiles(
  baselines: Record<StateFile, string>,
  count: number,
  seed: number,
): FuzzedFile[] {
  const arb = fc.oneof(
    { weight: 2, arbitrary: hostileText(baselines.progress) },
    { weight: 3, arbitrary: structureAware('progress', baselines.progress) },
    { weight: 2, arbitrary: byteLevel('progress', baselines.progress) },
    { weight: 2, arbitrary: structureAware('config', baselines.config) },
    { weight: 1, arbitrary: byteLevel('config', baselines.config) },
    { weight: 1, arbitrary: goalsStructure(baselines.goals) },
    { weight: 1, arbitrary: byteLevel('goals', baselines.goals) },
  );
  return fc.sample(arb, { numRuns: count, seed });
}
