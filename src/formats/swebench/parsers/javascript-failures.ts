// More of the official JavaScript log parsers (swebench 5.0.2; docs/swebench.md#log-parsers): the
// jest-style PASS/FAIL file lines (Carbon, Grommet) and those that only find failures (ESLint's
// mocha output, bpmn-js and OpenLayers' karma, Chart.js). Python's `re.findall` and its whitespace,
// `^`/`$` under re.MULTILINE, as the Python code reads the log.
import type { StatusMap } from '../constants.ts';
import { BOL, DOT, EOL, PY_WS, S, pyStrip } from '../pystr.ts';
import { ansiEscape, findall, NS } from './line-match.ts';
import type { Parser } from './python.ts';

const D = '\\p{Nd}';
/** Python's `[^\S\r\n]`: whitespace but the line breaks. */
const SP = `[${PY_WS.replace('\\n', '').replace('\\r', '')}]`;
const RUNS = new RegExp(`${S}+`, 'gu');
/** Python's `re.sub(r"\s+", " ", s).strip()`. */
const squeeze = (s: string): string => pyStrip(s.replace(RUNS, ' '));

function failures(found: string[], clean: (s: string) => string = (s) => s): StatusMap {
  const map: StatusMap = new Map();
  for (const f of found) map.set(clean(f), 'FAILED');
  return map;
}

const CARBON: Array<[RegExp, 'PASSED' | 'FAILED']> = (['PASS', 'FAIL'] as const).flatMap((word) =>
  [`${S}\\([${D}.]+ms\\)`, `${S}\\([${D}.]+${S}s\\)`, `${S}\\([${D}.]+s\\)`, ''].map(
    (tail): [RegExp, 'PASSED' | 'FAILED'] => [
      new RegExp(`^${word}${S}(${DOT}*)${tail}`, 'u'),
      word === 'PASS' ? 'PASSED' : 'FAILED',
    ],
  ),
);

/** `PASS <file> (1.2 s)` / `FAIL <file>`: the first pattern that matches a line names it. */
export const parseCarbon: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const line of log.split('\n'))
    for (const [re, status] of CARBON) {
      const m = re.exec(line);
      if (m) {
        map.set(m[1] ?? '', status);
        break;
      }
    }
  return map;
};

const GROMMET_TIMING = new RegExp(`${S}\\([${D}.]+${S}?(?:ms|s)\\)$`, 'u');

export const parseGrommet: Parser = (log) => {
  const map: StatusMap = new Map();
  const name = (s: string) => pyStrip(s).replace(GROMMET_TIMING, '');
  for (const f of findall(log, `${BOL}FAIL${S}(${DOT}*)`)) map.set(name(f), 'FAILED');
  for (const p of findall(log, `${BOL}PASS${S}(${DOT}*)`)) map.set(name(p), 'PASSED');
  return map;
};

export const parseEslint: Parser = (log) =>
  failures(findall(log, `(${S}{2}${D}+\\))([^]*?)${S}+(?:(${DOT}*)Error)`, 2), squeeze);

const BPMN: Array<[string, number]> = [
  [`2KPhantomJS${S}[${D}.]+${S}\\(Linux${S}[${D}.]+\\)${S}(${DOT}*)FAILED\\n`, 1],
  [`2KPhantomJS${S}[${D}.]+${S}\\(Linux${S}x86_64\\)${S}(${DOT}*)FAILED\\n`, 1],
  [`Chrome${S}Headless${S}(${DOT}*)${S}\\(Linux${S}x86_64\\)${S}(${DOT}*)FAILED\\n`, 2],
  [`HeadlessChrome${S}[${D}.]+${S}\\(Linux${S}[${D}.]+\\)${S}(${DOT}*)FAILED\\n`, 1],
];

export const parseBpmnJs: Parser = (log) => failures(BPMN.flatMap(([re, g]) => findall(log, re, g)));

const OPENLAYERS = [
  `Chrome${S}Headless${S}[${D}.]+${S}\\(Linux${S}${NS}+\\)${S}(${DOT}*)${S}FAILED\\n`,
  `Chrome${S}[${D}.]+${S}\\(Linux${S}${NS}+\\)${S}(${DOT}*)FAILED\\n`,
  `${BOL}${S}{2}${D}+\\)([^]*?)Error:`,
  `${BOL}case${S}(${DOT}*):${S}mismatch`,
];

export const parseOpenlayers: Parser = (log) =>
  failures(
    OPENLAYERS.flatMap((re) => findall(log, re)),
    squeeze,
  );

export const parseChartJs: Parser = (log) => {
  const plain = ansiEscape(log);
  return failures(findall(plain, `Chrome${S}[${D}.]+${SP}\\(${DOT}+?\\)${SP}(${DOT}*)FAILED${EOL}`));
};
