// A value from the environment never reaches run.json, `config show`, the logs, the results or the
// reports in clear, whatever its key is called (issue #13, item 14); the run still uses it. The
// agent behind HTTP is a real server on loopback that echoes the request's headers in its errors.
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { formsIn, keyForms } from '../support/key-forms.ts';
import { startModelServer } from '../support/model-server.ts';
import { defined } from '../support/defined.ts';
import type { KeptFolders } from '../support/cli.ts';

const SECRET = 'c00kie-s3cret-9f2e71d4';
const seen: Array<IncomingMessage['headers']> = [];
let url = '';
let close = () => {};

beforeAll(async () => {
  // Refuses every request, quoting the headers it got (as some servers do in their errors).
  const server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume().on('end', () => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: `bad session: cookie=${req.headers.cookie}; token ${String(req.headers['x-session'])}`,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  close = () => server.close();
});
afterAll(() => close());

const hasDocker = await requireDocker();

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));
}

function setup() {
  const bench = join(tempDir(), 'bench');
  cpSync(join(FIXTURES, 'benchmarks/echo-local'), bench, { recursive: true });
  writeFileSync(join(bench, 'data.jsonl'), '{"id": "a", "input": "say apple", "expected": "apple"}\n');
  const cfg = join(tempDir(), 'secrets.toml');
  writeFileSync(
    cfg,
    '[agent]\nname = "http"\n[agent.options]\nurl = "${AGENT_URL}"\nmax_retries = 0\n' +
      '[agent.options.headers]\nCookie = "session=${MY_KEY}"\nX-Session = "${MY_KEY}"\n',
  );
  return { bench, cfg, env: { MY_KEY: SECRET, AGENT_URL: url, BENCHRIG_MODEL: 'model-from-env' } };
}

describe('secrets from the environment', () => {
  it('the run sends the real value; run.json, results, logs and reports hold only the template', async () => {
    const { bench, cfg, env } = setup();
    const out = tempDir();
    const r = await runCli(
      ['run', bench, '--config', cfg, '--mode', 'processes', '--workers', '1', '--output', out, '--verbose'],
      { env },
    );
    expect(seen.at(-1)?.cookie).toBe(`session=${SECRET}`);
    expect(seen.at(-1)?.['x-session']).toBe(SECRET);

    const dir = onlyRunDir(out, 'http', 'echo-local');
    const runJson = readJson(join(dir, 'run.json'));
    expect(runJson.agent.options.headers).toEqual({ Cookie: 'session=${MY_KEY}', 'X-Session': '${MY_KEY}' });
    expect(runJson.models.agent).toBe('model-from-env'); // a plain key keeps its value
    const [result] = results(dir);
    expect(result.status).toBe('AGENT_ERROR');
    expect(defined(result.error).message).toMatch(/HTTP 401: .*bad session: cookie=\*\*\*; token \*\*\*/);

    for (const file of files(dir)) expect(readFileSync(file, 'utf8'), file).not.toContain(SECRET);
    expect(files(dir).map((f) => f.slice(dir.length + 1))).toEqual(
      expect.arrayContaining(['run.json', 'evaluation_report.json', 'logs/a.log', 'results/a.json']),
    );
    expect(r.stdout + r.stderr).not.toContain(SECRET);

    const md = await runCli(['report', dir, '--format', 'md']);
    expect(md.code).toBe(0);
    expect(md.stdout).not.toContain(SECRET);
  });

  it('config show prints the template under any key name, and the plain keys expanded', async () => {
    const { bench, cfg, env } = setup();
    const r = await runCli(['config', 'show', bench, '--config', cfg], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stdout).toContain('Cookie = "session=${MY_KEY}"');
    expect(r.stdout).toContain('X-Session = "${MY_KEY}"');
    expect(r.stdout).toContain('url = "${AGENT_URL}"');
    expect(r.stdout).toContain('model = "model-from-env"');
  });
});

