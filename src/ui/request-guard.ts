// Who may read the page (pure): a request must name this server in its Host header (a web page
// that rebinds its own DNS name to 127.0.0.1 sends that name, and is refused), must not come from
// another origin, and must carry the token printed at start (other local users and programs do
// not have it). Compared in constant time.
import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** What the server accepts. */
export interface GuardOptions {
  /** The port the server listens on. */
  port: number;
  /** The address it is bound to (`--host`), as given. */
  host: string;
  /** The token every request must carry; null with --no-token. */
  token: string | null;
}

/** Why a request is refused, or null when it may proceed. */
export type Refusal = { status: 403; reason: string } | null;

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

// The host part of a Host header (`[::1]:8080` → `[::1]`) and its port (null when absent).
function splitHost(value: string): { name: string; port: number | null } | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(value.trim());
  if (!match) return null;
  return { name: match[1]!.toLowerCase(), port: match[2] === undefined ? null : Number(match[2]) };
}

/**
 * Whether `hostHeader` names this server. A DNS name is accepted only when it is `localhost` or
 * the `--host` given; any IP literal is accepted (DNS rebinding needs a name).
 */
export function hostAllowed(hostHeader: string | undefined, options: GuardOptions): boolean {
  const parsed = hostHeader ? splitHost(hostHeader) : null;
  // No port in the header: the default one, 80.
  if (!parsed || (parsed.port ?? 80) !== options.port) return false;
  const { name } = parsed;
  if (LOOPBACK_NAMES.has(name) || name === options.host.toLowerCase()) return true;
  const bare = name.startsWith('[') ? name.slice(1, -1) : name;
  return isIP(bare) !== 0;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Checks one request's Host, Origin and token. */
export function checkRequest(
  request: { host: string | undefined; origin: string | undefined; token: string | null },
  options: GuardOptions,
): Refusal {
  if (!hostAllowed(request.host, options))
    return {
      status: 403,
      reason: `this server answers only to its own address (Host: ${request.host ?? '(none)'} is not it)`,
    };
  if (request.origin && request.origin !== 'null' && request.origin !== `http://${request.host}`)
    return { status: 403, reason: 'requests from other web pages are refused' };
  if (options.token !== null && !sameToken(request.token ?? '', options.token))
    return {
      status: 403,
      reason:
        request.token === null
          ? 'this page needs the token: open the URL `agent-state ui` printed (…/?token=…)'
          : 'wrong token: open the URL `agent-state ui` printed',
    };
  return null;
}
