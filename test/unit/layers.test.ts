// The layers of src/ as docs/architecture.md declares them: every folder is named there, no
// import climbs to a higher floor, and no file imports itself through others (a cycle).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/fixtures.js';

const SRC = join(REPO_ROOT, 'src');

// floor → names, from the table between the layers markers.
function declaredFloors(): Map<string, number> {
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'architecture.md'), 'utf8');
  const table = /<!-- layers[^>]*-->([\s\S]*?)<!-- \/layers -->/.exec(doc)?.[1] ?? '';
  const floors = new Map<string, number>();
  for (const row of table.split('\n')) {
    const cells = row.split('|').map((c) => c.trim());
    const floor = Number(cells[1]);
    if (cells.length < 4 || !/^\d+$/.test(cells[1] ?? '')) continue;
    for (const m of (cells[2] ?? '').matchAll(/`([^`]+)`/g))
      floors.set(m[1]!.replace(/\/$/, '').replace(/\.ts$/, ''), floor);
  }
  return floors;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

// Every relative import of a file (static, dynamic and type-only), as absolute .ts paths.
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) =>
    resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts'),
  );
}

const room = (file: string) => relative(SRC, file).split('/')[0]!.replace(/\.ts$/, '');
const files = sourceFiles(SRC);

describe('the layers of src/ (docs/architecture.md)', () => {
  const floors = declaredFloors();

  it('names every folder and top-level file of src/', () => {
    const rooms = [...new Set(files.map(room))].sort();
    expect(rooms.filter((r) => !floors.has(r))).toEqual([]);
    expect([...floors.keys()].filter((r) => !rooms.includes(r))).toEqual([]);
  });

  it('has no import that climbs to a higher floor', () => {
    const climbs = files.flatMap((file) =>
      importsOf(file)
        .filter((target) => (floors.get(room(target)) ?? 0) > (floors.get(room(file)) ?? 0))
        .map((target) => `${relative(SRC, file)} -> ${relative(SRC, target)}`),
    );
    expect(climbs).toEqual([]);
  });

  it('has no import cycle between files', () => {
    const graph = new Map(files.map((f) => [f, importsOf(f).filter((t) => files.includes(t))]));
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push(
          path
            .slice(path.indexOf(file))
            .map((f) => relative(SRC, f))
            .join(' -> '),
        );
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) visit(next, [...path, next]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, [file]);
    expect(cycles).toEqual([]);
  });
});