describe('a model that echoes its key (issue #21, item 7)', () => {
  const KEY = 'sk-echoed-SECRET-5b81f2c7d9';
  const ECHO = Object.values(keyForms(KEY)).join(' | ');

  it('react: the key in every form, in a whole answer and in tool arguments, is in no file of the run nor the cache', async () => {
    // turn 1 answers through submit (a tool call), turn 2 (the scripted user's) in plain text
    const server = await startModelServer((req) =>
      req.body.messages.some((m) => m.role === 'tool')
        ? { content: `Rome. By the way, your key is ${ECHO}` }
        : { tool_calls: [{ name: 'submit', arguments: { answer: `Paris; your key is ${ECHO}` } }] },
    );
    try {
      const out = tempDir();
      const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: KEY, BENCHRIG_MODEL: 'm' };
      const r = await runCli(
        [
          'run',
          join(FIXTURES, 'benchmarks/models-local'),
          '--agent',
          'react',
          '--sample',
          'capitals',
          '--mode',
          'processes',
          '--workers',
          '1',
          '--output',
          out,
          '--llm-cache',
          'record',
          '--verbose',
        ],
        { env },
      );
      expect(server.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
      const dir = onlyRunDir(out, 'react', 'models-local');
      const [result] = results(dir);
      expect(result.status, r.stderr).toBe('PASSED'); // graded on what the model said
      expect(result.response).toContain('Rome. By the way, your key is ***');
      const written = files(out).map((f) => f.slice(out.length + 1));
      expect(written).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^\.llm-cache\/.*\.json$/),
          expect.stringMatching(/report\.html$/),
          expect.stringMatching(/logs\/capitals\.log$/),
        ]),
      );
      for (const file of files(out)) expect(formsIn(readFileSync(file, 'utf8'), KEY), file).toEqual([]);
      expect(formsIn(r.stdout + r.stderr, KEY)).toEqual([]);
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe.skipIf(!hasDocker)("a model's echo of its key in a folder kept out of the sandbox ([grading] keep)", () => {
  const KEY = 'sk-kept-SECRET-0d9a3e7b61';
  const ECHO = Object.entries(keyForms(KEY))
    .map(([form, text]) => `${form}: ${text}`)
    .join('\n');

  it('a transcript in /logs/agent (text, JSON line, binary file, file name): no file of the run holds the key in any form', async () => {
    const server = await startModelServer(() => ({ content: `${KEY}\nyour key, in every form:\n${ECHO}` }));
    try {
      const out = tempDir();
      const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: KEY, BENCHRIG_MODEL: 'm' };
      const r = await runCli(
        [
          'run',
          join(FIXTURES, 'benchmarks/tamper-harbor'),
          '--agent',
          join(FIXTURES, 'agents/echo-transcript.ts'),
          '--mode',
          'single',
          '--output',
          out,
        ],
        { env },
      );
      expect(server.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
      const dir = onlyRunDir(out, 'echo-transcript', 'tamper-harbor');
      const [result] = results(dir);
      expect(result.status, r.stderr).toBe('FAILED'); // it did not do the task; it ran to the end
      const agentLogs = join(dir, (result.artifacts.kept as KeptFolders).agent);
      const kept = readdirSync(agentLogs).sort();
      expect(kept).toEqual(expect.arrayContaining(['session.bin', 'transcript.jsonl', 'transcript.txt']));
      expect(kept).toHaveLength(4); // the file named after the key is still there, under another name
      expect(readFileSync(join(agentLogs, 'transcript.txt'), 'utf8')).toContain(
        'assistant: ***\nyour key, in every form:\nplain: ***\n',
      );
      const bin = readFileSync(join(agentLogs, 'session.bin'));
      expect([...bin.subarray(0, 4)]).toEqual([0, 1, 2, 0]); // a binary file keeps its bytes around the key
      expect(bin.subarray(4, 4 + KEY.length).toString()).toBe('*'.repeat(KEY.length));
      for (const file of files(dir)) {
        expect(formsIn(file.slice(dir.length), KEY), file).toEqual([]);
        expect(formsIn(readFileSync(file, 'latin1'), KEY), file).toEqual([]);
      }
    } finally {
      await server.close();
    }
  }, 120_000);
});
