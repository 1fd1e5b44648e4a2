import { PhantomError } from '../core/errors';
import {
  bindExpression, parseTemplateParts, percentDecode, setParam, type TemplateExpression as Expression,
  type TemplateOperator, type TemplateParams, type UriTemplate, type VarSpec,
} from './uri-template';

/** The template that matched a URI, the value registered with it, and the decoded variables. */
export interface TemplateMatch<T> {
  readonly value: T;
  readonly template: UriTemplate;
  readonly params: TemplateParams;
}

type PathOperator = Exclude<TemplateOperator, '?' | '&'>;

/**
 * How an expression consumes URI text. A run (`{x}`, `{+x}`) takes one or more characters; a
 * prefixed expression (`{#x}`, `{.x}`, `{/x}`, `{;x}`) takes zero to `max` parts, each its prefix
 * character and then a value, because RFC 6570 expands an all-undefined expression to nothing.
 */
interface Slot {
  readonly prefix: string;
  readonly max: number;
  /** characters a value cannot contain */
  readonly stops: string;
}

/**
 * The reserved characters (RFC 3986 gen-delims and sub-delims) that expansion without `+` or `#`
 * always percent-encodes in a value, so such a variable never spans one: `{.x}{;y}` splits
 * `.x1;y=2` at the `;`. Left out: `,`, which the expansion itself writes between list items and
 * variables, and `!'()*`, which JavaScript's `encodeURIComponent` (the official TypeScript SDK's
 * expansion) leaves as they are. Characters outside the URI grammar (spaces, non-ASCII, a stray `%`) are
 * still accepted, as sloppy clients send them and they cannot be mistaken for structure.
 */
const ENCODED_RESERVED = ':/?#[]@$&+;=';

const SLOT_RULES: Readonly<Record<PathOperator, { readonly prefix: string; readonly stops: string }>> = {
  '': { prefix: '', stops: ENCODED_RESERVED },
  '+': { prefix: '', stops: '' },
  '#': { prefix: '#', stops: '' },
  // '.' is unreserved, so a value can hold one, but a label cannot: it starts the next label.
  '.': { prefix: '.', stops: `${ENCODED_RESERVED}.` },
  '/': { prefix: '/', stops: ENCODED_RESERVED },
  // Each part is `name` or `name=value`: the expansion writes that `=` itself.
  ';': { prefix: ';', stops: ENCODED_RESERVED.replace('=', '') },
};

/** A trie node. Its path from the root is unique, so the literal and reserved counts are static. */
class Node<T> {
  readonly chars = new Map<string, Node<T>>();
  readonly slots = new Map<string, Node<T>>();
  readonly leaves: Leaf<T>[] = [];
  constructor(
    readonly id: number,
    readonly parent: Node<T> | undefined,
    readonly key: string,
    readonly slot: Slot | undefined,
    readonly literals: number,
    readonly wide: number,
  ) {}
}

interface Leaf<T> {
  readonly template: UriTemplate;
  readonly value: T;
  readonly seq: number;
  readonly node: Node<T>;
  /** one per slot on the path to `node`, in order */
  readonly path: readonly Expression[];
  /** the trailing `{?..}{&..}` variables, matched as an unordered set */
  readonly query: readonly VarSpec[];
  readonly queryOp: '?' | '&' | undefined;
  readonly fragment: Expression | undefined;
}

/** Slot entry and exit positions, newest first; shared between threads so a fork costs nothing. */
type Mark = { readonly at: number; readonly prev: Mark | undefined };

interface Thread<T> {
  readonly node: Node<T>;
  /** inside the node's slot (may consume more) rather than past it */
  readonly inside: boolean;
  readonly parts: number;
  readonly marks: Mark | undefined;
}

/** The threads alive at one position, in priority order, and the states they hold. */
type Frontier<T> = { readonly threads: Thread<T>[]; readonly seen: Set<string> };

/** Where a query tail starts: the first query pair it may bind, and whether a fragment follows. */
type TailStart = { readonly from: number; readonly fragment: boolean };

interface Candidate<T> {
  readonly leaf: Leaf<T>;
  readonly marks: Mark | undefined;
  readonly tail: TailStart | undefined;
  readonly literals: number;
}

