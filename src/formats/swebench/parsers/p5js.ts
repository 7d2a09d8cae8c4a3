// The official p5.js parser (swebench 5.0.2; docs/swebench.md#log-parsers), which finds failures
// only: mocha's numbered failure headers, `N) suite` over lines each indented deeper up to a colon,
// read after colour codes, JSON blocks and matched XML-like tags are cut from the log.
import type { StatusMap } from '../constants.ts';
import { BOL, S, pyLstrip, pyRstrip, pyStrip } from '../pystr.ts';
import { ansiEscape, W } from './line-match.ts';
import type { Parser } from './python.ts';

/** Lines opening or closing a JSON object or list, those between, and one-line ones, left out. */
function withoutJsonBlocks(log: string): string {
  const kept: string[] = [];
  let inObject = false;
  let inList = false;
  for (const line of log.split('\n')) {
    const s = pyRstrip(line);
    if (s.endsWith('{')) inObject = true;
    else if (s.endsWith('[')) inList = true;
    else if (s === '}' && inObject) inObject = false;
    else if (s === ']' && inList) inList = false;
    else if (!inObject && !inList && !(s.startsWith('{') && s.endsWith('}')) && !(s.startsWith('[') && s.endsWith(']')))
      kept.push(line);
  }
  return kept.join('\n');
}

const XML = new RegExp(`<(${W}+)>[^]*?<\\/\\1>`, 'u');

/** Python's `s.count(sub)`: non-overlapping occurrences. */
const count = (s: string, sub: string): number => s.split(sub).length - 1;

/** Each first `<tag>…</tag>` in turn replaced by the `<tag>`s it held beyond its own opening one. */
function withoutXmlBlocks(log: string): string {
  let text = log;
  for (let m = XML.exec(text); m; m = XML.exec(text)) {
    const open = `<${m[1] ?? ''}>`;
    const nested = Math.max(count(m[0], open) - 1, 0);
    text = text.slice(0, m.index) + open.repeat(nested) + text.slice(m.index + m[0].length);
  }
  return text;
}

/** Every line of a failure's name indented deeper than the one before (the first at all). */
function indentedDeeper(name: string): boolean {
  let last = 0;
  for (const line of name.split('\n')) {
    const indent = line.length - pyLstrip(line).length;
    if (indent <= last) return false;
    last = indent;
  }
  return true;
}

const FAILURE = new RegExp(`${BOL}${S}*(\\p{Nd}+)\\)([^]{0,1000}?):`, 'gu');

export const parseP5js: Parser = (log) => {
  const map: StatusMap = new Map();
  const text = withoutXmlBlocks(withoutJsonBlocks(ansiEscape(log)));
  for (const m of text.matchAll(FAILURE)) {
    const name = m[2] ?? '';
    if (indentedDeeper(name)) map.set(name.split('\n').map(pyStrip).join(':'), 'FAILED');
  }
  return map;
};
