#!/usr/bin/env node
// Builds data/tasks.jsonl for the shell-tasks benchmark (docs/benchmarks.md, "Sample fields").
//   node benchmarks/shell-tasks/generate.mjs
// Deterministic: running it again reproduces tasks.jsonl byte for byte.
//
// Every task has `files` (written under /workspace before the agent starts), an optional `setup`
// (run after the files, e.g. to set modes or build an archive), a `solution` (sh script run in
// /workspace by the oracle) and `tests` (copied to /workspace/.tests after the agent finished;
// test.sh prints "N passed, M failed" and exits 0 only when every assertion passed).
// Expected values in the tests are computed here from the generated data, independently of the
// shell solutions, so a passing oracle run cross-checks both.

import { writeFileSync, mkdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------- helpers

/** Small deterministic PRNG (LCG) so generated data is stable. */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const int = (r, lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
const pick = (r, a) => a[Math.floor(r() * a.length)];
function shuffle(r, a) {
  const b = [...a];
  for (let i = b.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [b[i], b[j]] = [b[j], b[i]];
  }
  return b;
}
const pad = (n, w = 2) => String(n).padStart(w, '0');
const hms = (sec) => `${pad(Math.floor(sec / 3600))}:${pad(Math.floor(sec / 60) % 60)}:${pad(sec % 60)}`;
const md5 = (s) => createHash('md5').update(s).digest('hex');
const sha256 = (s) => createHash('sha256').update(s).digest('hex');
const lines = (a) => a.join('\n') + '\n';
const byteSort = (a) => [...a].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
const cents = (c) => `${Math.floor(c / 100)}.${pad(c % 100)}`;

/** Quote a string for sh. */
const sq = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

const PRELUDE = `#!/bin/sh
# Runs after the agent finished, from /workspace/.tests; prints "N passed, M failed".
cd "$(dirname "$0")/.." || exit 2
P=0; F=0
check() {
  if eval "$2" >/dev/null 2>&1; then P=$((P + 1)); echo "PASS: $1"; else F=$((F + 1)); echo "FAIL: $1"; fi
}
# norm FILE: the file without CRs or blank lines, runs of blanks collapsed, lines trimmed.
norm() { [ -f "$1" ] && sed 's/\\r$//' "$1" | awk 'NF { $1 = $1; print }'; }
# is FILE TEXT: FILE exists and its normalized lines are exactly TEXT.
is() { [ -f "$1" ] && [ "$(norm "$1")" = "$2" ]; }
# trimmed FILE: the file's content with every blank removed.
trimmed() { tr -d ' \\t\\r\\n' < "$1"; }
# md5of FILE / mode PATH
md5of() { md5sum < "$1" | cut -d' ' -f1; }
mode() { stat -c %a "$1"; }
`;

const EPILOGUE = `
echo "$P passed, $F failed"
[ "$F" -eq 0 ]
`;

/**
 * Build test.sh. `items` are [description, sh expression] pairs (the expression is eval'ed; exit
 * status 0 = pass) or plain strings copied verbatim (helpers, fixtures set-up).
 */
function testScript(items) {
  const body = items.map((it) => (typeof it === 'string' ? it : `check ${sq(it[0])} ${sq(it[1])}`)).join('\n');
  return PRELUDE + '\n' + body + '\n' + EPILOGUE;
}

/** Assertion: FILE is unchanged (same md5 as the given content). */
const unchanged = (path, content) => [`${path} is unchanged`, `[ "$(md5of ${sq(path)})" = ${md5(content)} ]`];
/** Assertion: FILE holds exactly this content (byte for byte). */
const exactly = (path, content, what = `${path} has the expected content`) => [
  what,
  `[ -f ${sq(path)} ] && [ "$(md5of ${sq(path)})" = ${md5(content)} ]`,
];

const tasks = [];
function task(t) {
  const { id, input, files, setup, solution, tests, category, difficulty } = t;
  const row = { id, input, files };
  if (setup) row.setup = setup;
  row.solution = solution.trim() + '\n';
  row.tests = { 'test.sh': testScript(tests), ...(t.fixtures ?? {}) };
  row.metadata = { category, difficulty };
  tasks.push(row);
}

const COMPONENTS = ['api', 'auth', 'db', 'cache', 'worker', 'scheduler', 'http'];
const MESSAGES = [
  'request completed',
  'connection pool resized',
  'retrying operation',
  'user session refreshed',
  'cache miss for key',
  'job finished',
  'slow query detected',
  'config reloaded',
];

// ---------------------------------------------------------------- text & logs

{
  const r = rng(1);
  const n = 137;
  const log = [];
  for (let i = 0; i < n; i++) {
    log.push(
      `2024-03-05T${hms(36000 + i * 17)}Z ${pick(r, ['INFO', 'WARN', 'DEBUG'])} ${pick(r, COMPONENTS)}: ${pick(r, MESSAGES)}`,
    );
  }
  const content = lines(log);
  task({
    id: 'count-lines',
    category: 'text',
    difficulty: 'easy',
    input:
      'How many lines does logs/server.log have? Tell me the number in your reply, and also write just the number to line_count.txt in /workspace.',
    files: { 'logs/server.log': content },
    solution: `wc -l < logs/server.log | tr -d ' ' > line_count.txt`,
    tests: [
      ['line_count.txt exists', '[ -f line_count.txt ]'],
      [`line_count.txt holds ${n}`, `[ "$(trimmed line_count.txt)" = ${n} ]`],
      unchanged('logs/server.log', content),
    ],
  });
}

{
  const r = rng(2);
  const counts = { INFO: 61, DEBUG: 34, WARN: 17, ERROR: 9 };
  const levels = shuffle(
    r,
    Object.entries(counts).flatMap(([l, c]) => Array(c).fill(l)),
  );
  const content = lines(
    levels.map((l, i) => `2024-03-05 ${hms(36000 + i * 23)} [${l}] ${pick(r, COMPONENTS)}: ${pick(r, MESSAGES)}`),
  );
  const expected = Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([l, c]) => `${l} ${c}`)
    .join('\n');
  task({
    id: 'log-level-counts',
    category: 'logs',
    difficulty: 'easy',
    input:
      'logs/app.log has one entry per line, with the log level in square brackets ([INFO], [WARN], ...). Write level_counts.txt with one line per level: the level name, a space, and the number of lines with that level, most frequent level first.',
    files: { 'logs/app.log': content },
    solution: String.raw`sed -n 's/.*\[\([A-Z]*\)\].*/\1/p' logs/app.log | sort | uniq -c | sort -rn | awk '{ print $2, $1 }' > level_counts.txt`,
    tests: [
      ['level_counts.txt exists', '[ -f level_counts.txt ]'],
      [
        'level_counts.txt lists the 4 levels with their counts, most frequent first',
        `is level_counts.txt ${sq(expected)}`,
      ],
      ['ERROR count is right', `grep -qx 'ERROR 9' level_counts.txt`],
    ],
  });
}

{
  const r = rng(3);
  const counts = {
    '10.0.0.5': 41,
    '192.168.1.20': 33,
    '10.0.0.51': 27,
    '172.16.0.9': 15,
    '203.0.113.7': 12,
    '10.0.0.50': 9,
    '198.51.100.23': 6,
  };
  const paths = ['/', '/login', '/api/items', '/api/items/42', '/static/app.js', '/health'];
  const ips = shuffle(
    r,
    Object.entries(counts).flatMap(([ip, c]) => Array(c).fill(ip)),
  );
  const content = lines(
    ips.map((ip, i) => {
      const t = 36000 + i * 11;
      return `${ip} - - [05/Mar/2024:${hms(t)} +0000] "GET ${pick(r, paths)} HTTP/1.1" ${pick(r, [200, 200, 200, 304, 404, 500])} ${int(r, 120, 9000)}`;
    }),
  );
  const expected = Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([ip, c]) => `${ip} ${c}`)
    .join('\n');
  task({
    id: 'top-ips',
    category: 'logs',
    difficulty: 'medium',
    input:
      'logs/access.log is a web server access log; the first field of each line is the client IP address. Find the 3 IP addresses that made the most requests and write them to top_ips.txt, one per line as `IP COUNT` (for example `1.2.3.4 17`), busiest first.',
    files: { 'logs/access.log': content },
    solution: `awk '{ print $1 }' logs/access.log | sort | uniq -c | sort -rn | head -n 3 | awk '{ print $2, $1 }' > top_ips.txt`,
    tests: [
      ['top_ips.txt exists', '[ -f top_ips.txt ]'],
      ['top_ips.txt has exactly 3 lines', '[ "$(norm top_ips.txt | wc -l)" -eq 3 ]'],
      ['busiest IP is first with its count', `[ "$(norm top_ips.txt | head -n 1)" = ${sq(expected.split('\n')[0])} ]`],
      ['top 3 IPs and counts are right, in order', `is top_ips.txt ${sq(expected)}`],
    ],
  });
}

