// `benchrig view DIR`: serves a run folder's report.html, or, for a folder of runs (an evals/
// tree), a run list from which one run opens (its report.html) or several (the comparison page),
// plus each agent/benchmark folder's history. Loopback only, GET only; a request names runs by
// their number in the list, never by path, so nothing outside the listed runs can be read. Only
// requests addressed to this server by a loopback name are answered: a web page whose name
// resolves to 127.0.0.1 (DNS rebinding) sends its own name as Host and is refused.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import { basename, join, relative } from 'node:path';
import { BenchrigError } from '../errors.ts';
import { COMPARE_CSP, renderCompareHtml } from '../report/compare-html.ts';
import { history } from '../report/history.ts';
import { renderHistoryHtml } from '../report/history-html.ts';
import { cspFor, HISTORY_JS, INDEX_JS } from '../report/html-assets.ts';
import { clipFor, PAGE_FULL_TRIALS, pageTrial, REPORT_CSP, writeHtmlReport } from '../report/html.ts';
import { indexRuns, isRunFolder, renderIndexHtml, type RunIndex } from '../report/run-index.ts';
import { loadRun, readTrialFile } from './load-run.ts';

const MAX_COMPARED = 12;

/** A Host header that names this server: localhost, 127.0.0.1 or [::1], with its port (or none on port 80). */
function isLoopbackHost(host: string | undefined, port: number): boolean {
  const m = /^(localhost|127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?$/i.exec(host ?? '');
  return !!m && Number(m[2] ?? 80) === port;
}

function send(res: ServerResponse, head: boolean, status: number, body: string | Buffer, csp?: string): void {
  const headers: Record<string, string> = {
    'content-type': csp ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
  if (csp) headers['content-security-policy'] = csp;
  res.writeHead(status, headers);
  res.end(head ? undefined : body);
}

/** A run's report.html, written into its folder when missing (as `view RUN_DIR` always did). */
async function reportFile(dir: string, say: (s: string) => void): Promise<string> {
  const file = join(dir, 'report.html');
  if (!existsSync(file)) {
    const run = await loadRun(dir);
    await writeHtmlReport(dir, run.report);
    say(`wrote ${file}`);
  }
  return file;
}

/**
 * One trial as a large run's report.html shows it (its page holds a selection: html.ts
 * pageBudgetFor), by task id alone: the id is a file name, never a path.
 */
async function sendTrial(res: ServerResponse, head: boolean, dir: string, id: string | null): Promise<void> {
  const r = id ? await readTrialFile(dir, id) : null;
  if (!r) return send(res, head, 404, 'no such trial\n');
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  });
  res.end(head ? undefined : JSON.stringify(pageTrial(r, clipFor(PAGE_FULL_TRIALS))));
}

interface ViewOptions {
  port: number;
  print: (s: string) => void;
  say: (s: string) => void;
}

// eslint-disable-next-line max-lines-per-function -- the server's routes share its folder, port and Host check; split into a router next (issue #22 follow-up)
export async function serveView(dir: string, opts: ViewOptions): Promise<void> {
  const single = await isRunFolder(dir);
  let index: RunIndex | null = null;
  if (single) await reportFile(dir, opts.say);
  else {
    index = await indexRuns(dir);
    if (index.runs.length === 0)
      throw new BenchrigError(
        'usage',
        `${dir}: no runs here (expected a run folder or a folder of them, such as evals/)`,
      );
  }

  const route = async (path: string, query: URLSearchParams, res: ServerResponse, head: boolean) => {
    if (single) {
      if (path === '/trial.json') return sendTrial(res, head, dir, query.get('id'));
      if (path !== '/' && path !== '/report.html') return send(res, head, 404, 'not found\n');
      return send(res, head, 200, await readFile(join(dir, 'report.html')), REPORT_CSP);
    }
    if (path === '/') {
      index = await indexRuns(dir); // a run finished since the last look shows up
      return send(res, head, 200, renderIndexHtml(index), cspFor(INDEX_JS));
    }
    // Not a single run folder: the index was made at the start, and is remade at each look at '/'.
    if (!index) throw new Error('internal: the viewer of a folder of runs has no index');
    const runs = index.runs;
    let m = /^\/run\/(\d+)\/trial\.json$/.exec(path);
    if (m) {
      const run = runs[Number(m[1])];
      return run ? sendTrial(res, head, run.dir, query.get('id')) : send(res, head, 404, 'no such run\n');
    }
    m = /^\/run\/(\d+)\/(report\.html)?$/.exec(path);
    if (m) {
      const run = runs[Number(m[1])];
      if (!run) return send(res, head, 404, 'no such run\n');
      return send(res, head, 200, await readFile(await reportFile(run.dir, opts.say)), REPORT_CSP);
    }
    if (path === '/compare') {
      const ids = (query.get('runs') ?? '').split(',').filter(Boolean);
      const picked = ids.map((id) => (/^\d+$/.test(id) ? runs[Number(id)] : undefined));
      const found = picked.filter((r) => r !== undefined);
      if (picked.length < 2 || picked.length > MAX_COMPARED || found.length < picked.length)
        return send(
          res,
          head,
          400,
          `compare takes 2 to ${MAX_COMPARED} run numbers from the list, e.g. /compare?runs=0,1\n`,
        );
      const loaded = await Promise.all(found.map((r) => loadRun(r.dir)));
      const html = await renderCompareHtml(loaded.map((l) => ({ report: l.report, results: l.results })));
      return send(res, head, 200, html, COMPARE_CSP);
    }
    m = /^\/history\/(\d+)\/$/.exec(path);
    if (m) {
      const folder = index.groups[Number(m[1])];
      if (!folder) return send(res, head, 404, 'no such folder\n');
      const rows = await history(folder);
      return send(
        res,
        head,
        200,
        renderHistoryHtml(relative(dir, folder) || basename(folder), rows),
        cspFor(HISTORY_JS),
      );
    }
    return send(res, head, 404, 'not found\n');
  };

  let port = opts.port;
  const server = createServer((req, res) => {
    if (!isLoopbackHost(req.headers.host, port))
      return send(
        res,
        req.method === 'HEAD',
        421,
        `this viewer answers only http://127.0.0.1:${port}/ or http://localhost:${port}/\n`,
      );
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    route(url.pathname, url.searchParams, res, req.method === 'HEAD').catch((err: unknown) => {
      // a broken run folder is the user's to fix: say which file and key, as `benchrig report` does
      const msg = err instanceof BenchrigError ? err.message : 'the page could not be made';
      if (!res.headersSent) send(res, false, err instanceof BenchrigError ? 422 : 500, `${msg}\n`);
      else res.end();
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      fail(err.code === 'EADDRINUSE' ? new BenchrigError('usage', `--port ${opts.port}: address already in use`) : err),
    );
    server.listen(opts.port, '127.0.0.1', () => ok());
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : opts.port; // --port 0: the one given
  opts.print(
    `serving ${index ? `${index.runs.length} run(s) under ${dir}` : join(dir, 'report.html')}\n  http://127.0.0.1:${port}/   (Ctrl-C to stop)`,
  );
  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      server.close(() => done());
      server.closeAllConnections();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
