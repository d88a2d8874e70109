import { describe, expect, it } from 'vitest';
import { shellWrites, shellWrittenPaths } from '../../src/hosts/shell-paths.js';
import { shellWords } from '../../src/hosts/shell-words.js';

describe('shellWrittenPaths', () => {
  it.each([
    ['echo hi > src/a.txt', ['src/a.txt']],
    ['echo hi >> "dir with space/log.txt"', ['dir with space/log.txt']],
    ['npm test 2>&1 | tee out.log', ['out.log']],
    ['cmd &> all.log', ['all.log']],
    ['rm -rf build dist', ['build', 'dist']],
    ['mv old.js new.js', ['old.js', 'new.js']],
    ['cp -r src/a.js lib/a.js', ['lib/a.js']],
    ['touch a && mkdir -p b/c; rmdir d', ['a', 'b/c', 'd']],
    ["sed -i 's/a/b/' src/x.js src/y.js", ['src/x.js', 'src/y.js']],
    ["sed -i -e 's/a/b/' src/x.js", ['src/x.js']],
    ['git rm --cached secret.pem', ['secret.pem']],
    ['sudo rm /etc/hosts', ['/etc/hosts']],
    ['FOO=1 rm x', ['x']],
    ['dd if=/dev/zero of=disk.img bs=1M count=1', ['disk.img']],
    // A command named like an Object.prototype key is a command like any other.
    ['toString > out.txt', ['out.txt']],
    ['constructor x; __proto__ > y', ['y']],
  ])('%s → %j', (command, expected) => {
    expect(shellWrittenPaths(command)).toEqual(expected);
  });

  it('reports nothing for read-only commands, substitutions, globs and /dev/null', () => {
    expect(shellWrittenPaths('ls -la && cat README.md | grep x')).toEqual([]);
    expect(shellWrittenPaths('npm test > /dev/null 2>&1')).toEqual([]);
    expect(shellWrittenPaths('rm $(find . -name "*.tmp")')).toEqual([]);
    expect(shellWrittenPaths('rm src/*.js ~/x')).toEqual([]);
    expect(shellWrittenPaths('echo "a > b" ; grep -r ">" .')).toEqual([]);
  });

  it('treats here-document bodies as data, not commands', () => {
    const command = "cat > notes.md <<'EOF'\nrm -rf src\nmv a b\nEOF\necho done";
    expect(shellWrittenPaths(command)).toEqual(['notes.md']);
  });

  it.each([
    ['cd src/storage && echo x > db.ts', ['src/storage/db.ts']],
    ['cd src && cd storage; rm db.ts', ['src/storage/db.ts']],
    ['cd /abs/dir && touch f', ['/abs/dir/f']],
    ['cd ./src/../lib && mv a b', ['lib/a', 'lib/b']],
    ['(cd src/storage && echo x > db.ts); echo y > top.txt', ['src/storage/db.ts', 'top.txt']],
    ['pushd src/storage && rm db.ts', ['src/storage/db.ts']],
    ['cd -- src && rm x', ['src/x']],
    ['cd src | true; rm x', ['x']],
  ])('resolves writes after a cd: %s → %j', (command, expected) => {
    expect(shellWrittenPaths(command)).toEqual(expected);
  });

  it('drops relative writes after a cd it cannot follow, keeps absolute ones', () => {
    expect(shellWrittenPaths('cd "$DIR" && rm x /tmp/abs')).toEqual(['/tmp/abs']);
    expect(shellWrittenPaths('cd && rm x')).toEqual([]);
    expect(shellWrittenPaths('cd - && rm x')).toEqual([]);
    expect(shellWrittenPaths('cd src && popd && rm x')).toEqual([]);
  });

  it('splits words with quotes and escapes', () => {
    expect(shellWords(`a "b c" 'd;e' f\\ g; h`)).toEqual([['a', 'b c', 'd;e', 'f g'], ['h']]);
  });
});