/**
 * Finds the most specific registered template for a URI, in time linear in the URI's length.
 *
 * Templates share one trie: literal characters are edges, expressions are slot nodes keyed by how
 * they consume text (not by variable name), so `users://{id}` and `users://{name}/x` share nodes.
 * A match runs every viable path in lock-step over the URI (a Pike VM), keeping at most one thread
 * per trie state, so no path is retried: the work per character is the number of states alive at
 * once, which grows with how templates overlap (expressions side by side), not with their count.
 * Only templates identical up to variable names share a node's leaf list and are all scored.
 *
 * Precedence: more literal characters (query names bound count as literal), then fewer `{+..}`
 * and `{#..}` expressions, then fewer variables, then earlier registration.
 *
 * @example
 * const matcher = new TemplateMatcher<string>();
 * matcher.add(parseUriTemplate('users://{id}/profile'), 'profile');
 * matcher.add(parseUriTemplate('users://{+rest}'), 'any');
 * matcher.match('users://42/profile');  // { value: 'profile', params: { id: '42' }, template }
 */
export class TemplateMatcher<T> {
  private readonly root = new Node<T>(0, undefined, '', undefined, 0, 0);
  private readonly bySource = new Map<string, Leaf<T>>();
  private nextId = 1;
  private nextSeq = 0;

  /** Registers a template; the same source twice is a `PhantomError('uri_template_duplicate')`. */
  add(template: UriTemplate, value: T): void {
    if (this.bySource.has(template.source)) {
      throw new PhantomError('uri_template_duplicate', `URI template "${template.source}" is already registered`);
    }
    const parts = parseTemplateParts(template.source);
    const queryAt = parts.findIndex((p) => p.kind === 'expression' && (p.op === '?' || p.op === '&'));
    const tail = (queryAt < 0 ? [] : parts.slice(queryAt)) as Expression[];
    let node = this.root;
    const path: Expression[] = [];
    for (const part of queryAt < 0 ? parts : parts.slice(0, queryAt)) {
      if (part.kind === 'literal') {
        // Code units, like the matching loop, so astral characters compare the same way.
        for (let k = 0; k < part.text.length; k++) node = this.child(node, part.text[k], undefined);
      } else {
        const { key, slot } = slotOf(part);
        path.push(part);
        node = this.child(node, key, slot);
      }
    }
    const fragment = tail.length > 0 && tail[tail.length - 1].op === '#' ? tail[tail.length - 1] : undefined;
    const leaf: Leaf<T> = {
      template, value, seq: this.nextSeq++, node, path,
      query: tail.filter((e) => e !== fragment).flatMap((e) => e.vars),
      queryOp: tail.length > 0 ? (tail[0].op as '?' | '&') : undefined,
      fragment,
    };
    node.leaves.push(leaf);
    this.bySource.set(template.source, leaf);
  }

  /** Unregisters a template by its source text; returns false when it was not registered. */
  remove(source: string): boolean {
    const leaf = this.bySource.get(source);
    if (!leaf) return false;
    this.bySource.delete(source);
    let node = leaf.node;
    node.leaves.splice(node.leaves.indexOf(leaf), 1);
    // Prune the branch nobody uses any more, so add/remove churn does not grow the trie.
    while (node.parent && node.chars.size === 0 && node.slots.size === 0 && node.leaves.length === 0) {
      (node.slot ? node.parent.slots : node.parent.chars).delete(node.key);
      node = node.parent;
    }
    return true;
  }

  /** The best template for `uri`, or undefined. Never throws, whatever the input. */
  match(uri: string): TemplateMatch<T> | undefined {
    if (typeof uri !== 'string' || this.bySource.size === 0) return undefined;
    const scan = new UriScan(uri);
    const found: Candidate<T>[] = [];
    let frontier: Frontier<T> = { threads: [], seen: new Set() };
    this.enter(frontier, this.root, false, 0, undefined, 0);
    for (let i = 0; frontier.threads.length > 0; i++) {
      collect(frontier, i, scan, found);
      if (i === uri.length) break;
      const next: Frontier<T> = { threads: [], seen: new Set() };
      for (const thread of frontier.threads) this.step(thread, uri[i], i, next);
      frontier = next;
    }
    return best(found, scan);
  }

  get size(): number {
    return this.bySource.size;
  }

