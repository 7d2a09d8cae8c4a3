// The top-level fields of a JSON request body, found without parsing it: CLI requests are large (tool
// lists, system prompts) and the gateway needs only `model` (to pin it) and `stream`. Byte-level is
// safe for UTF-8: bytes of multi-byte characters are never ASCII quotes or brackets. The body is
// passed on as it came, but for the pinned model; the upstream judges its JSON.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isWs = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Key → [start, end) of its value, for a body that is a JSON object; null for anything else. */
export function topLevelFields(buf: Uint8Array): Map<string, [number, number]> | null {
  try {
    const out = new Map<string, [number, number]>();
    let i = skipWs(buf, 0);
    if (buf[i] !== 0x7b) return null;
    i = skipWs(buf, i + 1);
    if (buf[i] === 0x7d) return skipWs(buf, i + 1) === buf.length ? out : null;
    for (;;) {
      if (buf[i] !== QUOTE) return null;
      const keyEnd = stringEnd(buf, i);
      const key = JSON.parse(Buffer.from(buf.buffer, buf.byteOffset + i, keyEnd + 1 - i).toString('utf8')) as string;
      i = skipWs(buf, keyEnd + 1);
      if (buf[i] !== 0x3a) return null;
      const start = skipWs(buf, i + 1);
      const end = valueEnd(buf, start);
      out.set(key, [start, end]);
      i = skipWs(buf, end);
      if (buf[i] === 0x2c) i = skipWs(buf, i + 1);
      else if (buf[i] === 0x7d) return skipWs(buf, i + 1) === buf.length ? out : null;
      else return null;
    }
  } catch {
    return null;
  }
}

function skipWs(buf: Uint8Array, i: number): number {
  while (i < buf.length && isWs(buf[i])) i++;
  return i;
}

/** Index of the closing quote of the string opening at `i`. */
function stringEnd(buf: Uint8Array, i: number): number {
  for (let j = i + 1; ;) {
    const k = buf.indexOf(QUOTE, j);
    if (k < 0) throw new Error('unterminated string');
    let n = 0;
    while (buf[k - 1 - n] === BACKSLASH) n++;
    if (n % 2 === 0) return k;
    j = k + 1;
  }
}

function valueEnd(buf: Uint8Array, i: number): number {
  const c = buf[i];
  if (c === QUOTE) return stringEnd(buf, i) + 1;
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (let j = i; j < buf.length; j++) {
      const d = buf[j];
      if (d === QUOTE) j = stringEnd(buf, j);
      else if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        if (--depth === 0) return j + 1;
      }
    }
    throw new Error('unterminated value');
  }
  let j = i;
  while (j < buf.length && !isWs(buf[j]) && buf[j] !== 0x2c && buf[j] !== 0x7d && buf[j] !== 0x5d) j++;
  if (j === i) throw new Error('missing value');
  return j;
}

/** The body with top-level `model` set to `model` (added when absent); every other byte kept. */
export function withModel(buf: Buffer, fields: Map<string, [number, number]>, model: string): Buffer {
  return withFields(buf, fields, { model });
}

/** The body with each top-level key of `values` set (added at the front when absent); every other byte kept. */
export function withFields(
  buf: Buffer,
  fields: Map<string, [number, number]>,
  values: Record<string, unknown>,
): Buffer {
  const spans: [number, number, Buffer][] = [];
  const added: Buffer[] = [];
  for (const [key, v] of Object.entries(values)) {
    const value = Buffer.from(JSON.stringify(v));
    const span = fields.get(key);
    if (span) spans.push([span[0], span[1], value]);
    else added.push(Buffer.from(`${JSON.stringify(key)}:`), value, Buffer.from(','));
  }
  const open = buf.indexOf(0x7b) + 1;
  if (added.length && !fields.size) added.pop(); // no comma before the closing brace
  const parts: Buffer[] = [buf.subarray(0, open), ...added];
  let at = open;
  for (const [start, end, value] of spans.sort((a, b) => a[0] - b[0])) {
    parts.push(buf.subarray(at, start), value);
    at = end;
  }
  parts.push(buf.subarray(at));
  return Buffer.concat(parts);
}

/** A top-level value, parsed (small ones only: `stream`, `model`). */
export function fieldValue(buf: Buffer, fields: Map<string, [number, number]>, key: string): unknown {
  const span = fields.get(key);
  if (!span) return undefined;
  try {
    return JSON.parse(buf.subarray(span[0], span[1]).toString('utf8'));
  } catch {
    return undefined;
  }
}