{
  const r = rng(4);
  const entries = [];
  // Timestamps from 09:50:00 to 11:10:00 plus the edge cases around the window.
  const fixed = ['10:14:59', '10:15:00', '10:45:00', '10:45:01'];
  const times = new Set(fixed);
  while (times.size < 160) times.add(hms(int(r, 35400, 40200)));
  for (const t of byteSort([...times])) {
    const level = fixed.includes(t) ? 'ERROR' : pick(r, ['INFO', 'INFO', 'INFO', 'WARN', 'ERROR']);
    entries.push([t, level]);
  }
  const content = lines(entries.map(([t, l]) => `2024-03-05T${t}Z ${l} ${pick(r, COMPONENTS)}: ${pick(r, MESSAGES)}`));
  const n = entries.filter(([t, l]) => l === 'ERROR' && t >= '10:15:00' && t <= '10:45:00').length;
  const total = entries.filter(([, l]) => l === 'ERROR').length;
  task({
    id: 'errors-in-window',
    category: 'logs',
    difficulty: 'medium',
    input:
      'logs/service.log has lines like `2024-03-05T10:03:12Z ERROR db: message`. Count the ERROR lines whose time is between 10:15:00 and 10:45:00, both inclusive, and write just that number to window_errors.txt.',
    files: { 'logs/service.log': content },
    solution: `awk '$2 == "ERROR" { t = substr($1, 12, 8); if (t >= "10:15:00" && t <= "10:45:00") n++ } END { print n + 0 }' logs/service.log > window_errors.txt`,
    tests: [
      ['window_errors.txt exists', '[ -f window_errors.txt ]'],
      [
        `window_errors.txt holds ${n} (not the ${total} ERROR lines of the whole log)`,
        `[ "$(trimmed window_errors.txt)" = ${n} ]`,
      ],
    ],
  });
}

{
  const poem = `The Road at Dusk
The road goes on, and on, and ON -- past fields of rye;
past 3 old barns, a river, and the sky.
Ask the river: "Where does the road go?"
The river says: I do not know; the road, the road...
At dusk the barns are red, the rye is gold, the sky is low.
`;
  const words = byteSort([...new Set(poem.toLowerCase().match(/[a-z]+/g))]);
  task({
    id: 'unique-words',
    category: 'text',
    difficulty: 'easy',
    input:
      'Write words.txt containing every distinct word of poem.txt, lowercased, one per line, sorted alphabetically. A word is a run of letters a-z; punctuation and digits are not part of words.',
    files: { 'poem.txt': poem },
    solution: String.raw`tr 'A-Z' 'a-z' < poem.txt | tr -cs 'a-z' '\n' | grep -v '^$' | sort -u > words.txt`,
    tests: [
      ['words.txt exists', '[ -f words.txt ]'],
      [`words.txt has ${words.length} words`, `[ "$(norm words.txt | wc -l)" -eq ${words.length} ]`],
      ['words.txt is exactly the sorted distinct lowercase words', `is words.txt ${sq(words.join('\n'))}`],
    ],
  });
}

{
  const list = [
    'ana@example.org',
    'bo@example.org',
    'carla@example.net',
    'ana@example.org',
    'dev@example.com',
    'bo@example.org',
    'zed@example.com',
    'Ana@example.org',
    'eli@example.net',
    'dev@example.com',
    'fay@example.com',
    'ana@example.org',
    'gus@example.net',
  ];
  const expected = [...new Set(list)];
  task({
    id: 'dedupe-keep-order',
    category: 'text',
    difficulty: 'medium',
    input:
      'subscribers.txt has duplicate lines. Remove the duplicates in place (the file keeps its name), keeping the first occurrence of each line and the original order. Lines that differ only in case are different lines.',
    files: { 'subscribers.txt': lines(list) },
    solution: `awk '!seen[$0]++' subscribers.txt > /tmp/dedup && cat /tmp/dedup > subscribers.txt && rm /tmp/dedup`,
    tests: [
      ['subscribers.txt exists', '[ -f subscribers.txt ]'],
      [`subscribers.txt has ${expected.length} lines`, `[ "$(norm subscribers.txt | wc -l)" -eq ${expected.length} ]`],
      ['first occurrences kept in original order', `is subscribers.txt ${sq(expected.join('\n'))}`],
    ],
  });
}

{
  const docs = {
    'notes/todo.txt': ['buy milk', 'call the plumber', '', 'fix the bike'],
    'notes/meeting.txt': ['Attendees: ana, bo', 'Decision: ship on friday', 'Owner: carla'],
    'notes/readme.md': ['# Notes', '', 'Plain text notes, one file per topic.'],
  };
  const files = {};
  const tests = [];
  for (const [p, ls] of Object.entries(docs)) {
    files[p] = ls.join('\r\n') + '\r\n';
    tests.push([`${p} has no carriage returns`, `[ -f ${p} ] && ! grep -q "$(printf '\\r')" ${p}`]);
    tests.push(exactly(p, lines(ls), `${p} is otherwise unchanged`));
  }
  files['notes/unix.txt'] = 'already unix\n';
  tests.push(unchanged('notes/unix.txt', files['notes/unix.txt']));
  task({
    id: 'crlf-to-lf',
    category: 'text',
    difficulty: 'easy',
    input:
      'The files in notes/ were edited on Windows and have CRLF line endings. Convert every file in notes/ to Unix LF line endings in place, changing nothing else.',
    files,
    solution: String.raw`for f in notes/*; do tr -d '\r' < "$f" > /tmp/lf && cat /tmp/lf > "$f"; done; rm -f /tmp/lf`,
    tests,
  });
}

{
  const pw = [
    'root:x:0:0:root:/root:/bin/sh',
    'daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin',
    'www-data:x:33:33:www-data:/var/www:/usr/sbin/nologin',
    'backup:x:34:34:backup:/var/backups:/usr/sbin/nologin',
    'deploy:x:999:999:deploy bot:/srv/deploy:/bin/bash',
    'alice:x:1000:1000:Alice Smith:/home/alice:/bin/bash',
    'bob:x:1001:1001:Bob Jones:/home/bob:/bin/sh',
    'svc-ci:x:1002:1002:CI runner:/home/svc-ci:/usr/sbin/nologin',
    'carol:x:1003:1003:Carol:/home/carol:/bin/zsh',
    'olduser:x:1004:1004:Former employee:/home/olduser:/bin/false',
    'dave:x:10010:10010:Dave:/home/dave:/bin/bash',
    'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin',
    'erin:x:2000:2000:Erin:/home/erin:/bin/sh',
  ];
  const expected = byteSort(
    pw
      .map((l) => l.split(':'))
      .filter((f) => Number(f[2]) >= 1000 && f[6] !== '/usr/sbin/nologin' && f[6] !== '/bin/false')
      .map((f) => f[0]),
  );
  task({
    id: 'passwd-login-users',
    category: 'text',
    difficulty: 'medium',
    input:
      'users.passwd is in /etc/passwd format. Write login_users.txt with the usernames of the accounts that have a UID of 1000 or more and whose shell is neither /usr/sbin/nologin nor /bin/false, one per line, sorted alphabetically.',
    files: { 'users.passwd': lines(pw) },
    solution: `awk -F: '$3 >= 1000 && $7 != "/usr/sbin/nologin" && $7 != "/bin/false" { print $1 }' users.passwd | sort > login_users.txt`,
    tests: [
      ['login_users.txt exists', '[ -f login_users.txt ]'],
      [
        'system and service accounts are left out',
        `[ -f login_users.txt ] && ! grep -qE '^(root|deploy|svc-ci|nobody|olduser)$' login_users.txt`,
      ],
      ['exactly the login users, sorted', `is login_users.txt ${sq(expected.join('\n'))}`],
    ],
  });
}

