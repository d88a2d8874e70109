// The user's home directory as the hosts see it: $HOME when set, else the OS's.
import { homedir } from 'node:os';

/** $HOME, or the OS's home directory when it is unset or empty. */
export function homeDir(env: NodeJS.ProcessEnv): string {
  return env.HOME && env.HOME !== '' ? env.HOME : homedir();
}
