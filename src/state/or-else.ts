// Best-effort reads of state and host files: a failure (absent, unreadable, not JSON) is an
// answer, the fallback, never an error.

/** What `read` returns, or `fallback` when it throws. */
export function orElse<T, F>(read: () => T, fallback: F): T | F {
  try {
    return read();
  } catch {
    return fallback;
  }
}
