import { describe, expect, it } from 'vitest';
import { shellWords, shellWrittenPaths, stripHeredocs } from '../../src/hosts/shell-paths.js';

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
    expect(stripHeredocs(command)).toBe("cat > notes.md <<'EOF'\necho done");
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