{
  const versions = [
    '1.2.9',
    '1.10.0',
    '0.9.12',
    '1.2.10',
    '2.0.0',
    '1.2.9',
    '10.0.1',
    '0.10.0',
    '1.9.3',
    '2.0.0',
    '0.9.2',
    '1.10.0',
  ];
  const expected = [...new Set(versions)].sort((a, b) => {
    const x = a.split('.').map(Number);
    const y = b.split('.').map(Number);
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
    return 0;
  });
  task({
    id: 'sort-versions',
    category: 'text',
    difficulty: 'medium',
    input:
      'versions.txt lists release versions (MAJOR.MINOR.PATCH), some more than once. Write sorted_versions.txt with each distinct version once, in ascending version order (so 1.9.3 comes before 1.10.0).',
    files: { 'versions.txt': lines(versions) },
    solution: `sort -u -t. -k1,1n -k2,2n -k3,3n versions.txt > sorted_versions.txt`,
    tests: [
      ['sorted_versions.txt exists', '[ -f sorted_versions.txt ]'],
      ['no duplicates', `[ "$(norm sorted_versions.txt | wc -l)" -eq ${expected.length} ]`],
      ['versions in ascending version order', `is sorted_versions.txt ${sq(expected.join('\n'))}`],
    ],
  });
}

{
  const files = {
    'etc/api.conf': 'upstream = https://acme.example.com/v1\ntimeout = 30\n# contact ops@acme.example.com\n',
    'etc/web/site.conf': 'server_name acme.example.com;\nproxy_pass https://acme.example.com:8443;\nroot /srv/www;\n',
    'etc/web/site.conf.bak': 'server_name acme.example.com;\n',
    'etc/notes.txt': 'old host: acme.example.com\n',
    'etc/mail.conf': 'relay = mail.example.com\n',
  };
  const rep = (s) => s.split('acme.example.com').join('api.acme.io');
  task({
    id: 'replace-domain',
    category: 'text',
    difficulty: 'medium',
    input:
      'We moved from acme.example.com to api.acme.io. Replace every occurrence of acme.example.com with api.acme.io in all files under etc/ whose name ends in .conf (including subdirectories). Leave every other file (backups, notes) untouched.',
    files,
    solution: `find etc -type f -name '*.conf' | while read -r f; do sed -i 's/acme\\.example\\.com/api.acme.io/g' "$f"; done`,
    tests: [
      exactly('etc/api.conf', rep(files['etc/api.conf']), 'etc/api.conf: every occurrence replaced'),
      exactly('etc/web/site.conf', rep(files['etc/web/site.conf']), 'etc/web/site.conf (subdirectory): replaced'),
      unchanged('etc/web/site.conf.bak', files['etc/web/site.conf.bak']),
      unchanged('etc/notes.txt', files['etc/notes.txt']),
      unchanged('etc/mail.conf', files['etc/mail.conf']),
    ],
  });
}

// ---------------------------------------------------------------- CSV & JSON

{
  const r = rng(5);
  const regions = ['north', 'south', 'east', 'west'];
  const products = ['widget', 'gadget', 'gizmo', 'doohickey'];
  const rows = [];
  let north = 0;
  for (let i = 0; i < 40; i++) {
    const region = i === 0 ? 'northeast' : pick(r, regions);
    const units = int(r, 1, 20);
    const price = int(r, 199, 4999);
    if (region === 'north') north += units * price;
    rows.push(`2024-02-${pad((i % 28) + 1)},${region},${pick(r, products)},${units},${cents(price)}`);
  }
  task({
    id: 'csv-region-revenue',
    category: 'csv',
    difficulty: 'medium',
    input:
      'sales.csv has a header row and the columns date,region,product,units,unit_price. Compute the total revenue (units × unit_price, summed) of the rows whose region is exactly north, and write it to north_revenue.txt with exactly two decimals (like 1234.50).',
    files: { 'sales.csv': lines(['date,region,product,units,unit_price', ...rows]) },
    solution: `awk -F, 'NR > 1 && $2 == "north" { s += $4 * $5 } END { printf "%.2f\\n", s }' sales.csv > north_revenue.txt`,
    tests: [
      ['north_revenue.txt exists', '[ -f north_revenue.txt ]'],
      [`north revenue is ${cents(north)}`, `[ "$(trimmed north_revenue.txt)" = ${cents(north)} ]`],
    ],
  });
}

{
  const people = [
    [101, 'Ada Lovelace', 'engineering', 'ada@corp.test', 120000],
    [102, 'Grace Hopper', 'engineering', 'grace@corp.test', 125000],
    [103, 'Alan Turing', 'research', 'alan@corp.test', 118000],
    [104, 'Mary Jackson', 'research', 'mary@corp.test', 99000],
    [105, 'Ken Thompson', 'platform', 'ken@corp.test', 130000],
    [106, 'Radia Perlman', 'platform', 'radia@corp.test', 128000],
    [107, 'Edsger Dijkstra', 'research', 'edsger@corp.test', 117000],
    [108, 'Barbara Liskov', 'engineering', 'barbara@corp.test', 126000],
  ];
  const csv = lines(['id,name,department,email,salary', ...people.map((p) => p.join(','))]);
  const expected = ['name,email', ...people.map((p) => `${p[1]},${p[3]}`)].join('\n');
  task({
    id: 'csv-select-columns',
    category: 'csv',
    difficulty: 'easy',
    input:
      'Create contacts.csv from employees.csv with only the name and email columns, in that order: a header line `name,email`, then one line per employee in the original order.',
    files: { 'employees.csv': csv },
    solution: `cut -d, -f2,4 employees.csv > contacts.csv`,
    tests: [
      ['contacts.csv exists', '[ -f contacts.csv ]'],
      ['header is name,email', `[ "$(norm contacts.csv | head -n 1)" = name,email ]`],
      ['contacts.csv has the name and email of every employee, in order', `is contacts.csv ${sq(expected)}`],
      ['salaries are not copied', `[ -f contacts.csv ] && ! grep -q 120000 contacts.csv`],
      unchanged('employees.csv', csv),
    ],
  });
}

{
  const items = [
    ['bolt', 120, 25],
    ['nut', 300, 5],
    ['washer', 1000, 2],
    ['hinge', 12, 349],
    ['bracket', 40, 175],
    ['spring', 75, 60],
    ['gear', 3, 1299],
  ];
  const csv = lines(['item,qty,price', ...items.map(([i, q, p]) => `${i},${q},${cents(p)}`)]);
  const expected = ['item,qty,price,value', ...items.map(([i, q, p]) => `${i},${q},${cents(p)},${cents(q * p)}`)].join(
    '\n',
  );
  task({
    id: 'csv-add-column',
    category: 'csv',
    difficulty: 'medium',
    input:
      'inventory.csv has the columns item,qty,price. Write inventory_valued.csv: the same rows with a fourth column value = qty × price, formatted with exactly two decimals, and the header item,qty,price,value.',
    files: { 'inventory.csv': csv },
    solution: `awk -F, 'NR == 1 { print $0 ",value"; next } { printf "%s,%.2f\\n", $0, $2 * $3 }' inventory.csv > inventory_valued.csv`,
    tests: [
      ['inventory_valued.csv exists', '[ -f inventory_valued.csv ]'],
      ['header has the value column', `[ "$(norm inventory_valued.csv | head -n 1)" = item,qty,price,value ]`],
      ['every row has the right value', `is inventory_valued.csv ${sq(expected)}`],
    ],
  });
}

