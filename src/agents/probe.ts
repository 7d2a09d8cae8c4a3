// An agent module is loaded once in the main process before anything runs, and its factory called
// once, so that one that does not compile, throws at import, exports no factory, or whose factory
// throws or returns no agent (no respond) is a usage error (exit 2, no run folder, no sandbox)
// naming the module's error and its file:line, instead of an AGENT_ERROR on every trial
// (docs/agents.md#writing-an-agent). It loads in a thread of its own, ended right after: whatever it
// does at import (process.exit, a timer, a leak) stays out of the main thread, as it would in
// processes mode; and the compiled bundle it leaves in the module cache is what the workers load next.
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BenchrigError } from '../errors.ts';
import { displayPath } from '../config/load.ts';
import { CompileError, compiledUrl, isTypeScript, withEsbuild } from '../loader/compile.mjs';
import { restoreHeapFlags } from '../loader/heap-flags.mjs';
import type { PublicSample } from '../types.ts';
import { AGENT_CONTRACT, agentProblem, type AgentShape } from './contract.ts';

const PROBE = new URL('./probe-thread.mjs', import.meta.url);
const CONTRACT = new URL('./contract.ts', import.meta.url);
const LOAD_TIMEOUT_MS = 60_000;

type Thrown = { name: string; message: string; stack: string };
type Outcome =
  | { kind: 'ok' }
  | { kind: 'agent'; shape: AgentShape }
  | { kind: 'no-factory'; exports: string[]; factoryType: string }
  | { kind: 'thrown'; thrown: Thrown }
  | { kind: 'factory-threw'; thrown: Thrown }
  | { kind: 'exited'; code: number }
  | { kind: 'timed-out' };

/**
 * What the factory is called with at the load check: a trial's context for the run's first sample,
 * whose sandbox (when the run has one) and model refuse every call (probe-thread.mjs).
 */
export interface LoadCheckContext {
  sample: PublicSample;
  options: Record<string, unknown>;
  sandbox: { image: string; workdir: string } | null;
  maxLlmCalls: number;
}

export async function checkAgentModule(
  agent: { name: string; module?: string },
  context: LoadCheckContext,
  timeoutMs = LOAD_TIMEOUT_MS,
): Promise<void> {
  if (!agent.module) return;
  const why = await problem(agent.module, context, timeoutMs);
  if (why) throw new BenchrigError('usage', `agent module ${displayPath(agent.module)} ${why}`);
}

/** What is wrong with the module, after `agent module X`, or null. */
async function problem(module: string, context: LoadCheckContext, timeoutMs: number): Promise<string | null> {
  let url: string;
  try {
    url = isTypeScript(module) ? await compiledUrl(module, { sourcemap: true }) : pathToFileURL(module).href;
  } catch (err) {
    if (err instanceof CompileError) return `cannot be loaded: ${err.message}`; // already `file:line:column: text`
    throw err;
  }
  const outcome = await probe({ url, contractUrl: await compiledUrl(CONTRACT), context }, timeoutMs);
  if (outcome.kind === 'ok') return null;
  if (outcome.kind === 'agent') {
    const wrong = agentProblem(outcome.shape);
    return wrong && `is not an agent: its factory ${wrong}; ${AGENT_CONTRACT}`;
  }
  if (outcome.kind === 'factory-threw')
    return `cannot be used: its factory threw at the load check: ${await thrownAt(outcome.thrown, module, url)}`;
  return `cannot be loaded: ${await loadProblem(outcome, module, url, timeoutMs)}`;
}

/** Why the module did not load (its import), for `cannot be loaded: …`. */
async function loadProblem(
  outcome: Exclude<Outcome, { kind: 'ok' | 'agent' | 'factory-threw' }>,
  module: string,
  url: string,
  timeoutMs: number,
): Promise<string> {
  switch (outcome.kind) {
    case 'timed-out':
      return `it did not finish loading (its import and one call of its factory) within ${Math.round(timeoutMs / 1000)} s`;
    case 'exited':
      return `it ended its process while loading (exit code ${outcome.code})`;
    case 'thrown':
      return thrownAt(outcome.thrown, module, url);
    case 'no-factory': {
      const has = outcome.exports.length ? `it exports ${outcome.exports.join(', ')}` : 'it exports nothing';
      const what = outcome.factoryType === 'undefined' ? '' : `; its factory is a ${outcome.factoryType}`;
      return `${displayPath(module)}: it must default-export a factory function or export createAgent (${has}${what})`;
    }
  }
}

/** `file:line: Name: message` of what the module or its factory threw. */
async function thrownAt({ name, message, stack }: Thrown, module: string, url: string): Promise<string> {
  const where =
    locate(stack, url) ??
    (name === 'SyntaxError' && !isTypeScript(module) ? await syntaxErrorPlace(module) : null) ??
    displayPath(module);
  return `${where}: ${name === 'Error' || !name ? '' : `${name}: `}${message}`;
}

function probe(
  data: { url: string; contractUrl: string; context: LoadCheckContext },
  timeoutMs: number,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const worker = new Worker(PROBE, { workerData: data, stdout: false, stderr: false });
    let settled = false;
    const done = (o: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      restoreHeapFlags(); // the probe thread's start reset the process's V8 flags (loader/heap-flags.mjs)
      void worker.terminate();
      resolve(o);
    };
    const timer = setTimeout(() => done({ kind: 'timed-out' }), timeoutMs);
    worker.once('message', (m: Outcome) => done(m));
    // An error the module raised later, outside its import (a rejected promise, a throwing timer).
    worker.once('error', (err) =>
      done({
        kind: 'thrown',
        thrown: { name: err?.name ?? 'Error', message: err?.message ?? String(err), stack: err?.stack ?? '' },
      }),
    );
    worker.once('exit', (code) => done({ kind: 'exited', code }));
  });
}

/**
 * The first place in a stack that is not Node's own or the probe's: the module's file:line (its
 * TypeScript line, through the bundle's source map), or where a CommonJS syntax error is.
 */
function locate(stack: string, url: string): string | null {
  const probeFile = fileURLToPath(PROBE);
  const lines = stack.split('\n');
  // V8 puts a CommonJS syntax error's place on the first line: `/x/agent.cjs:3`.
  const syntax = /^((?:file:\/\/)?\/\S*?):(\d+)$/.exec(lines[0]);
  if (syntax) return `${shortPath(syntax[1])}:${syntax[2]}`;
  for (const line of lines.slice(1)) {
    const m = /^at (?:.*? \()?((?:file:\/\/)?\/[^()]+?):(\d+):(\d+)\)?$/.exec(line.trim());
    if (!m || m[1] === url) continue;
    const file = shortPath(m[1]);
    if (file === probeFile) continue;
    return `${file}:${m[2]}:${m[3]}`;
  }
  return null;
}

/**
 * Where a JavaScript ES module's syntax error is: Node 20 and 22 leave it out of the error they
 * throw (they print it only for the entry module), so esbuild parses the file to find it.
 */
async function syntaxErrorPlace(file: string): Promise<string | null> {
  return withEsbuild(async (esbuild) => {
    try {
      await esbuild.transform(readFileSync(file, 'utf8'), {
        loader: 'js',
        format: 'esm',
        sourcefile: file,
        logLevel: 'silent',
      });
      return null;
    } catch (err) {
      const at = (err as { errors?: Array<{ location?: { line: number; column: number } | null }> }).errors?.[0]
        ?.location;
      return at ? `${displayPath(file)}:${at.line}:${at.column + 1}` : null;
    }
  });
}

const shortPath = (p: string) => displayPath(p.startsWith('file:') ? fileURLToPath(p) : p);
