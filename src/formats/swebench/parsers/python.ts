// The official harness's Python log parsers (swebench 5.0.2; docs/swebench.md#log-parsers), rewritten
// to give the same test → status map for the same log, Python's string rules included (../pystr.ts).
import { TEST_STATUSES, type StatusMap, type TestStatus } from '../constants.ts';
import { BOL, DOT, EOL, S, pyLstrip, pySplit, pyStrip } from '../pystr.ts';

export type Parser = (log: string, instance: { instance_id: string }) => StatusMap;

const lines = (log: string): string[] => log.split('\n');
const statusAtStart = (line: string): boolean => TEST_STATUSES.some((s) => line.startsWith(s));
const asStatus = (s: string): TestStatus | null =>
  (TEST_STATUSES as readonly string[]).includes(s) ? (s as TestStatus) : null;

/** Sets a status the parser read from the log; a word that is no status is kept as Python keeps it. */
function put(map: StatusMap, test: string, status: string): void {
  map.set(test, (asStatus(status) ?? status) as TestStatus);
}

/** pytest's `SKIPPED [N] path:line: reason` summary line, whose [N] is no test. */
const isSkipSummary = (status: string, name: string): boolean => status === 'SKIPPED' && /^\[\p{Nd}+\]$/u.test(name);

/** `-rA` summary lines: `STATUS test_id` (FAILED's ` - message` folded in), with `rename` of the id. */
function pytestLines(log: string, rename: (id: string) => string = (id) => id, pre = (l: string) => l): StatusMap {
  const map: StatusMap = new Map();
  for (const raw of lines(log)) {
    let line = pre(raw);
    if (!statusAtStart(line)) continue;
    if (line.startsWith('FAILED')) line = line.replaceAll(' - ', ' ');
    const parts = pySplit(line);
    const [status, id] = parts;
    if (status === undefined || id === undefined) continue;
    if (isSkipSummary(status, id)) continue;
    put(map, rename(id), status);
  }
  return map;
}

export const parsePytest: Parser = (log) => pytestLines(log);

/** pytest with parametrised ids whose option is a path: only its last segment is kept. */
export const parsePytestOptions: Parser = (log) =>
  pytestLines(log, (id) => {
    const m = /^(.*?)\[(.*)\]/u.exec(id); // an id holds no whitespace, so no line break
    if (!m) return id;
    const main = m[1] ?? '';
    let option = m[2] ?? '';
    if (option.startsWith('/') && !option.startsWith('//') && !option.includes('*'))
      option = '/' + (option.split('/').at(-1) ?? '');
    return `${main}[${option}]`;
  });

export const parseMatplotlib: Parser = (log) =>
  pytestLines(log, undefined, (l) => l.replaceAll('MouseButton.LEFT', '1').replaceAll('MouseButton.RIGHT', '3'));

/** Characters 1–31, which the official parser deletes (colour escapes, tabs, carriage returns). */
// eslint-disable-next-line no-control-regex -- the control characters are what it removes
const CONTROL = /[\x01-\x1f]/g;

/** Later pytest: ids may hold spaces; colour codes and control characters dropped first. */
export const parsePytestV2: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const raw of lines(log)) {
    let line = raw.replace(/\[\p{Nd}+m/gu, '').replace(CONTROL, '');
    if (statusAtStart(line)) {
      if (line.startsWith('FAILED')) line = line.split(' - ')[0] ?? '';
      const parts = pySplit(line);
      const [status, id] = parts;
      if (status !== undefined && id !== undefined && !isSkipSummary(status, id))
        put(map, parts.slice(1).join(' '), status);
    } else if (TEST_STATUSES.some((s) => line.endsWith(s))) {
      const parts = pySplit(line);
      if (parts.length >= 2) put(map, parts.slice(0, -1).join(' '), parts.at(-1) ?? '');
    }
  }
  return map;
};

export const parseSeaborn: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const line of lines(log)) {
    const parts = pySplit(line);
    const [first, second] = parts;
    if (first === undefined || second === undefined) continue;
    if (line.startsWith('FAILED')) map.set(second, 'FAILED');
    else if (line.includes(' PASSED ')) {
      if (second === 'PASSED') map.set(first, 'PASSED');
    } else if (line.startsWith('PASSED')) map.set(second, 'PASSED');
  }
  return map;
};

const SYMPY_FAILURE = new RegExp(`(_*) (${DOT}*)\\.py:(${DOT}*) (_*)`, 'gu');

export const parseSympy: Parser = (log) => {
  const map: StatusMap = new Map();
  for (const m of log.matchAll(SYMPY_FAILURE)) map.set(`${m[2] ?? ''}.py:${m[3] ?? ''}`, 'FAILED');
  for (const raw of lines(log)) {
    const line = pyStrip(raw);
    if (!line.startsWith('test_')) continue;
    const test = pySplit(line)[0] ?? '';
    if (line.endsWith(' E')) map.set(test, 'ERROR');
    if (line.endsWith(' F')) map.set(test, 'FAILED');
    if (line.endsWith(' ok')) map.set(test, 'PASSED');
  }
  return map;
};

const DJANGO_PASS = [' ... ok', ' ... OK', ' ...  OK'];
const DJANGO_7188 = 'Applying sites.0002_alter_domain_unique...test_no_migrations';
/** Tests whose `ok` a multi-line print pushed to the next line. */
const DJANGO_SPLIT_OK = [
  `(${DOT}*?)${S}\\.\\.\\.${S}Testing against Django installed in ([\\s\\S]*?) silenced\\)\\.\\nok`,
  `(${DOT}*?)${S}\\.\\.\\.${S}Internal Server Error: \\/(${DOT}*)\\/\\nok`,
  `(${DOT}*?)${S}\\.\\.\\.${S}System check identified no issues \\(0 silenced\\)\\nok`,
].map((p) => new RegExp(`${BOL}${p}${EOL}`, 'gu'));

export const parseDjango: Parser = (log) => {
  const map: StatusMap = new Map();
  let prev: string | null = null;
  for (const raw of lines(log)) {
    let line = pyStrip(raw);
    if (line.includes('--version is equivalent to version')) map.set('--version is equivalent to version', 'PASSED');
    if (line.includes(' ... ')) prev = line.split(' ... ')[0] ?? '';
    const suffix = DJANGO_PASS.find((s) => line.endsWith(s));
    if (suffix !== undefined) {
      if (pyStrip(line).startsWith(DJANGO_7188)) line = pyStrip(line.slice(line.indexOf('...') + 3));
      map.set(line.slice(0, line.lastIndexOf(suffix)), 'PASSED');
    }
    if (line.includes(' ... skipped')) map.set(line.split(' ... skipped')[0] ?? '', 'SKIPPED');
    if (line.endsWith(' ... FAIL')) map.set(line.split(' ... FAIL')[0] ?? '', 'FAILED');
    if (line.startsWith('FAIL:')) map.set(pyStrip(pySplit(line)[1] ?? ''), 'FAILED');
    if (line.endsWith(' ... ERROR')) map.set(line.split(' ... ERROR')[0] ?? '', 'ERROR');
    if (line.startsWith('ERROR:')) map.set(pyStrip(pySplit(line)[1] ?? ''), 'ERROR');
    if (pyLstrip(line).startsWith('ok') && prev !== null) map.set(prev, 'PASSED');
  }
  for (const re of DJANGO_SPLIT_OK) for (const m of log.matchAll(re)) map.set(m[1] ?? '', 'PASSED');
  return map;
};
