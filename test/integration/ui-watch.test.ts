// What the page watches to know the task moved (real files, real git): the state folders, and
// git's HEAD and index — in a linked worktree those live in the main repository's
// .git/worktrees/NAME/, not behind the worktree's `.git` file.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { initState } from '../../src/state/init.js';
import { findRepo } from '../../src/state/find-root.js';
import { watchTask, type StopWatching } from '../../src/ui/watch-task.js';
import { git, gitdir } from '../helpers/fixtures.js';

// Resolves once `onChange` has been called after `act`, or rejects after `ms`.
function changeAfter(dir: string, act: () => void, ms = 5000): Promise<'changed'> {
  return new Promise((resolve, reject) => {
    let armed = false;
    const stop: StopWatching = watchTask(findRepo(dir), () => {
      if (!armed) return;
      clearTimeout(timer);
      stop();
      resolve('changed');
    });
    stops.push(stop);
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no change seen within ${ms} ms`));
    }, ms);
    // Let the first poll take its baseline, then act.
    setTimeout(() => {
      armed = true;
      act();
    }, 50);
  });
}

const stops: StopWatching[] = [];
afterEach(() => stops.splice(0).forEach((stop) => stop()));

describe('watchTask', () => {
  it('sees a branch switch in the main worktree', async () => {
    const dir = gitdir();
    initState({ cwd: dir, goal: 'Watch the task' });
    await expect(changeAfter(dir, () => git(dir, 'checkout', '-q', '-b', 'other'))).resolves.toBe(
      'changed',
    );
  });

  it('sees a branch switch and a commit in a linked worktree', async () => {
    const main = gitdir();
    const linked = join(main, '..', `${main.split('/').pop()}-linked`);
    git(main, 'worktree', 'add', '-q', '-b', 'side', linked);
    initState({ cwd: linked, goal: 'Watch the linked worktree' });
    await expect(
      changeAfter(linked, () => git(linked, 'checkout', '-q', '-b', 'third')),
    ).resolves.toBe('changed');
    await expect(
      changeAfter(linked, () => git(linked, 'commit', '-q', '--allow-empty', '-m', 'empty')),
    ).resolves.toBe('changed');
  });
});
