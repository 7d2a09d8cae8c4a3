// A loopback Hugging Face hub for tests: the endpoints @huggingface/hub calls for datasetInfo,
// listFiles and downloadFile (read from its source), serving repositories the tests publish.
//
//   GET  /api/datasets/{owner}/{name}/revision/{rev}          repository info with the commit `sha`
//   GET  /api/datasets/{owner}/{name}/tree/{rev}[/{path}]     file listing, paginated with a Link header
//   GET  /datasets/{owner}/{name}/resolve/{rev}/{path}        302 to /cdn/<sha256> on the same server
//   GET|HEAD /cdn/<sha256>                                    the bytes, honouring Range with 206
//
// A required token answers 401 without it (the CDN path is "signed" and needs none), every request
// is logged so a test can assert that a cached run made none, and close() drops live connections.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defined } from './defined.ts';

export interface HubRequest {
  method: string;
  url: string;
  authorization: string | null;
}

export interface PublishOptions {
  /** Branch to move to the new commit (default "main"); e.g. "refs/convert/parquet". */
  branch?: string;
  /** Also tag the commit. */
  tag?: string;
}

export interface HubServer {
  url: string;
  requests: HubRequest[];
  /** Publish a snapshot of files as a new commit of a dataset repository; returns the commit sha. */
  publish(repo: string, files: Record<string, string | Uint8Array>, opts?: PublishOptions): string;
  /** Require `Authorization: Bearer <token>` from now on (null: no token needed). */
  requireToken(token: string | null): void;
  close(): Promise<void>;
}

interface Repo {
  refs: Map<string, string>; // branch or tag -> commit
  commits: Map<string, Map<string, Buffer>>; // commit -> path -> content
}

const sha = (algo: 'sha1' | 'sha256', data: string | Buffer) => createHash(algo).update(data).digest('hex');

