// DOM helpers of every benchrig page. Text only: every value becomes a text node, never markup, so a
// reply of `<script>` or `<img onerror>` shows as text. Kept ASCII (non-ASCII as \u escapes) so that
// the CSP hash the server computes is the one the browser computes.

/** Statuses the "failing" filter keeps. */
export const FAILING: Record<string, boolean> = { FAILED: true, TIMEOUT: true, AGENT_ERROR: true };

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Appends children: nodes as they are, arrays flattened, null/undefined skipped, anything else as text. */
export function append<N extends Node>(n: N, c: unknown): N {
  if (c === undefined || c === null) return n;
  if (Array.isArray(c)) {
    for (const x of c) append(n, x);
    return n;
  }
  if (c instanceof Node) {
    n.appendChild(c);
    return n;
  }
  n.appendChild(document.createTextNode(textOf(c)));
  return n;
}

/**
 * Any value as text, as String() makes it. The pages' values come from JSON files: a number, a
 * boolean or text reads as itself (objects are shown whole by `value`; one that reaches here reads
 * as String() makes it, as it always has).
 */
export const textOf = (v: unknown): string => String(v);

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls?: string | null,
  children?: unknown,
): HTMLElementTagNameMap[K] {
  const n = document.createElement(tag);
  if (cls) n.className = cls;
  if (children !== undefined && children !== null) append(n, children);
  return n;
}

/** The page's element of this id, of this kind (a page without it is a page this script was not made for). */
export function byId<T extends HTMLElement = HTMLElement>(id: string, kind?: new () => T): T {
  const n = document.getElementById(id);
  if (!n || !(n instanceof (kind ?? HTMLElement))) throw new Error(`benchrig page: no element #${id}`);
  return n as T;
}

/** The page's embedded data (its application/json block). */
export const pageData = <T>(): T => JSON.parse(byId('benchrig-data').textContent ?? 'null') as T;

export function clear(n: Node): void {
  while (n.firstChild) n.removeChild(n.firstChild);
}

export const pct = (x: number | null | undefined): string =>
  x === null || x === undefined ? 'n/a' : (x * 100).toFixed(1) + '%';
export const fmt = (x: unknown, d?: number): string =>
  x === null || x === undefined ? 'n/a' : String(Number(Number(x).toFixed(d === undefined ? 3 : d)));
/** A cost in dollars (docs/agents.md#cost); n/a when there is none. */
export const usd = (x: number | null | undefined): string =>
  x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : '$' + x.toFixed(4);
export const secs = (x: number | null | undefined): string =>
  x === null || x === undefined ? 'n/a' : (x < 10 ? x.toFixed(2) : x.toFixed(1)) + 's';

export const badge = (status: unknown): HTMLSpanElement =>
  el('span', 'badge s-' + String(status).replace(/[^A-Z_]/g, ''), String(status));

export function verdict(passed: unknown): HTMLSpanElement {
  if (passed === true) return el('span', 'badge v-pass', '\u2713 passed');
  if (passed === false) return el('span', 'badge v-fail', '\u2717 failed');
  return el('span', 'badge v-null', '? ungradable');
}

export function option(value: string, label: string): HTMLOptionElement {
  const o = el('option', null, label);
  o.value = value;
  return o;
}

export const pre = (text: unknown): HTMLPreElement =>
  el('pre', null, text === undefined || text === null ? '' : textOf(text));

export function attr<N extends Element>(n: N, k: string, v: unknown): N {
  n.setAttribute(k, String(v));
  return n;
}

export function panel(title: string, body: unknown, open?: boolean): HTMLDetailsElement {
  const d = el('details', 'panel', el('summary', null, title));
  if (open) d.open = true;
  append(d, body);
  return d;
}

/** Whether a key press is typing (then the page's keys do nothing). */
export function typingInField(ev: KeyboardEvent): boolean {
  const t = ev.target;
  if (!(t instanceof HTMLElement)) return false;
  const tag = t.tagName;
  return tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || t.isContentEditable;
}

/** Any JSON value as nodes: objects become key/value tables (depth-bounded), long text a <pre>. */
export function value(v: unknown, depth = 0): Node {
  if (v === null || v === undefined) return el('span', 'note', 'null');
  if (typeof v === 'string') return v.length > 80 || v.indexOf('\n') >= 0 ? pre(v) : document.createTextNode(v);
  if (typeof v !== 'object') return document.createTextNode(textOf(v));
  if (depth > 4) return pre(JSON.stringify(v, null, 2));
  if (Array.isArray(v)) {
    if (v.length === 0) return el('span', 'note', '[]');
    const simple = v.every((x) => x === null || typeof x !== 'object');
    if (simple) return document.createTextNode(v.map((x) => String(x)).join(', '));
    const ul = el('ul', 'plain');
    for (const x of v) ul.appendChild(el('li', null, value(x, depth + 1)));
    return ul;
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 0) return el('span', 'note', '{}');
  const t = el('table', 'kv');
  for (const k of keys) t.appendChild(el('tr', null, [el('th', null, k), el('td', null, value(o[k], depth + 1))]));
  return t;
}