// What a guard needs beyond the written files: whole trees a command deletes or moves, copies
// into a directory, and the paths a command it cannot read names (issue 21, item 5).
describe('shellWrites', () => {
  const has = (command: string, path: string, how: string) =>
    expect(shellWrites(command), command).toContainEqual({ path, how });

  it.each([
    'env X=1 touch src/storage/a',
    'env -i PATH=/bin touch src/storage/a',
    'nice touch src/storage/a',
    'nice -n 5 touch src/storage/a',
    'nice -10 touch src/storage/a',
    'timeout 5 touch src/storage/a',
    'timeout -s KILL 5s touch src/storage/a',
    'command -p touch src/storage/a',
    'busybox touch src/storage/a',
    'sudo -u root touch src/storage/a',
    'nohup touch src/storage/a',
    'stdbuf -o0 touch src/storage/a',
    'time -p touch src/storage/a',
    'exec touch src/storage/a',
    'env nice timeout 3 command touch src/storage/a',
    '/usr/bin/env touch src/storage/a',
  ])('sees through the wrapper: %s', (command) => {
    has(command, 'src/storage/a', 'write');
  });

  it('copies into a target directory (-t) and into an existing one', () => {
    has('cp -t src/storage README.md', 'src/storage/README.md', 'tree');
    has('cp --target-directory=src/storage a b', 'src/storage/b', 'tree');
    has('mv -t src/storage x', 'src/storage/x', 'tree');
    has('cp README.md src/storage', 'src/storage', 'into');
    has('cp README.md src/storage', 'src/storage/README.md', 'inside');
    has('install -m 644 a.js src', 'src/a.js', 'inside');
    // What lands there is a tree's content: the destination as a whole.
    has('cp -r evil/. src', 'src', 'tree');
    has('cp -rT evil src', 'src', 'tree');
    has('rsync -a --delete empty/ src/', 'src/', 'tree');
  });

  it('reports whole trees for recursive deletes and moves', () => {
    has('rm -rf src', 'src', 'tree');
    has('rm -rf .', '.', 'tree');
    has('rm -rf *', '*', 'tree');
    has('mv src /tmp/elsewhere', 'src', 'tree');
    has('find src -delete', 'src', 'tree');
    has('find src -name "*.js" -exec rm {} +', 'src', 'tree');
    has('find -type f -delete', '.', 'tree');
    has('git clean -fdx', '.', 'tree');
    has('git clean -fd src', 'src', 'tree');
    has('git rm -r src', 'src', 'tree');
    expect(shellWrites('find src -name "*.js" -exec grep -l x {} +')).toEqual([]);
    expect(shellWrites('find src -name "*.js"')).toEqual([]);
    expect(shellWrites('git clean -n')).toEqual([]);
  });

  it('follows nested shells, eval and command substitutions', () => {
    has("sh -c 'echo x > src/storage/a'", 'src/storage/a', 'write');
    has('bash -lc "rm -f src/storage/db.ts"', 'src/storage/db.ts', 'tree');
    has('eval "touch src/storage/a"', 'src/storage/a', 'write');
    has('echo "$(touch src/storage/a)"', 'src/storage/a', 'write');
    has('echo `touch src/storage/a`', 'src/storage/a', 'write');
    has("bash <<'EOF'\ntouch src/storage/a\nEOF", 'src/storage/a', 'write');
    has('cd src && sh -c "touch storage/a"', 'src/storage/a', 'write');
  });

  it('reads an apply_patch given on the shell (Codex runs it itself)', () => {
    const patch =
      "apply_patch <<'EOF'\n*** Begin Patch\n  *** Add File: src/storage/n.js\n+x\n*** End Patch\nEOF";
    has(patch, 'src/storage/n.js', 'write');
  });

  it('reports the paths named by a command it cannot read, and none for plain readers', () => {
    has(`python3 -c "open('src/storage/a', 'w')"`, 'src/storage/a', 'named');
    has("python3 - <<'EOF'\nopen('src/storage/a', 'w')\nEOF", 'src/storage/a', 'named');
    has('git checkout -- src/storage/db.ts', 'src/storage/db.ts', 'named');
    has('curl -o src/storage/x https://example.com', 'src/storage/x', 'named');
    has('tool --out=src/storage/x', 'src/storage/x', 'named');
    has("sed -n 'w src/storage/x' README.md", 'src/storage/x', 'named');
    for (const reader of [
      'cat src/storage/db.ts',
      "sed -n '1,20p' src/storage/db.ts",
      'grep -rn db src/storage | head -5',
      'rg db src/storage',
      'git diff -- src/storage',
      'ls -la src/storage && wc -l src/storage/db.ts',
      "awk '{print $1}' src/storage/db.ts",
      'agent-state next "leave src/storage/db.ts alone"',
    ])
      expect(
        shellWrites(reader).filter((w) => w.how !== 'named' || w.path.includes('storage')),
        reader,
      ).toEqual([]);
  });
});

describe('shellWrites on hostile nesting', () => {
  // 1,000 nested evals took 6 s (each level reads the rest again), past a host's hook timeout.
  it('reads deep nesting in linear time, and still reports the paths named at the bottom', () => {
    const started = Date.now();
    const writes = shellWrites(`${'eval '.repeat(3000)}touch src/storage/a`);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(writes).toContainEqual({ path: 'src/storage/a', how: 'named' });
    expect(shellWrites(`sh -c 'bash -c "eval touch src/storage/a"'`)).toContainEqual({
      path: 'src/storage/a',
      how: 'write',
    });
  });
});