  private child(node: Node<T>, key: string, slot: Slot | undefined): Node<T> {
    const children = slot ? node.slots : node.chars;
    let child = children.get(key);
    if (!child) {
      const wide = slot && !slot.stops ? 1 : 0;
      child = new Node(this.nextId++, node, key, slot, node.literals + (slot ? 0 : 1), node.wide + wide);
      children.set(key, child);
    }
    return child;
  }

  /** Adds a thread at `pos` with its epsilon moves; the first thread to reach a state keeps it. */
  private enter(into: Frontier<T>, node: Node<T>, inside: boolean, parts: number, marks: Mark | undefined, pos: number): void {
    const key = inside ? `${node.id}:${parts}` : `${node.id}`;
    if (into.seen.has(key)) return;
    into.seen.add(key);
    const self: Thread<T> = { node, inside, parts, marks };
    if (!inside) {
      into.threads.push(self);
      for (const child of node.slots.values()) {
        if (child.slot!.prefix) this.enter(into, child, true, 0, { at: pos, prev: marks }, pos);
      }
      return;
    }
    const exit = () => this.enter(into, node, false, 0, { at: pos, prev: marks }, pos);
    // Runs are lazy (a variable stops at the next literal that fits); parts are greedy.
    if (node.slot!.prefix) {
      into.threads.push(self);
      exit();
    } else {
      exit();
      into.threads.push(self);
    }
  }

  private step(thread: Thread<T>, char: string, i: number, next: Frontier<T>): void {
    const { node, marks } = thread;
    if (!thread.inside) {
      const literal = node.chars.get(char);
      if (literal) this.enter(next, literal, false, 0, marks, i + 1);
      for (const child of node.slots.values()) {
        const slot = child.slot!;
        if (!slot.prefix && !slot.stops.includes(char)) this.enter(next, child, true, 1, { at: i, prev: marks }, i + 1);
      }
      return;
    }
    const slot = node.slot!;
    if (slot.prefix === char && thread.parts < slot.max) {
      // An exploded slot only needs to know "some parts"; capping keeps the state count bounded.
      this.enter(next, node, true, slot.max === Infinity ? 1 : thread.parts + 1, marks, i + 1);
    } else if ((!slot.prefix || thread.parts > 0) && !slot.stops.includes(char)) {
      this.enter(next, node, true, thread.parts, marks, i + 1);
    }
  }
}

/** Slots are keyed by behaviour, not variable names, so that templates of one shape share nodes. */
function slotOf(expr: Expression): { key: string; slot: Slot } {
  const { prefix, stops } = SLOT_RULES[expr.op as PathOperator];
  // A run's length has no part count; `{#a,b}` is one part joined by ','; the others are one part
  // per variable, or any number when one is exploded.
  const exploded = expr.vars.some((v) => v.explode);
  const max = !prefix ? Infinity : expr.op === '#' ? 1 : exploded ? Infinity : expr.vars.length;
  return { key: `${expr.op}${max}`, slot: { prefix, stops, max } };
}

/** Records every template that can end at position `i`: at the end, or where its query starts. */
function collect<T>(frontier: Frontier<T>, i: number, scan: UriScan, found: Candidate<T>[]): void {
  const atEnd = i === scan.uri.length;
  if (!atEnd && !'?&#'.includes(scan.uri[i])) return;
  for (const { node, inside, marks } of frontier.threads) {
    if (inside) continue;
    for (const leaf of node.leaves) {
      if (!leaf.queryOp) {
        if (atEnd) found.push({ leaf, marks, tail: undefined, literals: node.literals });
        continue;
      }
      const tail = scan.tailAt(i, leaf);
      if (tail) found.push({ leaf, marks, tail, literals: node.literals + scan.boundNameLength(leaf.query, tail.from) });
    }
  }
}

function best<T>(found: Candidate<T>[], scan: UriScan): TemplateMatch<T> | undefined {
  found.sort((a, b) =>
    b.literals - a.literals
    || a.leaf.node.wide - b.leaf.node.wide
    || a.leaf.template.variables.length - b.leaf.template.variables.length
    || a.leaf.seq - b.leaf.seq);
  for (const candidate of found) {
    const params = bind(candidate, scan);
    if (params) return { value: candidate.leaf.value, template: candidate.leaf.template, params };
  }
  return undefined;
}

