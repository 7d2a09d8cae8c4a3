// doctest's XML report (`-r=xml`) as the official parser reads it with ElementTree (swebench 5.0.2;
// docs/swebench.md#log-parsers): the text from the first `<doctest` to the next `</doctest>`, every
// TestCase's SubCases (at any depth), each passed when every Expression under it has success="true".
// A report that is not well-formed XML gives no cases (the official parser raises).

interface XmlNode {
  tag: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}

const TOKEN =
  /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<!DOCTYPE[^>]*>|<(\/?)([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|<|[^<]+/gu;
const ATTR = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/gu;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** An attribute's value as an XML parser gives it: literal tabs and line breaks read as spaces, then references. */
function attrValue(raw: string): string | null {
  let bad = false;
  const out = raw.replace(/[\t\n\r]/g, ' ').replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);|&/g, (all, ref?: string) => {
    if (ref === undefined) return ((bad = true), all);
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : ((bad = true), all);
    }
    const e = ENTITIES[ref];
    return e ?? ((bad = true), all);
  });
  return bad || out.includes('<') ? null : out;
}

function parseXml(xml: string): XmlNode | null {
  const root: XmlNode = { tag: '', attrs: {}, children: [] };
  const stack = [root];
  for (const m of xml.matchAll(TOKEN)) {
    const [all, close, tag, attrText = '', selfClosing] = m;
    if (all === '<') return null;
    if (tag === undefined) continue; // text, comments, CDATA, declarations
    const top = stack[stack.length - 1] ?? root;
    if (close) {
      if (top.tag !== tag || stack.length === 1) return null;
      stack.pop();
      continue;
    }
    const node: XmlNode = { tag, attrs: {}, children: [] };
    for (const a of attrText.matchAll(ATTR)) {
      const value = attrValue(a[2] ?? a[3] ?? '');
      if (value === null || (a[1] ?? '') in node.attrs) return null;
      node.attrs[a[1] ?? ''] = value;
    }
    top.children.push(node);
    if (!selfClosing) stack.push(node);
  }
  return stack.length === 1 && root.children.length === 1 ? (root.children[0] ?? null) : null;
}

/** Every descendant of `node` named `tag`, in document order (ElementTree's `.//tag`). */
function descendants(node: XmlNode, tag: string): XmlNode[] {
  const out: XmlNode[] = [];
  const walk = (n: XmlNode) => {
    for (const c of n.children) {
      if (c.tag === tag) out.push(c);
      walk(c);
    }
  };
  walk(node);
  return out;
}

export function doctestCases(log: string): Array<{ name: string; passed: boolean }> {
  const start = log.indexOf('<doctest');
  if (start === -1) return [];
  const close = log.indexOf('</doctest>', start);
  // As the official slice: no closing tag leaves text that is no XML document.
  if (close === -1) return [];
  const root = parseXml(log.slice(start, close + '</doctest>'.length));
  if (!root) return [];
  const cases: Array<{ name: string; passed: boolean }> = [];
  for (const tc of descendants(root, 'TestCase'))
    for (const sc of descendants(tc, 'SubCase')) {
      const passed = descendants(sc, 'Expression').every((e) => e.attrs.success === 'true');
      cases.push({ name: `${tc.attrs.name ?? 'None'} > ${sc.attrs.name ?? 'None'}`, passed });
    }
  return cases;
}
