// Opening a URL in the user's browser (`ui --open`, `npm run demo -- --open`): the platform's own
// opener, detached, so the browser outlives nothing of ours and we never wait on it.
import { spawn } from 'node:child_process';

function opener(url: string): [string, string[]] {
  if (process.platform === 'darwin') return ['open', [url]];
  if (process.platform === 'win32') return ['cmd', ['/c', 'start', '""', url]];
  return ['xdg-open', [url]];
}

/** Opens `url`; resolves to null, or to why it could not (the caller prints the URL anyway). */
export function openUrl(url: string, env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const [command, args] = opener(url);
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args, { env, stdio: 'ignore', detached: true });
      child.once('error', (error: NodeJS.ErrnoException) =>
        resolve(error.code === 'ENOENT' ? `${command} is not installed` : error.message),
      );
      child.once('spawn', () => {
        child.unref();
        resolve(null);
      });
    } catch (error) {
      resolve(error instanceof Error ? error.message : String(error));
    }
  });
}
