// The commands that run rarely but would weigh on every start-up (hooks install/uninstall/status,
// watch with its glob matcher and file watcher) are bundled apart (dist/bundle/lazy-entry.js) and loaded
// by path when one of them runs: see lazy.ts.
export { installHooks, uninstallHooks } from '../git-hooks/install.js';
export { hooksStatus } from '../git-hooks/status.js';
export { watchState } from '../watch/watch.js';
