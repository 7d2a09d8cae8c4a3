import { describe, expect, it } from 'vitest';
import { reportOf } from '../../support/report.ts';
import { formatJunit, xmlEscape } from '../../../src/report/junit.ts';
import type { TrialResult } from '../../../src/types.ts';
import { trial } from './fixtures.ts';
import { defined } from '../../support/defined.ts';

interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

const decode = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_m, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
      : ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[e],
  );

/** A strict little XML 1.0 reader: balanced tags, quoted attributes, known entities, no forbidden characters. */
function parseXml(xml: string): XmlNode {
  // eslint-disable-next-line no-control-regex -- XML 1.0 forbids these control characters: matching them is the point
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(xml)) throw new Error('forbidden character');
  let s = xml.replace(/^<\?xml [^?]*\?>\s*/, '');
  const bad = /&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/;
  const root: XmlNode = { name: '#document', attrs: {}, children: [], text: '' };
  const stack = [root];
  const tag = /^<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>/;
  while (s.length) {
    if (s[0] === '<') {
      const m = tag.exec(s);
      if (!m) throw new Error(`malformed tag at: ${s.slice(0, 40)}`);
      const [all, close, name, attrText, selfClose] = m;
      if (close) {
        const top = defined(stack.pop());
        if (top.name !== name) throw new Error(`</${name}> closes <${top.name}>`);
      } else {
        const attrs: Record<string, string> = {};
        for (const a of attrText.matchAll(/([A-Za-z_][\w.-]*)="([^"<]*)"/g)) {
          if (bad.test(a[2])) throw new Error(`bad entity in ${a[1]}`);
          if (a[1] in attrs) throw new Error(`duplicate attribute ${a[1]}`);
          attrs[a[1]] = decode(a[2]);
        }
        const node = { name, attrs, children: [], text: '' };
        stack[stack.length - 1].children.push(node);
        if (!selfClose) stack.push(node);
      }
      s = s.slice(all.length);
    } else {
      const end = s.indexOf('<');
      const text = end < 0 ? s : s.slice(0, end);
      if (bad.test(text) || text.includes('>')) throw new Error(`bad text: ${text.slice(0, 40)}`);
      if (stack.length === 1 && text.trim()) throw new Error('text outside the root');
      stack[stack.length - 1].text += decode(text);
      s = s.slice(text.length);
    }
  }
  if (stack.length !== 1) throw new Error(`unclosed <${stack[stack.length - 1].name}>`);
  if (root.children.length !== 1) throw new Error('not exactly one root element');
  return root.children[0];
}

const all = (n: XmlNode, name: string): XmlNode[] => [
  ...(n.name === name ? [n] : []),
  ...n.children.flatMap((c) => all(c, name)),
];

const NASTY = 'a & b < c > d "e" \'f\' \u0000\u0007\u001b[31m \ud800 ]]> \n tab\t end';

async function junitOf(results: TrialResult[]) {
  const report = await reportOf(results, {
    benchmark: { name: 'bench <&>', version: 'v' },
    agent: 'a',
    run: { dir: '/tmp/r', started_at: '2025-01-01T00:00:00Z', finished_at: '2025-01-01T00:00:05Z' },
  });
  return formatJunit(report, results);
}

describe('formatJunit', () => {
  it('one well-formed testsuite, one testcase per trial, statuses mapped to failure/error/skipped', async () => {
    const fail = { name: 'answer', type: 'exact', passed: false, score: 0, reason: `expected 4, got ${NASTY}` };
    const xml = await junitOf([
      trial('p', 'PASSED', { task_id: 'p' }),
      trial('f', 'FAILED', { task_id: 'f', checks: [fail], response: NASTY }),
      trial('t', 'TIMEOUT', { task_id: 't', error: { kind: 'timeout', message: 'trial passed 5s' } }),
      trial('e', 'AGENT_ERROR', { task_id: 'e', error: { kind: 'agent', message: 'boom' } }),
      trial('s', 'SANDBOX_ERROR', { task_id: 's', error: { kind: 'sandbox', message: 'docker said no' } }),
      trial('u', 'UNGRADABLE', { task_id: 'u' }),
      trial('w', 'AWAITING_REVIEW', { task_id: 'w' }),
    ]);
    const doc = parseXml(xml);
    const suites = all(doc, 'testsuite');
    expect(suites).toHaveLength(1);
    expect(suites[0].attrs).toMatchObject({ name: 'bench <&>', tests: '7', failures: '3', errors: '1', skipped: '2' });
    const cases = all(doc, 'testcase');
    expect(cases.map((c) => c.attrs.name)).toEqual(['p', 'f', 't', 'e', 's', 'u', 'w']);
    expect(cases.every((c) => c.attrs.classname === 'bench <&>')).toBe(true);
    const byName = Object.fromEntries(cases.map((c) => [c.attrs.name, c]));
    expect(all(byName.p, 'failure')).toHaveLength(0);
    expect(all(byName.f, 'failure')[0].attrs.message).toContain('answer: expected 4, got a & b < c > d "e" \'f\'');
    expect(all(byName.f, 'failure')[0].attrs.message).toContain('\n tab\t end'); // kept through character references
    expect(all(byName.t, 'failure')[0].attrs).toMatchObject({ type: 'TIMEOUT', message: 'timeout: trial passed 5s' });
    expect(all(byName.e, 'failure')[0].attrs.message).toBe('agent: boom');
    expect(all(byName.s, 'error')[0].attrs.message).toBe('sandbox: docker said no');
    expect(all(byName.u, 'skipped')).toHaveLength(1);
    expect(all(byName.w, 'skipped')[0].attrs.message).toMatch(/^AWAITING_REVIEW/);
    expect(all(byName.f, 'system-out')[0].text).toContain('a & b < c');
  });

  it('escapes markup and replaces characters XML cannot carry', () => {
    expect(xmlEscape('<a href="x">&</a>')).toBe('&lt;a href="x"&gt;&amp;&lt;/a&gt;');
    expect(xmlEscape('"\'\n', true)).toBe('&quot;&apos;&#10;');
    expect(xmlEscape('a\u0000b\u001bc\ud800d\ud83d\ude00')).toBe('a\ufffdb\ufffdc\ufffdd\ud83d\ude00');
  });
});