export async function startHub(opts: { token?: string; pageSize?: number } = {}): Promise<HubServer> {
  const repos = new Map<string, Repo>();
  const blobs = new Map<string, Buffer>(); // sha256 -> content (the "CDN")
  const requests: HubRequest[] = [];
  let token = opts.token ?? null;
  const pageSize = opts.pageSize ?? 2; // small, so every listing exercises pagination
  let base = '';
  let serial = 0;

  const server = createServer((req, res) => {
    requests.push({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      authorization: req.headers.authorization ?? null,
    });
    try {
      handle(req, res);
    } catch (err) {
      send(res, 500, { error: String(err) });
    }
  });

  function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', base);
    const parts = url.pathname.split('/').slice(1);
    if (parts[0] === 'cdn') return serveBlob(req, res, parts[1]);
    if (token !== null && req.headers.authorization !== `Bearer ${token}`) {
      return send(res, 401, {
        error: req.headers.authorization ? 'Invalid credentials in Authorization header' : 'Unauthorized',
      });
    }
    if (parts[0] === 'api' && parts[1] === 'datasets') {
      const repo = repos.get(`${parts[2]}/${parts[3]}`);
      if (!repo) return send(res, 404, { error: 'Repository not found' }, { 'X-Error-Code': 'RepoNotFound' });
      if (parts[4] === 'revision') {
        const rev = decodeURIComponent(parts.slice(5).join('/'));
        const at = resolve(repo, rev);
        if (!at) return send(res, 404, { error: `Invalid rev id: ${rev}` }, { 'X-Error-Code': 'RevisionNotFound' });
        return send(res, 200, {
          _id: sha('sha1', `${parts[2]}/${parts[3]}`).slice(0, 24),
          id: `${parts[2]}/${parts[3]}`,
          sha: at.commit,
          private: token !== null,
          gated: false,
          downloads: 0,
          likes: 0,
          lastModified: new Date(0).toISOString(),
          siblings: [...at.files.keys()].map((rfilename) => ({ rfilename })),
        });
      }
      if (parts[4] === 'tree') return serveTree(res, url, repo, decodeURIComponent(parts.slice(5).join('/')));
    }
    if (parts[0] === 'datasets' && parts[3] === 'resolve') {
      const repo = repos.get(`${parts[1]}/${parts[2]}`);
      if (!repo) return send(res, 404, { error: 'Repository not found' }, { 'X-Error-Code': 'RepoNotFound' });
      const at = resolve(repo, decodeURIComponent(parts[4]));
      if (!at) return send(res, 404, { error: 'Revision not found' }, { 'X-Error-Code': 'RevisionNotFound' });
      const content = at.files.get(decodeURIComponent(parts.slice(5).join('/')));
      if (!content) return send(res, 404, { error: 'Entry not found' }, { 'X-Error-Code': 'EntryNotFound' });
      const digest = sha('sha256', content);
      res.writeHead(302, {
        Location: `${base}/cdn/${digest}`,
        'X-Linked-Size': String(content.length),
        'X-Linked-ETag': `"${digest}"`,
        'X-Repo-Commit': at.commit,
      });
      return res.end();
    }
    send(res, 404, { error: `no route for ${req.method} ${url.pathname}` });
  }

  /** A branch, tag or full commit ("HEAD" is main): the commit and its files. */
  function resolve(repo: Repo, rev: string): { commit: string; files: Map<string, Buffer> } | undefined {
    if (rev === 'HEAD') rev = 'main';
    const commit = repo.refs.get(rev) ?? rev;
    const files = repo.commits.get(commit);
    return files && { commit, files };
  }

  function serveTree(res: ServerResponse, url: URL, repo: Repo, rest: string) {
    // listFiles does not encode the revision, so "refs/convert/parquet/x" is revision + path.
    const revs = [...repo.refs.keys(), ...repo.commits.keys()].sort((a, b) => b.length - a.length);
    const rev = revs.find((r) => rest === r || rest.startsWith(`${r}/`));
    if (!rev)
      return send(res, 404, { error: `Invalid rev id: ${rest.split('/')[0]}` }, { 'X-Error-Code': 'RevisionNotFound' });
    const folder = rest.slice(rev.length + 1);
    const { files } = defined(resolve(repo, rev), 'listed revision');
    const recursive = url.searchParams.get('recursive') === 'true';
    const entries = new Map<string, object>();
    for (const [p, content] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (folder && !p.startsWith(`${folder}/`)) continue;
      const segs = p.slice(folder ? folder.length + 1 : 0).split('/');
      const prefix = folder ? `${folder}/` : '';
      for (let i = 1; i < segs.length && (recursive || i === 1); i++) {
        const dir = prefix + segs.slice(0, i).join('/');
        entries.set(dir, { type: 'directory', oid: sha('sha1', dir), size: 0, path: dir });
      }
      if (!recursive && segs.length > 1) continue;
      const lfs = p.endsWith('.parquet')
        ? { lfs: { oid: sha('sha256', content), size: content.length, pointerSize: 134 } }
        : {};
      entries.set(p, { type: 'file', oid: sha('sha1', content), size: content.length, path: p, ...lfs });
    }
    const all = [...entries.values()];
    const cursor = Number(url.searchParams.get('cursor') ?? 0);
    const page = all.slice(cursor, cursor + pageSize);
    const headers: Record<string, string> = {};
    if (cursor + pageSize < all.length) {
      const next = new URL(url);
      next.searchParams.set('cursor', String(cursor + pageSize));
      headers.Link = `<${next.href}>; rel="next"`;
    }
    send(res, 200, page, headers);
  }

  function serveBlob(req: IncomingMessage, res: ServerResponse, digest: string) {
    const content = blobs.get(digest);
    if (!content) return send(res, 404, { error: 'NoSuchKey' });
    const headers = { ETag: `"${digest}"`, 'Accept-Ranges': 'bytes', 'Content-Type': 'application/octet-stream' };
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    let body = content;
    if (range) {
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), content.length - 1) : content.length - 1;
      if (start >= content.length) {
        res.writeHead(416, { 'Content-Range': `bytes */${content.length}` });
        return res.end();
      }
      body = content.subarray(start, end + 1);
      res.writeHead(206, {
        ...headers,
        'Content-Range': `bytes ${start}-${end}/${content.length}`,
        'Content-Length': String(body.length),
      });
    } else {
      res.writeHead(200, { ...headers, 'Content-Length': String(body.length) });
    }
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }

  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    requests,
    publish(name, files, o = {}) {
      const repo = repos.get(name) ?? { refs: new Map(), commits: new Map() };
      repos.set(name, repo);
      const snapshot = new Map<string, Buffer>();
      const h = createHash('sha1').update(`${name}\n${serial++}\n`);
      for (const [p, content] of Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1))) {
        const buf = Buffer.from(content);
        snapshot.set(p, buf);
        blobs.set(sha('sha256', buf), buf);
        h.update(`${p}\n${sha('sha256', buf)}\n`);
      }
      const commit = h.digest('hex');
      repo.commits.set(commit, snapshot);
      repo.refs.set(o.branch ?? 'main', commit);
      if (o.tag) repo.refs.set(o.tag, commit);
      return commit;
    },
    requireToken(t) {
      token = t;
    },
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}
