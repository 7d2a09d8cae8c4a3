// Before the first trial of a run whose agent needs a model (docs/agents.md#models): each upstream it will use is
// asked once for its model list, so that a wrong URL or key fails the run in a second, not after
// minutes of retries on every sample. Unreachable: exit 3 naming the URL and where it came from;
// 401/403: exit 2 naming the variable or key the key came from ("OPENAI_API_KEY is not set" when no
// key was sent); a 2xx that is not JSON (a web page): exit 2 with the URL, status and the body's start;
// any other answer (404 included: not every endpoint lists models) passes.
import http from 'node:http';
import type { LlmConfig } from '../config/schema.ts';
import { BenchrigError } from '../errors.ts';
import { notJsonMessage } from '../llm/not-json-message.ts';
import { routeFor, upstreamsFromConfig } from '../gateway/upstreams.ts';
import type { Protocol, Upstream } from '../gateway/types.ts';
import { onceAmong, type SharedChecks } from './shared-checks.ts';
import { originOf, settingPath, sourceWords, whatToSet, type Origin, type Templates } from './model-origin.ts';

/** Where the configuration came from: its `${VAR}` templates and the environment they read. */
interface ConfigOrigins {
  templates: Templates;
  env: NodeJS.ProcessEnv;
}

const CHECK_TIMEOUT_MS = 10_000;

export async function checkModelEndpoints(
  llm: LlmConfig,
  protocols: Protocol[],
  origins: ConfigOrigins = { templates: {}, env: process.env },
  shared?: SharedChecks,
): Promise<void> {
  const all = upstreamsFromConfig(llm);
  const seen = new Set<string>();
  for (const p of protocols) {
    const u = routeFor(all, p)?.upstream; // its own, or [llm]'s translated (docs/agents.md#translation)
    if (!u || seen.has(`${u.baseUrl}\n${u.apiKey}`)) continue;
    seen.add(`${u.baseUrl}\n${u.apiKey}`);
    const from = {
      key: originOf(settingPath(llm, p, 'api_key'), origins.templates, origins.env),
      baseUrl: originOf(settingPath(llm, p, 'base_url'), origins.templates, origins.env),
    };
    // a job's cells on one endpoint ask it once (its messages name where the URL and key came from: in the key too)
    const key = `model\n${u.protocol}\n${u.baseUrl}\n${u.apiKey}\n${u.timeoutMs}\n${JSON.stringify(from)}`;
    await onceAmong(shared, key, () => checkOne(u, from));
  }
}

async function checkOne(u: Upstream, from: { key: Origin; baseUrl: Origin }): Promise<void> {
  const url = `${u.baseUrl.replace(/\/+$/, '')}/models`;
  const headers: Record<string, string> =
    u.protocol === 'messages'
      ? { 'x-api-key': u.apiKey, 'anthropic-version': '2023-06-01' }
      : u.apiKey
        ? { authorization: `Bearer ${u.apiKey}` }
        : {};
  let status: number;
  let notJson: string | null = null;
  try {
    const res = await get(url, headers, Math.min(CHECK_TIMEOUT_MS, u.timeoutMs));
    status = res.status;
    if (status >= 200 && status < 300) notJson = notJsonList(url, status, res.contentType, res.text);
  } catch (err) {
    const e = err as { name?: string; code?: string; message?: string };
    const why = e?.name === 'TimeoutError' ? `no answer within ${CHECK_TIMEOUT_MS / 1000} s` : (e?.code ?? e?.message);
    throw new BenchrigError('llm', `the model endpoint ${url} is unreachable (${why}); ${addressHint(from.baseUrl)}`);
  }
  if (status === 401 || status === 403) throw new BenchrigError('config', refusal(u, url, status, from.key));
  if (notJson)
    throw new BenchrigError(
      'config',
      `the model endpoint ${u.baseUrl} does not answer as a model API (${notJson}); ${addressHint(from.baseUrl)}`,
    );
}

/**
 * One GET on node:http(s): its status, content type and (for a 2xx) body. Not fetch: its first call
 * in a process loads Node's own copy of undici, ~25 ms of CPU on this thread at every run's start
 * (docs/performance.md, time_to_first_trial_ms). A connection error keeps its code (ECONNREFUSED).
 */
async function get(
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<{ status: number; contentType: string; text: string }> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? (await import('node:https')).default : http;
  return new Promise((resolve, reject) => {
    const req = client.get(target, { headers }, (res) => {
      const status = res.statusCode ?? 0;
      if (status < 200 || status >= 300) return void (res.resume(), resolve({ status, contentType: '', text: '' }));
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status,
          contentType: String(res.headers['content-type'] ?? ''),
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' })));
    req.on('error', reject);
  });
}

/** A 2xx model list that is not JSON (a web page at the configured address): its description; null when JSON. */
function notJsonList(url: string, status: number, contentType: string, text: string): string | null {
  try {
    const v: unknown = JSON.parse(text);
    if (v !== null && typeof v === 'object') return null;
  } catch {
    // described below
  }
  return notJsonMessage('GET', url, status, contentType, text);
}

/** Where the address came from, and what to set to change it. */
function addressHint(o: Origin): string {
  if (o.set.length) return `its address comes from ${sourceWords(o)}: check it`;
  if (o.unset.length)
    return `it is the default of ${o.key} (${o.unset.join(', ')} not set): set ${whatToSet(o)} to your endpoint, and BENCHRIG_MODEL (or --model) to its model`;
  return `check ${o.key}`;
}

/** A refused request: without a key ("… is not set"), or with one, named by where it came from. */
function refusal(u: Upstream, url: string, status: number, o: Origin): string {
  const asked = `HTTP ${status} from GET ${url}`;
  if (!u.apiKey) {
    const missing = o.unset.length
      ? `${o.unset.join(', ')} ${o.unset.length > 1 ? 'are' : 'is'} not set`
      : `${o.key} is empty`;
    return `the model endpoint ${u.baseUrl} refused a request without a key (${asked}): ${missing}. Set ${whatToSet(o)}`;
  }
  const from = o.set.length ? `from ${sourceWords(o)}` : `written in ${o.key}`;
  return `the key ${from} was refused by ${u.baseUrl} (${asked}); check ${whatToSet(o)}`;
}