{
  const r = rng(6);
  const customers = ['acme', 'globex', 'initech', 'umbrella'];
  const rows = [];
  for (let i = 0; i < 18; i++)
    rows.push([`A${1000 + i}`, customers[i < 4 ? i : int(r, 0, 3)], cents(int(r, 500, 90000))]);
  const header = 'order_id,customer,amount';
  const tests = [
    ['by_customer/ holds one file per customer', `[ "$(ls by_customer | wc -l)" -eq ${customers.length} ]`],
  ];
  for (const c of customers) {
    const want = lines([header, ...rows.filter((x) => x[1] === c).map((x) => x.join(','))]);
    tests.push([
      `by_customer/${c}.csv has the header and ${c}'s rows in order`,
      `is by_customer/${c}.csv ${sq(want.trimEnd())}`,
    ]);
  }
  task({
    id: 'csv-split-by-customer',
    category: 'csv',
    difficulty: 'hard',
    input:
      "Split orders.csv into one file per customer: by_customer/<customer>.csv (e.g. by_customer/acme.csv), each starting with orders.csv's header line followed by that customer's rows in their original order. by_customer/ should contain nothing else.",
    files: { 'orders.csv': lines([header, ...rows.map((x) => x.join(','))]) },
    solution: `mkdir -p by_customer && awk -F, 'NR == 1 { h = $0; next } { f = "by_customer/" $2 ".csv"; if (!(f in seen)) { print h > f; seen[f] = 1 } print > f }' orders.csv`,
    tests,
  });
}

{
  const pkg = `{
  "name": "widget-kit",
  "version": "2.0.3",
  "description": "Small widgets for dashboards",
  "license": "ISC",
  "scripts": {
    "build": "tsc -p .",
    "test": "vitest run"
  },
  "dependencies": {
    "left-pad": "^1.3.0"
  }
}
`;
  const want = pkg
    .replace('"2.0.3"', '"2.1.0"')
    .replace('"ISC"', '"MIT"')
    .replace('"test": "vitest run"', '"test": "vitest run",\n    "lint": "eslint ."');
  const strip = (s) => s.replace(/[ \t\r\n]/g, '');
  task({
    id: 'json-edit-package',
    category: 'json',
    difficulty: 'medium',
    input:
      'Edit package.json: bump "version" to "2.1.0", change "license" to "MIT", and add a script "lint": "eslint ." as the last entry of "scripts". Keep everything else as it is and keep the file valid JSON.',
    files: { 'package.json': pkg },
    solution: `sed -i 's/"version": "2.0.3"/"version": "2.1.0"/; s/"license": "ISC"/"license": "MIT"/; s/"test": "vitest run"/&,\\n    "lint": "eslint ."/' package.json`,
    tests: [
      ['version is 2.1.0', `trimmed package.json | grep -q '"version":"2.1.0"'`],
      ['license is MIT', `trimmed package.json | grep -q '"license":"MIT"'`],
      ['scripts has lint as its last entry', `trimmed package.json | grep -qF '"test":"vitestrun","lint":"eslint."}'`],
      ['the rest of the file is unchanged (ignoring whitespace)', `[ "$(trimmed package.json)" = ${sq(strip(want))} ]`],
    ],
  });
}

{
  const users = [
    '{"id": 1, "name": "Ana", "email": "ana@shop.test", "active": true}',
    '{"id": 2, "name": "Bo", "email": "bo@shop.test", "active": false}',
    '{"active":true,"id":3,"email":"cy@shop.test","name":"Cy"}',
    '{"id": 4, "email": "dee@shop.test", "active": false, "name": "Dee"}',
    '{ "id": 5, "name": "Eve", "active": true, "email": "eve@shop.test" }',
    '{"id": 6, "name": "Fin (inactive since May)", "email": "fin@shop.test", "active": false}',
    '{"id": 7, "name": "Gil", "email": "aaron.gil@shop.test", "active": true}',
    '{"email": "hal@shop.test", "id": 8, "name": "Hal", "active":   true}',
    '{"id": 9, "name": "Ivy", "email": "ivy@shop.test", "active": false}',
  ];
  const expected = byteSort(
    users
      .map((u) => JSON.parse(u))
      .filter((u) => u.active)
      .map((u) => u.email),
  );
  task({
    id: 'jsonl-active-emails',
    category: 'json',
    difficulty: 'medium',
    input:
      'users.jsonl has one JSON object per line (keys are not always in the same order). Write active_emails.txt with the email of every user whose "active" is true, one per line, sorted alphabetically.',
    files: { 'users.jsonl': lines(users) },
    solution: String.raw`grep -E '"active": *true' users.jsonl | sed 's/.*"email": *"\([^"]*\)".*/\1/' | sort > active_emails.txt`,
    tests: [
      ['active_emails.txt exists', '[ -f active_emails.txt ]'],
      ['inactive users are left out', `[ -f active_emails.txt ] && ! grep -qE '^(bo|dee|fin|ivy)@' active_emails.txt`],
      ['exactly the active emails, sorted', `is active_emails.txt ${sq(expected.join('\n'))}`],
    ],
  });
}

// ---------------------------------------------------------------- configuration

{
  const ini = `; application settings
[server]
host = 0.0.0.0
port = 8080
debug = true

[database]
host = db.internal
port = 5432
name = app
debug = true

[cache]
enabled = true
ttl = 300
`;
  const INI = String.raw`ini() {
  awk -v s="$1" -v k="$2" '
    /^[ \t]*\[/ { cur = $0; gsub(/[][ \t\r]/, "", cur); next }
    cur == s && index($0, "=") { key = substr($0, 1, index($0, "=") - 1); gsub(/[ \t]/, "", key)
      if (key == k) { v = substr($0, index($0, "=") + 1); gsub(/^[ \t]+|[ \t\r]+$/, "", v); print v } }' config/app.ini
}`;
  task({
    id: 'ini-edit-section',
    category: 'config',
    difficulty: 'medium',
    input:
      'In config/app.ini, change the port of the [server] section to 9090 and set debug to false in the [server] section only. Everything else must stay as it is — in particular the [database] section keeps port 5432 and debug = true.',
    files: { 'config/app.ini': ini },
    solution: String.raw`sed -i '/^\[server\]/,/^\[/{s/^port = .*/port = 9090/;s/^debug = .*/debug = false/}' config/app.ini`,
    tests: [
      INI,
      ['[server] port is 9090', '[ "$(ini server port)" = 9090 ]'],
      ['[server] debug is false', '[ "$(ini server debug)" = false ]'],
      ['[database] port is still 5432', '[ "$(ini database port)" = 5432 ]'],
      ['[database] debug is still true', '[ "$(ini database debug)" = true ]'],
      [
        'other keys unchanged',
        '[ "$(ini server host)" = 0.0.0.0 ] && [ "$(ini database host)" = db.internal ] && [ "$(ini cache enabled)" = true ] && [ "$(ini cache ttl)" = 300 ]',
      ],
      [
        'no key was added or duplicated',
        `[ "$(grep -c '=' config/app.ini)" -eq ${ini.split('\n').filter((l) => l.includes('=')).length} ]`,
      ],
    ],
  });
}

{
  const defaults = `# defaults for every environment
APP_NAME=shop
PORT=3000
LOG_LEVEL=info

DB_HOST=localhost
DB_PORT=5432
DB_OPTS=sslmode=disable
CACHE_TTL=60
`;
  const local = `# local overrides
PORT=4000
DB_HOST=127.0.0.1

FEATURE_X=on
`;
  const env = {};
  for (const l of (defaults + local).split('\n')) {
    if (!l || l.startsWith('#')) continue;
    const i = l.indexOf('=');
    env[l.slice(0, i)] = l.slice(i + 1);
  }
  const expected = byteSort(Object.keys(env)).map((k) => `${k}=${env[k]}`);
  task({
    id: 'env-merge',
    category: 'config',
    difficulty: 'medium',
    input:
      'Create .env by merging .env.defaults and .env.local: every key of both files, with the value from .env.local when a key is in both. Write only KEY=VALUE lines (no comments, no blank lines), sorted by key.',
    files: { '.env.defaults': defaults, '.env.local': local },
    solution: `cat .env.defaults .env.local | grep -v '^#' | grep '=' | awk '{ k = substr($0, 1, index($0, "=") - 1); v[k] = $0 } END { for (k in v) print v[k] }' | sort > .env`,
    tests: [
      ['.env exists', '[ -f .env ]'],
      ['local values win', `[ -f .env ] && grep -qx PORT=4000 .env && grep -qx DB_HOST=127.0.0.1 .env`],
      ['values containing = are kept whole', `[ -f .env ] && grep -qx DB_OPTS=sslmode=disable .env`],
      ['.env is exactly the merged keys, sorted, without comments', `is .env ${sq(expected.join('\n'))}`],
    ],
  });
}

