// Secret redaction, applied before any evidence text, raw artifact or test log touches the disk.
// Works line by line so that a stream (a test log) and a whole text are redacted the same way;
// private key blocks, the one secret that spans lines, are tracked across lines.
import { mapStrings } from './safe-text.js';

// `join`: what stays before the marker is the first group, then `join` (none: the marker alone).
type Rule = [kind: string, pattern: RegExp, join?: string];

const marker = (kind: string): string => `[REDACTED:${kind}]`;

// Specific token formats first, so that an assignment such as `GITHUB_TOKEN=ghp_…` is counted
// once, as the GitHub token it is.
const RULES: Rule[] = [
  ['aws_access_key', /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}\b/g],
  ['google_api_key', /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g],
  ['azure_key', /\b(AccountKey|SharedAccessKey)=[A-Za-z0-9+/=]{40,}/g, '='],
  ['github_token', /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g],
  ['gitlab_token', /\bgl(?:pat|dt|rt|ptt|cbt|oas|soat|ffct|imt|agent)-[A-Za-z0-9_-]{20,}/g],
  ['slack_token', /\bxox[abposre]-[A-Za-z0-9-]{10,}/g],
  [
    'slack_webhook',
    /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/]+/g,
  ],
  ['anthropic_key', /\bsk-ant-[A-Za-z0-9_-]{20,}/g],
  ['openai_key', /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g],
  ['npm_token', /\bnpm_[A-Za-z0-9]{36}\b/g],
  ['bearer_token', /\b([Bb]earer)\s+[A-Za-z0-9._~+/=-]{16,}/g, ' '],
  ['basic_auth', /\b(Authorization["']?[ \t]*[:=][ \t]*["']?Basic)[ \t]+[A-Za-z0-9+/]+=*/gi, ' '],
  ['jwt', /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g],
  // `https://user:password@host`: the user stays, the password goes.
  ['url_password', /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]+:)[^\s/?#@]+(?=@)/gi, ''],
  // `--password X`, `--db-password 'X'`, `-storepass X` (`--password=X` is an assignment).
  [
    'password_flag',
    /(?<![\w-])(--?(?:[A-Za-z0-9_-]*(?:password|passwd|passphrase|secret|token|api[_-]?key)|(?:store|key)?pass))[ \t]+(?![-[<])("[^"\n]*"|'[^'\n]*'|[^\s"']+)/gi,
    ' ',
  ],
  // The MySQL clients take the password glued to -p: `mysql -u root -pX db`.
  [
    'mysql_password',
    /\b((?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n|;&]*?[ \t]-p)("[^"\n]*"|'[^'\n]*'|[^\s"']+)/g,
    '',
  ],
  // `password=…`, `secret: …`, `DB_PASSWORD="…"`, `client_secret: '…'`, `_authToken=…`: the
  // key and separator stay (they say what was there), the value goes. After a colon, a word
  // followed by more words is prose (`passwd: no such directory`), not a value.
  [
    'secret',
    /\b([A-Za-z0-9_.-]*(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?)[A-Za-z0-9_.-]*["']?[ \t]*(?:=|:(?![ \t]*[a-z]+[ \t]+[a-z]))[ \t]*)(?!\[REDACTED)("[^"\n]+"|'[^'\n]+'|[^\s"',;]+)/gi,
    '',
  ],
];

const KEY_BEGIN = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
const KEY_END = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;

/** Redacts a text or a stream of chunks; counts what it replaced. */
export interface Redactor {
  /** Redacts what can be redacted of `chunk` now (complete lines); keeps the rest for later. */
  push(chunk: string): string;
  /** Redacts and returns what is left. */
  end(): string;
  /** How many secrets were replaced so far. */
  readonly count: number;
  /** Replacements per kind of secret. */
  readonly kinds: Readonly<Record<string, number>>;
}

// A line longer than this without a newline is redacted as it is (a secret split across the cut
// may survive; no log line that long holds one in practice).
const MAX_PENDING = 1024 * 1024;

/** Creates a line-based redactor (for a stream); redactSecrets uses one for a whole text. */
export function createRedactor(): Redactor {
  const kinds: Record<string, number> = {};
  let count = 0;
  let pending = '';
  let inKey = false;
  const hit = (kind: string) => {
    count++;
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  };
  // Null: the line vanishes (it is inside a key block, or only closed one).
  const redactLine = (line: string): string | null => {
    if (inKey) {
      const end = KEY_END.exec(line);
      if (!end) return null;
      inKey = false;
      const rest = line.slice(end.index + end[0].length);
      return rest.trim() === '' ? null : redactLine(rest);
    }
    const begin = KEY_BEGIN.exec(line);
    if (begin) {
      hit('private_key');
      const head = redactPlain(line.slice(0, begin.index));
      const rest = line.slice(begin.index + begin[0].length);
      const end = KEY_END.exec(rest);
      if (end) {
        const tail = redactLine(rest.slice(end.index + end[0].length)) ?? '';
        return `${head}${marker('private_key')}${tail}`;
      }
      inKey = true;
      return `${head}${marker('private_key')}`;
    }
    return redactPlain(line);
  };
  const redactPlain = (line: string): string => {
    let out = line;
    for (const [kind, pattern, join] of RULES) {
      pattern.lastIndex = 0;
      out = out.replace(pattern, (...args: unknown[]) => {
        hit(kind);
        const group = typeof args[1] === 'string' ? args[1] : '';
        return (join === undefined ? '' : group + join) + marker(kind);
      });
    }
    return out;
  };
  // Lines keep their terminator; a line that vanishes takes its newline with it.
  const run = (text: string, final: boolean): string => {
    let out = '';
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl === -1) break;
      const redacted = redactLine(text.slice(start, nl));
      if (redacted !== null) out += `${redacted}\n`;
      start = nl + 1;
    }
    const rest = text.slice(start);
    if (final || rest.length > MAX_PENDING) {
      pending = '';
      return out + (redactLine(rest) ?? '');
    }
    pending = rest;
    return out;
  };
  return {
    push: (chunk) => run(pending + chunk, false),
    end: () => run(pending, true),
    get count() {
      return count;
    },
    get kinds() {
      return kinds;
    },
  };
}

// A substring every rule above needs (case aside): a text without one holds no secret, and most
// texts are checked with this one scan (every text printed or stored is redacted).
const MAYBE_SECRET =
  /AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA|AIza|gh[pousr]_|github_pat_|gl[a-z]{2,6}-|xox|hooks\.slack\.com|sk-|npm_|bearer|pass|secret|token|key|credential|authorization|eyJ|:\/\/[^\s@]*@|mysql|mariadb/i;

/** Redacts every known secret in `text`. */
export function redactSecrets(text: string): {
  text: string;
  redactions: number;
  kinds: Record<string, number>;
} {
  if (!MAYBE_SECRET.test(text)) return { text, redactions: 0, kinds: {} };
  const redactor = createRedactor();
  const out = redactor.push(text) + redactor.end();
  return { text: out, redactions: redactor.count, kinds: { ...redactor.kinds } };
}

/**
 * `value` with every string redacted (keys are names and stay); objects other than plain ones
 * and arrays are returned as they are. For data on its way to disk or to a model: redacting the
 * rendered text instead would break the JSON or XML it may be.
 */
export function redactValue<T>(value: T): T {
  return mapStrings(value, (text) => redactSecrets(text).text);
}
