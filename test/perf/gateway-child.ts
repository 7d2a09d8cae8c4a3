// The other side of the gateway perf row, in a process of its own so that the gateway (in the
// suite's process) has a core as it will in a run: the loopback model and the trials' clients.
// Each client is one trial with one call in flight, sending a CLI-sized request over keep-alive
// node:http, directly to the model or through the gateway; both sides cost this process the same.
// Protocol over IPC: → {ready: modelUrl}; ← {run: Job} → {done: number[] (ms per call)}; ← {exit}.
import http from 'node:http';
import { startUpstreamServer } from '../support/upstream-server.ts';
import { defined } from '../support/defined.ts';

export interface Job {
  /** Origin to call: the model's or the gateway's. */
  target: string;
  /** One per client; the model takes any. */
  tokens: string[];
  calls: number;
  stream: boolean;
  body: string;
}

const latencyMs = Number(process.argv[2] ?? 0);
const model = await startUpstreamServer({ keepRequests: false });
model.setScript(() => ({
  text: 'pong '.repeat(20),
  usage: { input: 10_000, output: 20 },
  delayMs: latencyMs || undefined,
}));
const agent = new http.Agent({ keepAlive: true });

function call(url: string, token: string, body: string): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode} from ${url}`));
        res.on('data', () => {});
        res.on('end', () => resolve(performance.now() - t0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function run(job: Job): Promise<number[]> {
  const url = `${job.target}/v1/chat/completions`;
  const body = job.stream
    ? job.body.replace(/^\{/, '{"stream":true,"stream_options":{"include_usage":true},')
    : job.body;
  const times: number[] = [];
  await Promise.all(
    job.tokens.map(async (token) => {
      for (let i = 0; i < job.calls; i++) times.push(await call(url, token, body));
    }),
  );
  return times;
}

/** To the parent, over the IPC channel fork() opened. */
function send(message: object): void {
  if (!process.send) throw new Error('gateway-child runs as a forked child, with an IPC channel');
  process.send(message);
}

async function onMessage(m: { run?: Job; exit?: true }): Promise<void> {
  if (m.exit) {
    agent.destroy();
    await model.close();
    process.disconnect();
    return;
  }
  try {
    send({ done: await run(defined(m.run, 'job')) });
  } catch (err) {
    send({ error: (err as Error).message });
  }
}
process.on('message', (m: { run?: Job; exit?: true }) => void onMessage(m));
send({ ready: new URL(model.url).origin });