// ---------------------------------------------------------------- archives

{
  const files = {
    'project/README.md': '# project\nA tiny C program.\n',
    'project/src/main.c': '#include "util.h"\nint main(void) { return util(); }\n',
    'project/src/util.c': 'int util(void) { return 0; }\n',
    'project/include/util.h': 'int util(void);\n',
    'project/build/main.o': 'OBJECT main\n',
    'project/build/app': 'BINARY app\n',
  };
  const kept = Object.keys(files).filter((p) => !p.includes('/build/'));
  task({
    id: 'tar-backup-exclude',
    category: 'archive',
    difficulty: 'medium',
    input:
      "Create backup.tar.gz in /workspace: a gzip-compressed tar archive of the project/ directory (entries start with project/), leaving out the build output in project/build/ entirely. Don't delete anything from project/.",
    files,
    solution: `tar czf backup.tar.gz project/README.md project/src project/include`,
    tests: [
      'X=$(mktemp -d)',
      ['backup.tar.gz is a valid gzip file', 'gzip -t backup.tar.gz'],
      ['the archive extracts', 'tar xzf backup.tar.gz -C "$X"'],
      ...kept.map((p) => [
        `${p} is in the archive with the same content`,
        `[ "$(md5of "$X"/${p})" = ${md5(files[p])} ]`,
      ]),
      ['project/build is not in the archive', `! tar tzf backup.tar.gz | grep -q build`],
      ['project/build is still on disk', '[ -f project/build/app ] && [ -f project/build/main.o ]'],
      'rm -rf "$X"',
    ],
  });
}

{
  const inner = {
    'reports/README.txt': 'Quarterly reports.\n',
    'reports/2023/q4.csv': 'month,total\noct,10\nnov,12\ndec,9\n',
    'reports/2024/q1.csv': 'month,total\njan,14\nfeb,11\nmar,15\n',
    'reports/2024/q2.csv': 'month,total\napr,16\nmay,13\njun,18\n',
    'reports/summary/annual.txt': '2023: 31\n',
  };
  const files = Object.fromEntries(Object.entries(inner).map(([p, c]) => [`staging/${p}`, c]));
  const n = Object.keys(inner).length;
  task({
    id: 'tar-extract-count',
    category: 'archive',
    difficulty: 'medium',
    input:
      'incoming/bundle.tar.gz is an archive someone sent us. Extract it into a new directory restored/ (its contents go under restored/), and write the number of regular files the archive contains to file_count.txt.',
    files,
    setup: ['mkdir -p incoming && tar czf incoming/bundle.tar.gz -C staging reports && rm -rf staging'],
    solution: `mkdir -p restored && tar xzf incoming/bundle.tar.gz -C restored && find restored -type f | wc -l | tr -d ' ' > file_count.txt`,
    tests: [
      ...Object.entries(inner).map(([p, c]) => exactly(`restored/${p}`, c, `restored/${p} extracted`)),
      [`file_count.txt holds ${n}`, `[ "$(trimmed file_count.txt)" = ${n} ]`],
      ['the archive is still there', '[ -f incoming/bundle.tar.gz ]'],
    ],
  });
}

{
  const r = rng(7);
  const files = {};
  const mk = (k) =>
    lines(Array.from({ length: 20 + k }, (_, i) => `2024-03-0${5 - k} ${hms(i * 97)} ${pick(r, MESSAGES)}`));
  files['logs/app.log'] = mk(0);
  for (const k of [1, 2, 3]) files[`logs/app.log.${k}`] = mk(k);
  const tests = [];
  for (const k of [1, 2, 3]) {
    tests.push([`logs/app.log.${k}.gz exists and is valid`, `gzip -t logs/app.log.${k}.gz`]);
    tests.push([
      `logs/app.log.${k}.gz holds the original log`,
      `[ "$(zcat logs/app.log.${k}.gz | md5sum | cut -d' ' -f1)" = ${md5(files[`logs/app.log.${k}`])} ]`,
    ]);
    tests.push([`uncompressed logs/app.log.${k} is gone`, `[ ! -e logs/app.log.${k} ]`]);
  }
  tests.push(unchanged('logs/app.log', files['logs/app.log']));
  tests.push(['logs/app.log is not compressed', '[ ! -e logs/app.log.gz ]']);
  task({
    id: 'gzip-rotated-logs',
    category: 'archive',
    difficulty: 'easy',
    input:
      'Compress the rotated logs logs/app.log.1, logs/app.log.2 and logs/app.log.3 with gzip, so they become app.log.1.gz and so on and the uncompressed copies are gone. Leave the live log logs/app.log as it is.',
    files,
    solution: `gzip logs/app.log.1 logs/app.log.2 logs/app.log.3`,
    tests,
  });
}

// ---------------------------------------------------------------- permissions

{
  const files = {
    'scripts/deploy.sh': '#!/bin/sh\necho deploying\n',
    'scripts/backup.sh': '#!/bin/sh\necho backing up\n',
    'scripts/lib/common.sh': '#!/bin/sh\nlog() { echo "$*"; }\n',
    'scripts/README.md': 'Helper scripts.\n',
    'secrets/db.env': 'DB_PASSWORD=hunter2\n',
  };
  task({
    id: 'chmod-scripts',
    category: 'permissions',
    difficulty: 'easy',
    input:
      "Make every .sh file under scripts/ (subdirectories included) executable with mode 755, and restrict secrets/db.env to mode 600 (owner read/write only). Don't change the mode of any other file.",
    files,
    setup: ['chmod 644 scripts/deploy.sh scripts/backup.sh scripts/lib/common.sh scripts/README.md secrets/db.env'],
    solution: `find scripts -type f -name '*.sh' -exec chmod 755 {} + && chmod 600 secrets/db.env`,
    tests: [
      ['scripts/deploy.sh is 755', '[ "$(mode scripts/deploy.sh)" = 755 ]'],
      ['scripts/backup.sh is 755', '[ "$(mode scripts/backup.sh)" = 755 ]'],
      ['scripts/lib/common.sh is 755', '[ "$(mode scripts/lib/common.sh)" = 755 ]'],
      ['secrets/db.env is 600', '[ "$(mode secrets/db.env)" = 600 ]'],
      ['scripts/README.md is still 644', '[ "$(mode scripts/README.md)" = 644 ]'],
      unchanged('secrets/db.env', files['secrets/db.env']),
    ],
  });
}

{
  const modes = {
    shared: ['777', '775'],
    'shared/notes.txt': ['666', '664'],
    'shared/run.sh': ['777', '775'],
    'shared/readme.txt': ['644', '644'],
    'shared/private.key': ['600', '600'],
    'shared/drop': ['777', '775'],
    'shared/drop/upload.dat': ['646', '644'],
    'shared/drop/tool': ['757', '755'],
  };
  task({
    id: 'remove-world-writable',
    category: 'permissions',
    difficulty: 'medium',
    input:
      'Some files and directories under shared/ are writable by others (world-writable). Remove the write permission for others from shared/ itself and everything below it, without changing any other permission bit.',
    files: {
      'shared/notes.txt': 'team notes\n',
      'shared/run.sh': '#!/bin/sh\necho run\n',
      'shared/readme.txt': 'read me\n',
      'shared/private.key': 'KEY\n',
      'shared/drop/upload.dat': 'data\n',
      'shared/drop/tool': '#!/bin/sh\necho tool\n',
    },
    setup: Object.entries(modes)
      .reverse()
      .map(([p, [m]]) => `chmod ${m} ${p}`),
    solution: `chmod -R o-w shared`,
    tests: Object.entries(modes).map(([p, [from, to]]) => [`${p}: ${from} -> ${to}`, `[ "$(mode ${p})" = ${to} ]`]),
  });
}

// ---------------------------------------------------------------- scripts the agent writes

