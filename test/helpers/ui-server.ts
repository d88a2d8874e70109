// Running the real `agent-state ui` for a test: spawns the bin, waits for the URL it prints, and
// stops it (SIGTERM) afterwards. Also a raw HTTP GET that can send any Host header.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { afterAll } from 'vitest';
import { BIN } from './fixtures.js';

export interface RunningUi {
  child: ChildProcess;
  /** The URL printed, with the token. */
  url: string;
  /** The same URL without the token. */
  base: string;
  port: number;
  token: string | null;
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts `agent-state ui ...args` in `cwd` and resolves once it printed its URL. */
export function startUi(cwd: string, args: string[] = []): Promise<RunningUi> {
  const child = spawn(process.execPath, [BIN, 'ui', ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: '1' },
  });
  running.add(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`ui printed no URL: ${out}${err}`)), 20_000);
    const look = () => {
      const match = /(http:\/\/[^\s"]+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      const url = new URL(match[1]!);
      const token = url.searchParams.get('token');
      resolve({
        child,
        url: url.href,
        base: `${url.origin}/`,
        port: Number(url.port),
        token,
        stdout: () => out,
        stderr: () => err,
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout!.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`ui exited ${code} before printing a URL: ${out}${err}`));
    });
  });
}

/** A GET to 127.0.0.1:`port` with the headers given (Host included), without a browser. */
export function rawGet(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}
