// An upstream that echoes its key (issue #21, item 7), in every form (as is, JSON-escaped,
// URL-encoded, base64), in streamed text, streamed tool-call arguments, an SSE error event and whole
// answers, over the three APIs: the agent may get what the model said, but the trial's record (its
// events and log lines, through the trial's recorder) and the `--llm-cache` files hold no form of it.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scrubberFor, secretValues } from '../../../src/config/scrub.ts';
import { formatEvent, Recorder } from '../../../src/trial/recorder.ts';
import { formsIn, keyForms } from '../../support/key-forms.ts';
import { allUpstreams, anthropic, perTest, SECRET, trialSink } from './helpers.ts';

const t = perTest();
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const ECHO = Object.values(keyForms(SECRET)).join(' | ');

/** A trial whose events go through a recorder as the trial's session makes it (the run's secrets). */
function recordedTrial(budget: number | null = null) {
  const sink = trialSink('sample-1#1', budget);
  const lines: string[] = [];
  const recorder = new Recorder(
    (e) => lines.push(formatEvent(e)),
    scrubberFor(secretValues({ llm: { api_key: SECRET } })),
  );
  sink.trial.onEvent = recorder.record;
  sink.trial.onCall = recorder.recordCall;
  return { trial: sink.trial, recorder, lines };
}

async function post(baseUrl: string, token: string, path: string, body: object) {
  const res = await fetch(`${baseUrl}/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.text();
}

const filesOf = (dir: string) => readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8'));

describe('an upstream that echoes its key', () => {
  it('in every form, streamed and whole, text, tool arguments and an SSE error: no form in the record or the cache', async () => {
    const up = await t.upstream();
    const dir = mkdtempSync(join(tmpdir(), 'benchrig-gw-echo-'));
    dirs.push(dir);
    const gw = await t.gateway({ upstreams: allUpstreams(up.url), cache: { mode: 'record', dir } });
    const { trial, recorder, lines } = recordedTrial();
    const reg = gw.register(trial);
    const seen: string[] = [];
    up.setScript((req) =>
      req.body.messages?.[0]?.content === 'error please'
        ? { streamError: `overloaded, key ${ECHO}` }
        : {
            text: `your key is ${ECHO}`,
            tool_calls: [{ name: 'bash', arguments: { command: `curl -H 'x-api-key: ${ECHO}'` } }],
          },
    );
    for (const stream of [true, false]) {
      const messages = [{ role: 'user', content: `hi ${stream}` }];
      seen.push(await post(reg.baseUrl, reg.token, '/chat/completions', { model: 'm', messages, stream }));
      seen.push(await post(reg.baseUrl, reg.token, '/responses', { model: 'm', input: `hi ${stream}`, stream }));
      seen.push((await anthropic(reg.baseUrl, reg.token, { model: 'c', max_tokens: 9, messages, stream })).text);
    }
    seen.push(
      (
        await anthropic(reg.baseUrl, reg.token, {
          model: 'c',
          max_tokens: 9,
          messages: [{ role: 'user', content: 'error please' }],
          stream: true,
        })
      ).text,
    );

    expect(formsIn(seen.join('\n'), SECRET)).not.toEqual([]); // the agent got what the model said
    const events = recorder.events;
    expect(events.filter((e) => e.type === 'llm_call')).toHaveLength(7);
    expect(events.filter((e) => e.type === 'tool_call')).toHaveLength(6);
    expect(events.find((e) => e.type === 'llm_call' && e.error)).toMatchObject({
      error: expect.stringContaining('overloaded, key ***'),
    });
    expect(formsIn(JSON.stringify(events), SECRET)).toEqual([]);
    expect(formsIn(lines.join('\n'), SECRET)).toEqual([]);
    // The transcript holds each answer assembled (a key streamed in pieces is whole there), scrubbed.
    const transcript = recorder.transcript?.toJSON();
    expect(transcript?.calls).toHaveLength(7);
    const answers = Object.values(transcript?.messages ?? {}).filter((m) => m.role === 'assistant');
    expect(answers.length).toBeGreaterThan(0);
    for (const m of answers) expect(m.content).toMatch(/^your key is \*\*\*/);
    expect(formsIn(JSON.stringify(transcript), SECRET)).toEqual([]);
    // whole answers are stored scrubbed; a streamed one holding the key (maybe in pieces) is not stored
    const stored = filesOf(dir);
    expect(stored).toHaveLength(3);
    for (const f of stored) expect(formsIn(f, SECRET)).toEqual([]);
    expect(
      events.filter((e) => e.type === 'log' && /not stored .*holds the upstream key/.test(e.message)),
    ).toHaveLength(3);
  });

  it('a request that repeats the key is stored under the scrubbed request: the replay, which saw ***, finds it', async () => {
    const up = await t.upstream();
    const dir = mkdtempSync(join(tmpdir(), 'benchrig-gw-echo-'));
    dirs.push(dir);
    const record = await t.gateway({ upstreams: allUpstreams(up.url), cache: { mode: 'record', dir } });
    const r1 = record.register(recordedTrial().trial);
    const turn = (said: string) => ({
      model: 'm',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: `key ${said}` },
        { role: 'user', content: 'again' },
      ],
    });
    await post(r1.baseUrl, r1.token, '/chat/completions', turn(SECRET));
    for (const f of filesOf(dir)) expect(formsIn(f, SECRET)).toEqual([]);
    const replay = await t.gateway({
      upstreams: allUpstreams('http://127.0.0.1:9/v1'),
      cache: { mode: 'replay', dir },
    });
    const r2 = replay.register(recordedTrial().trial);
    expect(
      JSON.parse(await post(r2.baseUrl, r2.token, '/chat/completions', turn('***'))).choices[0].message.content,
    ).toBe('answer 1');
  });
});