{
  const f1 = 'a 10 1\nb -3 2\n\tc   25 4\nd\ne 10\nf 0 0 0\n';
  const f2 = '1 2\n3 4\n5\n';
  task({
    id: 'script-sumcol',
    category: 'scripting',
    difficulty: 'medium',
    input:
      'Write an executable shell script sumcol.sh in /workspace. `./sumcol.sh FILE N` prints the sum of the N-th whitespace-separated column of FILE (integers, possibly negative) as a single number. Lines with fewer than N columns count as 0, and an empty file prints 0. You can try it on sample.txt.',
    files: { 'sample.txt': 'apples 3\npears 5\nplums 12\n' },
    fixtures: { 'f1.txt': f1, 'f2.txt': f2, 'empty.txt': '' },
    solution: `cat > sumcol.sh <<'EOF'
#!/bin/sh
awk -v n="$2" '{ s += $n } END { print s + 0 }' "$1"
EOF
chmod 755 sumcol.sh`,
    tests: [
      ['sumcol.sh exists and is executable', '[ -f sumcol.sh ] && [ -x sumcol.sh ]'],
      ['sample.txt column 2 sums to 20', '[ "$(./sumcol.sh sample.txt 2 | tr -d " ")" = 20 ]'],
      ['mixed blanks and negatives: column 2 sums to 42', '[ "$(./sumcol.sh .tests/f1.txt 2 | tr -d " ")" = 42 ]'],
      ['short lines count as 0: column 3 of f1 sums to 7', '[ "$(./sumcol.sh .tests/f1.txt 3 | tr -d " ")" = 7 ]'],
      ['column 1 of f2 sums to 9', '[ "$(./sumcol.sh .tests/f2.txt 1 | tr -d " ")" = 9 ]'],
      ['column 2 of f2 sums to 6', '[ "$(./sumcol.sh .tests/f2.txt 2 | tr -d " ")" = 6 ]'],
      ['an empty file prints 0', '[ "$(./sumcol.sh .tests/empty.txt 1 | tr -d " ")" = 0 ]'],
    ],
  });
}