/** Turns a candidate's slot marks and query tail into decoded params; undefined if `{;..}` names disagree. */
function bind<T>({ leaf, marks, tail }: Candidate<T>, scan: UriScan): TemplateParams | undefined {
  const positions: number[] = [];
  for (let mark = marks; mark; mark = mark.prev) positions.push(mark.at);
  positions.reverse();
  const params: TemplateParams = {};
  for (let j = 0; j < leaf.path.length; j++) {
    if (!bindExpression(leaf.path[j], scan.uri.slice(positions[2 * j], positions[2 * j + 1]), params)) return undefined;
  }
  if (!tail) return params;
  for (const v of leaf.query) {
    const values = scan.queryValues(v.name, tail.from);
    if (values.length > 0) setParam(params, v.name, v.explode ? values : values[0]);
  }
  if (tail.fragment && !bindExpression(leaf.fragment!, scan.uri.slice(scan.hash), params)) return undefined;
  return params;
}

type QueryPair = { readonly raw: string; readonly at: number };

/** One URI's layout (RFC 3986: query from the first '?', fragment from the first '#'), computed once. */
class UriScan {
  readonly hash: number;
  readonly query: number;
  private parsed?: { readonly pairs: QueryPair[]; readonly byName: Map<string, number[]> };

  constructor(readonly uri: string) {
    const hash = uri.indexOf('#');
    this.hash = hash < 0 ? uri.length : hash;
    const query = uri.indexOf('?');
    this.query = query >= 0 && query < this.hash ? query : -1;
  }

  /** Where a template's query tail would start if the path before it ended at `i`, or undefined. */
  tailAt(i: number, leaf: Leaf<unknown>): TailStart | undefined {
    const { pairs } = this.pairs();
    if (i === this.uri.length) return { from: pairs.length, fragment: false };
    const char = this.uri[i];
    if (char === '#') return i === this.hash && leaf.fragment ? { from: pairs.length, fragment: true } : undefined;
    const fragment = this.hash < this.uri.length;
    if (fragment && !leaf.fragment) return undefined;
    if (char === '?' && leaf.queryOp === '?' && i === this.query) return { from: 0, fragment };
    if (char === '&' && leaf.queryOp === '&' && this.query >= 0 && i > this.query && i < this.hash) {
      return { from: firstPairAfter(pairs, i), fragment };
    }
    return undefined;
  }

  /** Characters of the names of `vars` present from pair `from` on: bound names count as literal text. */
  boundNameLength(vars: readonly VarSpec[], from: number): number {
    const { byName } = this.pairs();
    let total = 0;
    for (const v of vars) {
      const indexes = byName.get(v.name);
      if (indexes && indexes[indexes.length - 1] >= from) total += v.name.length;
    }
    return total;
  }

  queryValues(name: string, from: number): string[] {
    const { pairs, byName } = this.pairs();
    return (byName.get(name) ?? []).filter((k) => k >= from).map((k) => percentDecode(pairs[k].raw));
  }

  /** Parsed lazily: most URIs never reach a template with a query tail. */
  private pairs(): { readonly pairs: QueryPair[]; readonly byName: Map<string, number[]> } {
    if (this.parsed) return this.parsed;
    const pairs: QueryPair[] = [];
    const byName = new Map<string, number[]>();
    const text = this.query < 0 ? '' : this.uri.slice(this.query + 1, this.hash);
    let at = this.query + 1;
    for (const piece of text.split('&')) {
      if (piece) {
        const eq = piece.indexOf('=');
        const name = eq < 0 ? piece : piece.slice(0, eq);
        const indexes = byName.get(name) ?? [];
        if (indexes.length === 0) byName.set(name, indexes);
        indexes.push(pairs.length);
        pairs.push({ raw: eq < 0 ? '' : piece.slice(eq + 1), at });
      }
      at += piece.length + 1;
    }
    return (this.parsed = { pairs, byName });
  }
}

/** Index of the first pair that starts after `i` (pairs are sorted by position). */
function firstPairAfter(pairs: readonly QueryPair[], i: number): number {
  let low = 0;
  let high = pairs.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (pairs[mid].at > i) high = mid;
    else low = mid + 1;
  }
  return low;
}
