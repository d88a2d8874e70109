// A new value applied to a YAML Document with the smallest change: untouched nodes keep comments,
// order and style; items with an `id` match by id, so an insert shifts no other item's comments.
import { isDeepStrictEqual } from 'node:util';
import { isMap, isScalar, isSeq, type Document, type Node } from 'yaml';

type Plain = null | boolean | number | string | Plain[] | { [key: string]: Plain };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function idOf(value: unknown): string | undefined {
  return isPlainObject(value) && typeof value.id === 'string' ? value.id : undefined;
}

function nodeId(node: unknown): string | undefined {
  if (!isMap(node)) return undefined;
  const id = node.get('id');
  return typeof id === 'string' ? id : undefined;
}

// A new item with an id takes `donors`' node of that id and value: a merge keeps its comments.
/** Updates `doc` in place so that `doc.toJS()` deep-equals `value`. */
export function syncDocument(
  doc: Document,
  value: unknown,
  donors: ReadonlyMap<string, Node> = new Map(),
): void {
  doc.contents = syncNode(doc, doc.contents, value, donors) as Document['contents'];
}

function fromDonor(doc: Document, value: unknown, donors: ReadonlyMap<string, Node>): Node {
  const donor = donors.get(idOf(value)!);
  if (donor && isDeepStrictEqual(donor.toJS(doc), value)) return donor.clone() as Node;
  return doc.createNode(value);
}

function syncNode(
  doc: Document,
  node: unknown,
  value: unknown,
  donors: ReadonlyMap<string, Node>,
): unknown {
  if (isPlainObject(value) && isMap(node)) {
    const wasEmpty = node.items.length === 0;
    node.items = node.items.filter((pair) => isScalar(pair.key) && String(pair.key.value) in value);
    for (const [key, child] of Object.entries(value)) {
      if (child === undefined) continue;
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
      if (pair) pair.value = syncNode(doc, pair.value, child, donors);
      else node.items.push(doc.createPair(key, child as Plain));
    }
    // `{}` written as flow style stays flow when filled; block style reads better.
    if (wasEmpty && node.items.length > 0) node.flow = false;
    return node;
  }
  if (Array.isArray(value) && isSeq(node)) {
    const wasEmpty = node.items.length === 0;
    const byId = value.every((v) => idOf(v) !== undefined) && node.items.every((n) => nodeId(n));
    if (byId) {
      const existing = new Map(node.items.map((n) => [nodeId(n)!, n]));
      node.items = value.map((v) => {
        const old = existing.get(idOf(v)!);
        return old === undefined ? fromDonor(doc, v, donors) : syncNode(doc, old, v, donors);
      });
    } else {
      node.items = value.map((v, i) =>
        i < node.items.length ? syncNode(doc, node.items[i], v, donors) : doc.createNode(v),
      );
    }
    if (wasEmpty && node.items.length > 0) node.flow = false;
    return node;
  }
  if (isScalar(node) && (value === null || typeof value !== 'object')) {
    if (node.value !== value) node.value = value;
    return node;
  }
  const created: Node = doc.createNode(value);
  if (isMap(created) || isSeq(created)) created.flow = false;
  return created;
}