{
  const text = `It was the best of times, it was the worst of times; it was the age of wisdom,
it was the age of foolishness. The spring of hope, the winter of despair!
We had everything before us, we had nothing before us -- WE were all going direct to Heaven.
Hope: hope is the thing with feathers.
`;
  const counts = new Map();
  for (const w of text.toLowerCase().match(/[a-z]+/g)) counts.set(w, (counts.get(w) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const top = (n) =>
    ranked
      .slice(0, n)
      .map(([w, c]) => `${c} ${w}`)
      .join('\n');
  task({
    id: 'script-topwords',
    category: 'scripting',
    difficulty: 'hard',
    input:
      'Write an executable shell script topwords.sh in /workspace. `./topwords.sh FILE N` prints the N most frequent words of FILE, one per line as `COUNT WORD`, most frequent first, with ties broken alphabetically. Words are runs of letters a-z, compared case-insensitively and printed in lowercase. Try it on sample.txt.',
    files: { 'sample.txt': 'The cat and the dog. THE END, the end.\n' },
    fixtures: { 'tale.txt': text },
    solution: String.raw`cat > topwords.sh <<'EOF'
#!/bin/sh
tr 'A-Z' 'a-z' < "$1" | tr -cs 'a-z' '\n' | grep -v '^$' | sort | uniq -c | sort -k1,1nr -k2,2 | head -n "$2" | awk '{ print $1, $2 }'
EOF
chmod 755 topwords.sh`,
    tests: [
      'out() { ./topwords.sh "$@" | awk \'NF { $1 = $1; print }\'; }',
      ['topwords.sh exists and is executable', '[ -f topwords.sh ] && [ -x topwords.sh ]'],
      ['sample.txt top 2', `[ "$(out sample.txt 2)" = ${sq('4 the\n2 end')} ]`],
      ['hidden text: top 1', `[ "$(out .tests/tale.txt 1)" = ${sq(top(1))} ]`],
      ['hidden text: top 6 with alphabetical ties', `[ "$(out .tests/tale.txt 6)" = ${sq(top(6))} ]`],
    ],
  });
}

{
  const files = {
    'src/app.sh': '#!/bin/sh\n. "$(dirname "$0")/lib.sh"\ngreet world\n',
    'src/lib.sh': 'greet() { echo "hello, $1"; }\n',
    'src/conf/default.conf': 'color = blue\n',
  };
  task({
    id: 'script-mkrelease',
    category: 'scripting',
    difficulty: 'hard',
    input:
      'Write an executable shell script mkrelease.sh in /workspace. Run from /workspace as `./mkrelease.sh VERSION`, it creates dist/app-VERSION.tar.gz (creating dist/ if needed): a gzip tar archive whose entries are all under app-VERSION/ and hold a copy of everything in src/ (so src/conf/default.conf is app-VERSION/conf/default.conf in the archive), and prints the archive path dist/app-VERSION.tar.gz. Run without an argument it prints a usage message on stderr and exits with status 1.',
    files,
    solution: `cat > mkrelease.sh <<'EOF'
#!/bin/sh
if [ -z "$1" ]; then
  echo "usage: $0 VERSION" >&2
  exit 1
fi
v=$1
t=$(mktemp -d)
mkdir -p "$t/app-$v" dist
cp -R src/. "$t/app-$v/"
tar czf "dist/app-$v.tar.gz" -C "$t" "app-$v"
rm -rf "$t"
echo "dist/app-$v.tar.gz"
EOF
chmod 755 mkrelease.sh`,
    tests: [
      'X=$(mktemp -d)',
      ['mkrelease.sh exists and is executable', '[ -f mkrelease.sh ] && [ -x mkrelease.sh ]'],
      ['without an argument it exits 1', './mkrelease.sh </dev/null >/dev/null 2>&1; [ $? -eq 1 ]'],
      [
        'without an argument it writes a usage message on stderr',
        '[ -f mkrelease.sh ] && [ -n "$(./mkrelease.sh 2>&1 >/dev/null </dev/null)" ]',
      ],
      [
        './mkrelease.sh 9.8.7 succeeds and prints the archive path',
        '[ -f mkrelease.sh ] && ./mkrelease.sh 9.8.7 > "$X/stdout" && grep -q "dist/app-9.8.7.tar.gz" "$X/stdout"',
      ],
      ['dist/app-9.8.7.tar.gz is a valid gzip tar', 'gzip -t dist/app-9.8.7.tar.gz && tar tzf dist/app-9.8.7.tar.gz'],
      [
        'every entry is under app-9.8.7/',
        '[ -f dist/app-9.8.7.tar.gz ] && ! tar tzf dist/app-9.8.7.tar.gz | sed "s|^\\./||" | grep -v "^app-9\\.8\\.7\\(/\\|$\\)"',
      ],
      'mkdir -p "$X/x" && tar xzf dist/app-9.8.7.tar.gz -C "$X/x" 2>/dev/null',
      ...Object.entries(files).map(([p, c]) => [
        `${p.replace('src/', 'app-9.8.7/')} is in the archive`,
        `[ "$(md5of "$X/x/${p.replace('src/', 'app-9.8.7/')}")" = ${md5(c)} ]`,
      ]),
      'rm -rf "$X"',
    ],
  });
}

// ---------------------------------------------------------------- finding files

{
  const sizes = {
    'data/raw/a.bin': 10241,
    'data/raw/b.bin': 10240,
    'data/raw/deep/c.dat': 20000,
    'data/img/d.png': 1200,
    'data/e.txt': 15000,
    'data/img/f.png': 9999,
    'data/archive/old/g.log': 30000,
    'data/empty': 0,
  };
  const files = Object.fromEntries(Object.entries(sizes).map(([p, n]) => [p, 'x'.repeat(n)]));
  const expected = byteSort(Object.keys(sizes).filter((p) => sizes[p] > 10240));
  task({
    id: 'find-large-files',
    category: 'find',
    difficulty: 'medium',
    input:
      'List every file under data/ that is larger than 10 KiB (more than 10240 bytes). Write their paths, written like data/dir/file (no leading ./), to large_files.txt, one per line, sorted alphabetically.',
    files,
    solution: `find data -type f -size +10240c | sort > large_files.txt`,
    tests: [
      ['large_files.txt exists', '[ -f large_files.txt ]'],
      ['a file of exactly 10240 bytes is not listed', '[ -f large_files.txt ] && ! grep -q b.bin large_files.txt'],
      ['exactly the files above 10 KiB, sorted', `is large_files.txt ${sq(expected.join('\n'))}`],
    ],
  });
}

{
  const paths = [
    'src/index.js',
    'src/app.ts',
    'src/util/format.ts',
    'src/util/parse.ts',
    'src/util/parse.test.ts',
    'src/lib.old/helper.js',
    'src/lib.old/Makefile',
    'src/config/app.json',
    'src/config/tsconfig.json',
    'src/docs/guide.md',
    'src/assets/logo.min.svg',
    'src/assets/fonts.tar.gz',
    'src/LICENSE',
  ];
  const counts = {};
  for (const p of paths) {
    const name = p.split('/').pop();
    const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : 'none';
    counts[ext] = (counts[ext] ?? 0) + 1;
  }
  const expected = byteSort(Object.keys(counts)).map((e) => `${e} ${counts[e]}`);
  task({
    id: 'count-by-extension',
    category: 'find',
    difficulty: 'medium',
    input:
      'Count the files under src/ by extension, the part of the file name after its last dot (so fonts.tar.gz counts as gz). Files whose name has no dot count under the extension none. Write ext_counts.txt with one line per extension as `EXT COUNT`, sorted by extension.',
    files: Object.fromEntries(paths.map((p) => [p, `// ${p}\n`])),
    solution: `find src -type f | sed 's|.*/||' | awk '{ n = split($0, a, "."); print (n > 1 ? a[n] : "none") }' | sort | uniq -c | awk '{ print $2, $1 }' > ext_counts.txt`,
    tests: [
      ['ext_counts.txt exists', '[ -f ext_counts.txt ]'],
      ['directory names with dots are not extensions', `[ -f ext_counts.txt ] && ! grep -q '^old ' ext_counts.txt`],
      ['every extension with its count, sorted', `is ext_counts.txt ${sq(expected.join('\n'))}`],
    ],
  });
}

{
  const keep = {
    'project/main.c': 'int main(void) { return 0; }\n',
    'project/sub/keep.txt': 'keep me\n',
    'project/tmp/real.txt': 'a real file in a dir called tmp\n',
    'project/template.tmpl': 'template\n',
    'project/notes.tmp.txt': 'not a temp file\n',
  };
  const junk = {
    'project/a.tmp': 'junk\n',
    'project/sub/b.tmp': 'junk\n',
    'project/notes.txt~': 'editor backup\n',
    'project/sub/deeper/c.c~': 'editor backup\n',
    'project/sub/.DS_Store': 'mac junk\n',
    'project/.DS_Store': 'mac junk\n',
  };
  task({
    id: 'cleanup-temp-files',
    category: 'find',
    difficulty: 'easy',
    input:
      'Clean up project/: delete every file (in any subdirectory) whose name ends in .tmp or ~, and every file named .DS_Store. Keep everything else.',
    files: { ...keep, ...junk },
    solution: `find project -type f \\( -name '*.tmp' -o -name '*~' -o -name .DS_Store \\) -exec rm -f {} +`,
    tests: [
      ...Object.keys(junk).map((p) => [`${p} deleted`, `[ ! -e ${sq(p)} ]`]),
      ...Object.entries(keep).map(([p, c]) => unchanged(p, c)),
    ],
  });
}

// ---------------------------------------------------------------- renaming

{
  const nums = [1, 2, 5, 7, 9, 10, 11, 13, 20, 108];
  const files = Object.fromEntries(nums.map((n) => [`photos/IMG_${pad(n, 4)}.JPG`, `JPEG data of shot ${n}\n`]));
  files['photos/notes.txt'] = 'photos from the trip\n';
  files['photos/IMG_0003.png'] = 'a screenshot, not a photo\n';
  task({
    id: 'bulk-rename-photos',
    category: 'rename',
    difficulty: 'medium',
    input:
      "Rename every photos/IMG_NNNN.JPG file to photos/vacation-NNN.jpg, where NNN is the image number written with 3 digits (IMG_0007.JPG becomes vacation-007.jpg, IMG_0108.JPG becomes vacation-108.jpg). Don't touch other files.",
    files,
    solution: `for f in photos/IMG_*.JPG; do n=\${f#photos/IMG_}; n=\${n%.JPG}; n=$(expr "$n" + 0); mv "$f" "$(printf 'photos/vacation-%03d.jpg' "$n")"; done`,
    tests: [
      ['no IMG_*.JPG file is left', '[ -z "$(ls photos | grep "^IMG_.*\\.JPG$")" ]'],
      ...nums.map((n) => [
        `IMG_${pad(n, 4)}.JPG -> vacation-${pad(n, 3)}.jpg`,
        `[ "$(md5of photos/vacation-${pad(n, 3)}.jpg)" = ${md5(files[`photos/IMG_${pad(n, 4)}.JPG`])} ]`,
      ]),
      unchanged('photos/notes.txt', files['photos/notes.txt']),
      unchanged('photos/IMG_0003.png', files['photos/IMG_0003.png']),
      [`photos/ holds ${nums.length + 2} files`, `[ "$(ls photos | wc -l)" -eq ${nums.length + 2} ]`],
    ],
  });
}

{
  const names = ['Meeting Notes 2024.TXT', 'Q1 Budget.CSV', 'Team Roster final.Md', 'already_fine.txt', 'README'];
  const files = Object.fromEntries(names.map((n) => [`docs/${n}`, `content of ${n}\n`]));
  const newName = (n) => n.toLowerCase().replace(/ /g, '_');
  task({
    id: 'rename-spaces-lowercase',
    category: 'rename',
    difficulty: 'medium',
    input:
      'Rename every file in docs/ so that its name is all lowercase and each space is replaced by an underscore (for example "Meeting Notes.TXT" becomes meeting_notes.txt). Keep the files\' contents.',
    files,
    solution: `cd docs && for f in *; do n=$(printf '%s' "$f" | tr 'A-Z ' 'a-z_'); [ "$f" = "$n" ] || mv "$f" "$n"; done`,
    tests: [
      ...names.map((n) => [
        `docs/${n} -> docs/${newName(n)}`,
        `[ "$(md5of ${sq(`docs/${newName(n)}`)})" = ${md5(files[`docs/${n}`])} ]`,
      ]),
      ['no file name in docs/ has a space or a capital letter', '[ -z "$(ls docs | grep "[ A-Z]")" ]'],
      [`docs/ holds ${names.length} files`, `[ "$(ls docs | wc -l)" -eq ${names.length} ]`],
    ],
  });
}

// ---------------------------------------------------------------- symlinks

{
  task({
    id: 'symlink-current-release',
    category: 'symlinks',
    difficulty: 'easy',
    input:
      'Create a relative symlink current in /workspace that points to releases/v1.3, and a relative symlink bin/app that points to ../current/app.sh (so bin/app always follows the current release).',
    files: {
      'releases/v1.2/VERSION': '1.2\n',
      'releases/v1.2/app.sh': '#!/bin/sh\necho v1.2\n',
      'releases/v1.3/VERSION': '1.3\n',
      'releases/v1.3/app.sh': '#!/bin/sh\necho v1.3\n',
      'bin/.keep': '',
    },
    solution: `ln -sfn releases/v1.3 current && ln -sf ../current/app.sh bin/app`,
    tests: [
      ['current is a symlink', '[ -L current ]'],
      [
        'current points to releases/v1.3 (relative)',
        'case "$(readlink current)" in releases/v1.3|releases/v1.3/|./releases/v1.3|./releases/v1.3/) true;; *) false;; esac',
      ],
      ['current/VERSION reads 1.3', '[ "$(cat current/VERSION)" = 1.3 ]'],
      ['bin/app is a symlink to ../current/app.sh', '[ -L bin/app ] && [ "$(readlink bin/app)" = ../current/app.sh ]'],
      ['bin/app runs the v1.3 app', '[ "$(sh bin/app)" = v1.3 ]'],
      ['releases/v1.3 is still a real directory', '[ -d releases/v1.3 ] && [ ! -L releases/v1.3 ]'],
    ],
  });
}

{
  task({
    id: 'remove-broken-symlinks',
    category: 'symlinks',
    difficulty: 'medium',
    input:
      'links/ contains symlinks, some of them broken (their target does not exist). Delete the broken ones, keep the working ones, and write the names of the links you removed (just the names, e.g. old) to removed.txt, one per line, sorted.',
    files: { 'targets/a.conf': 'a\n', 'targets/b.conf': 'b\n', 'targets/sub/c.conf': 'c\n' },
    setup: [
      'mkdir -p links && cd links && ln -s ../targets/a.conf a && ln -s ../targets/b.conf b && ln -s ../targets/old.conf old && ln -s /opt/missing/tool opt && ln -s ../targets all && ln -s ../targets/gone/x.conf x && ln -s ../targets/sub/c.conf c && ln -s all/sub/c.conf chained && ln -s y loop && ln -s loop y',
    ],
    solution: `for l in links/* ; do [ -L "$l" ] && [ ! -e "$l" ] && rm "$l" && basename "$l"; done | sort > removed.txt`,
    tests: [
      ...['old', 'opt', 'x', 'loop', 'y'].map((n) => [
        `broken link links/${n} removed`,
        `[ ! -L links/${n} ] && [ ! -e links/${n} ]`,
      ]),
      ...['a', 'b', 'all', 'c', 'chained'].map((n) => [
        `working link links/${n} kept`,
        `[ -L links/${n} ] && [ -e links/${n} ]`,
      ]),
      ['removed.txt lists the removed links, sorted', `is removed.txt ${sq('loop\nold\nopt\nx\ny')}`],
      ['targets are intact', '[ -f targets/a.conf ] && [ -f targets/b.conf ] && [ -f targets/sub/c.conf ]'],
    ],
  });
}

// ---------------------------------------------------------------- integrity & comparison

{
  const orig = {
    'alpine.iso': 'ISO image bytes v3.19\n',
    'backup-01.tar': 'tar bytes 01\n',
    'backup-02.tar': 'tar bytes 02\n',
    'firmware.bin': 'firmware 4.2.1\n',
    'photos.zip': 'zip bytes\n',
    'readme.txt': 'downloaded files\n',
  };
  const files = {};
  for (const [n, c] of Object.entries(orig)) files[`downloads/${n}`] = c;
  files['downloads/backup-02.tar'] = 'tar bytes 02 (truncated\n';
  files['downloads/firmware.bin'] = 'firmware 4.2.1 \n';
  delete files['downloads/photos.zip'];
  files['downloads/SHA256SUMS'] = lines(Object.entries(orig).map(([n, c]) => `${sha256(c)}  ${n}`));
  const expected = byteSort(Object.keys(orig).filter((n) => files[`downloads/${n}`] !== orig[n]));
  task({
    id: 'verify-checksums',
    category: 'integrity',
    difficulty: 'medium',
    input:
      'downloads/SHA256SUMS lists the expected SHA-256 of each download. Find the files that fail verification (content does not match, or the file is missing) and write their names (as listed in SHA256SUMS) to corrupted.txt, one per line, sorted.',
    files,
    solution: `cd downloads && sha256sum -c SHA256SUMS 2>/dev/null | grep -v ': OK$' | sed 's/: [A-Z].*$//' | sort > ../corrupted.txt`,
    tests: [
      ['corrupted.txt exists', '[ -f corrupted.txt ]'],
      ['exactly the failing files, sorted', `is corrupted.txt ${sq(expected.join('\n'))}`],
      unchanged('downloads/SHA256SUMS', files['downloads/SHA256SUMS']),
    ],
  });
}

{
  const oldT = {
    'README.md': '# site\n',
    'index.html': '<h1>Home</h1>\n',
    'css/site.css': 'body { color: black; }\n',
    'js/app.js': 'console.log(1);\n',
    'js/legacy.js': 'var x;\n',
    'img/logo.svg': '<svg/>\n',
  };
  const newT = {
    'README.md': '# site\n',
    'index.html': '<h1>Home page</h1>\n',
    'css/site.css': 'body { color: black; }\n',
    'css/dark.css': 'body { color: white; }\n',
    'js/app.js': 'console.log(2);\n',
    'img/logo.svg': '<svg/>\n',
    'img/hero.png': 'PNG\n',
  };
  const all = byteSort([...new Set([...Object.keys(oldT), ...Object.keys(newT)])]);
  const changes = [];
  for (const p of all) {
    if (!(p in oldT)) changes.push(`A ${p}`);
    else if (!(p in newT)) changes.push(`D ${p}`);
    else if (oldT[p] !== newT[p]) changes.push(`M ${p}`);
  }
  const files = {};
  for (const [p, c] of Object.entries(oldT)) files[`old/${p}`] = c;
  for (const [p, c] of Object.entries(newT)) files[`new/${p}`] = c;
  task({
    id: 'dir-diff',
    category: 'files',
    difficulty: 'hard',
    input:
      'old/ and new/ are two versions of a website. Write changes.txt describing what changed from old/ to new/: one line per file, `A path` for a file only in new/, `D path` for a file only in old/, `M path` for a file in both whose content differs (unchanged files are not listed). Paths are relative to old/ or new/ (like css/site.css); sort the lines by path.',
    files,
    solution: String.raw`(cd old && find . -type f | sed 's|^\./||' | sort) > /tmp/o
(cd new && find . -type f | sed 's|^\./||' | sort) > /tmp/n
{
  grep -Fxv -f /tmp/o /tmp/n | sed 's/^/A /'
  grep -Fxv -f /tmp/n /tmp/o | sed 's/^/D /'
  grep -Fx -f /tmp/o /tmp/n | while read -r p; do cmp -s "old/$p" "new/$p" || echo "M $p"; done
} | sort -k2 > changes.txt
rm -f /tmp/o /tmp/n`,
    tests: [
      ['changes.txt exists', '[ -f changes.txt ]'],
      ['unchanged files are not listed', `[ -f changes.txt ] && ! grep -qE 'README.md|site.css|logo.svg' changes.txt`],
      [
        'added files are marked A',
        `[ -f changes.txt ] && grep -qx 'A css/dark.css' changes.txt && grep -qx 'A img/hero.png' changes.txt`,
      ],
      ['the deleted file is marked D', `[ -f changes.txt ] && grep -qx 'D js/legacy.js' changes.txt`],
      [
        'modified files are marked M',
        `[ -f changes.txt ] && grep -qx 'M index.html' changes.txt && grep -qx 'M js/app.js' changes.txt`,
      ],
      ['changes.txt is complete and sorted by path', `is changes.txt ${sq(changes.join('\n'))}`],
    ],
  });
}

{
  task({
    id: 'scaffold-project',
    category: 'files',
    difficulty: 'easy',
    input:
      'Create this layout under /workspace/app: the directories app/src, app/tests and app/docs; a file app/README.md whose first line is exactly `# app`; and app/src/main.sh, a shell script that prints hello when run as `sh app/src/main.sh`.',
    files: { 'NOTES.txt': 'Start a new project in app/.\n' },
    solution: `mkdir -p app/src app/tests app/docs && printf '# app\\n\\nA new project.\\n' > app/README.md && printf '#!/bin/sh\\necho hello\\n' > app/src/main.sh`,
    tests: [
      ['app/src, app/tests and app/docs are directories', '[ -d app/src ] && [ -d app/tests ] && [ -d app/docs ]'],
      [
        'app/README.md starts with "# app"',
        '[ -f app/README.md ] && [ "$(head -n 1 app/README.md | tr -d "\\r")" = "# app" ]',
      ],
      ['sh app/src/main.sh prints hello', '[ -f app/src/main.sh ] && [ "$(sh app/src/main.sh)" = hello ]'],
    ],
  });
}

// ---------------------------------------------------------------- write

const ids = new Set();
for (const t of tasks) {
  if (ids.has(t.id)) throw new Error(`duplicate id ${t.id}`);
  ids.add(t.id);
}
const out = join(here, 'data', 'tasks.jsonl');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, tasks.map((t) => JSON.stringify(t)).join('\n') + '\n');
console.log(`wrote ${tasks.length} tasks to ${out}`);
