// Hub datasets: the layout picker over many repositories, then the fetch against a loopback hub
// (resolution, cache, offline fallbacks, progress, and every error a user can hit).
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { BenchrigError } from '../../../src/errors.ts';
import { pickSplitFiles, splitsIn } from '../../../src/dataset/hf-layout.ts';
import { fetchHfDataset, type HfDatasetSpec, type HfProgress } from '../../../src/dataset/hf.ts';
import { startHub, type HubServer } from '../../support/hub-server.ts';
import { tempDir } from '../../support/cli.ts';
import { defined } from '../../support/defined.ts';

const pick = (paths: string[], split: string, config = 'default') =>
  pickSplitFiles(paths, { split, config, label: 'hf:acme/x' }).files;
function pickError(paths: string[], split: string, config = 'default'): string {
  try {
    pick(paths, split, config);
  } catch (err) {
    expect(err).toBeInstanceOf(BenchrigError);
    return (err as Error).message;
  }
  throw new Error('expected an error');
}

describe('pickSplitFiles', () => {
  it('takes the sharded data/<split>-NNNNN-of-NNNNN files of one split, in order', () => {
    const repo = [
      'README.md',
      '.gitattributes',
      'data/train-00001-of-00002.parquet',
      'data/train-00000-of-00002.parquet',
      'data/test-00000-of-00001.parquet',
    ];
    expect(pick(repo, 'train')).toEqual(['data/train-00000-of-00002.parquet', 'data/train-00001-of-00002.parquet']);
    expect(pick(repo, 'test')).toEqual(['data/test-00000-of-00001.parquet']);
    expect(pickError(repo, 'validation')).toBe(
      'hf:acme/x: no split "validation" for config "default" (splits found: test, train)',
    );
  });

  it('reads the parquet conversion layout <config>/<split>/*.parquet, partial splits included', () => {
    const repo = [
      'default/train/0000.parquet',
      'default/train/0001.parquet',
      'default/test/0000.parquet',
      'other/partial-train/0000.parquet',
      'SQuAD_v2/validation/0000.parquet',
    ];
    expect(pick(repo, 'train')).toEqual(['default/train/0000.parquet', 'default/train/0001.parquet']);
    expect(pick(repo, 'train', 'other')).toEqual(['other/partial-train/0000.parquet']);
    expect(pick(repo, 'validation', 'SQuAD_v2')).toEqual(['SQuAD_v2/validation/0000.parquet']);
    expect(pickError(repo, 'train', 'nope')).toBe(
      'hf:acme/x: no data files for config "nope" (configs found: SQuAD_v2, default, other)',
    );
  });

  it('reads the older conversion <config>/<dataset>-<split>.parquet, sharded or not', () => {
    expect(pick(['default/tiny-set-train.parquet', 'default/tiny-set-test.parquet'], 'test')).toEqual([
      'default/tiny-set-test.parquet',
    ]);
    const sharded = [
      'plain_text/squad-train-00000-of-00002.parquet',
      'plain_text/squad-train-00001-of-00002.parquet',
      'plain_text/squad-validation.parquet',
    ];
    expect(pick(sharded, 'train', 'plain_text')).toHaveLength(2);
    expect(splitsIn(sharded, 'plain_text')).toEqual(['train', 'validation']);
  });

  it('reads config folders <config>/<split>-*.ext and <config>/<split>.ext, never mixing configs', () => {
    const repo = ['en/train-00000-of-00001.jsonl', 'fr/train-00000.jsonl', 'fr/test.jsonl'];
    expect(pick(repo, 'test', 'fr')).toEqual(['fr/test.jsonl']);
    expect(pick(repo, 'train', 'en')).toEqual(['en/train-00000-of-00001.jsonl']);
    expect(pickError(repo, 'train')).toBe('hf:acme/x: no data files for config "default" (configs found: en, fr)');
  });

  it('reads data/<split>/*.ext folders and custom split names in data/', () => {
    expect(pick(['data/train/a.jsonl', 'data/train/more/b.jsonl', 'data/validation/x.jsonl'], 'train')).toEqual([
      'data/train/a.jsonl',
      'data/train/more/b.jsonl',
    ]);
    const custom = ['data/harmful-00000-of-00001.parquet', 'data/harmless-00000-of-00001.parquet'];
    expect(pick(custom, 'harmful')).toEqual(['data/harmful-00000-of-00001.parquet']);
    expect(pickError(custom, 'train')).toMatch(/splits found: harmful, harmless\)$/);
  });

  it('reads root files <split>.ext and <split>-*.ext, with the hub synonyms (dev = validation)', () => {
    expect(pick(['train.csv', 'test.csv', 'README.md'], 'test')).toEqual(['test.csv']);
    const repo = ['train-00000-of-00001.jsonl', 'dev.jsonl'];
    expect(pick(repo, 'validation')).toEqual(['dev.jsonl']);
    expect(pick(repo, 'train')).toEqual(['train-00000-of-00001.jsonl']);
    expect(splitsIn(repo, 'default')).toEqual(['train', 'validation']);
  });

  it('treats data files that name no split as the one "train" split', () => {
    expect(pick(['tasks.jsonl', 'README.md'], 'train')).toEqual(['tasks.jsonl']);
    expect(pickError(['tasks.jsonl'], 'test')).toMatch(/no split "test".*\(splits found: train\)$/);
  });

  it('says so when the repository has no data files at all', () => {
    expect(pickError(['README.md', 'script.py', '.hidden/train.jsonl'], 'train')).toMatch(
      /hf:acme\/x: no data files \(\.parquet \.jsonl/,
    );
  });
});

describe('fetchHfDataset against a loopback hub', () => {
  let hub: HubServer;
  afterEach(async () => hub?.close());

  const spec = (over: Partial<HfDatasetSpec> = {}): HfDatasetSpec => ({
    repo: 'acme/tiny',
    split: 'train',
    config: 'default',
    revision: 'main',
    ...over,
  });
  const env = (cache: string, extra: Record<string, string> = {}) => ({
    HF_ENDPOINT: hub.url,
    BENCHRIG_CACHE: cache,
    ...extra,
  });
  async function fails(p: Promise<unknown>): Promise<string> {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BenchrigError);
    return (err as Error).message;
  }

  it('resolves a branch, downloads the split into the cache, and serves a pinned commit with no request', async () => {
    hub = await startHub();
    const commit = hub.publish('acme/tiny', {
      'README.md': '# tiny',
      'data/train-00000-of-00002.jsonl': '{"id":1,"input":"a"}\n',
      'data/train-00001-of-00002.jsonl': '{"id":2,"input":"b"}\n',
      'data/test-00000-of-00001.jsonl': '{"id":3,"input":"c"}\n',
    });
    const cache = tempDir();
    const got = await fetchHfDataset(spec(), { env: env(cache) });
    expect(got.commit).toBe(commit);
    expect(got.files.map((f) => f.path)).toEqual([
      'data/train-00000-of-00002.jsonl',
      'data/train-00001-of-00002.jsonl',
    ]);
    expect(got.files.map((f) => readFileSync(f.localPath, 'utf8'))).toEqual([
      '{"id":1,"input":"a"}\n',
      '{"id":2,"input":"b"}\n',
    ]);
    for (const f of got.files) expect(f.localPath.startsWith(cache)).toBe(true);
    expect(hub.requests.some((r) => r.url.includes('cursor='))).toBe(true); // the listing was paginated

    const before = hub.requests.length;
    const again = await fetchHfDataset(spec({ revision: commit }), { env: env(cache) });
    expect(again.files).toEqual(got.files);
    expect(hub.requests.length).toBe(before);
  });

  it('falls back to the cached resolution of a branch when the hub is down, and says so', async () => {
    hub = await startHub();
    const commit = hub.publish('acme/tiny', { 'train.jsonl': '{"id":1,"input":"a"}\n' });
    const cache = tempDir();
    await fetchHfDataset(spec(), { env: env(cache) });
    const e = env(cache);
    await hub.close();
    const notices: string[] = [];
    const got = await fetchHfDataset(spec(), { env: e, onNotice: (m) => notices.push(m) });
    expect(got.commit).toBe(commit);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      new RegExp(`hf:acme/tiny: the hub at .* is unreachable .*using the cached resolution of "main" -> ${commit}`),
    );
    // a branch never resolved before has nothing to fall back to
    expect(await fails(fetchHfDataset(spec({ revision: 'v2' }), { env: e }))).toMatch(
      /hf:acme\/tiny: the hub at http:\/\/127\.0\.0\.1:\d+ is unreachable \(.*ECONNREFUSED.*\) and revision "v2" is not cached/,
    );
  });

  it('reads the parquet conversion on refs/convert/parquet and a tag', async () => {
    hub = await startHub();
    hub.publish('acme/tiny', { 'script.py': 'print(1)' });
    const converted = hub.publish(
      'acme/tiny',
      { 'default/train/0000.parquet': 'PAR1', 'default/test/0000.parquet': 'PAR1' },
      { branch: 'refs/convert/parquet', tag: 'v1' },
    );
    const cache = tempDir();
    const got = await fetchHfDataset(spec({ revision: 'refs/convert/parquet', split: 'test' }), { env: env(cache) });
    expect(got).toMatchObject({ commit: converted, files: [{ path: 'default/test/0000.parquet' }] });
    expect((await fetchHfDataset(spec({ revision: 'v1' }), { env: env(cache) })).commit).toBe(converted);
  });

  it('reports progress every few MB of a large file', async () => {
    hub = await startHub();
    const line = JSON.stringify({ id: 0, input: 'x'.repeat(1000) }) + '\n';
    const big = line.repeat(Math.ceil((9 * 1024 * 1024) / line.length));
    hub.publish('acme/tiny', { 'data/train.jsonl': big });
    const seen: HfProgress[] = [];
    await fetchHfDataset(spec(), { env: env(tempDir()), onProgress: (p) => seen.push(p) });
    expect(seen.length).toBeGreaterThanOrEqual(3); // 4 MB, 8 MB, done
    expect(seen.every((p) => p.total === big.length && p.path === 'data/train.jsonl')).toBe(true);
    expect(defined(seen.at(-1)).received).toBe(big.length);
    expect(seen.map((p) => p.received)).toEqual([...seen.map((p) => p.received)].sort((a, b) => a - b));
  });

  it('names a missing repository, revision or split, and an unreachable hub with nothing cached', async () => {
    hub = await startHub();
    hub.publish('acme/tiny', {
      'data/train-00000-of-00001.csv': 'id,input\n1,a\n',
      'data/test-00000-of-00001.csv': 'id,input\n2,b\n',
    });
    const e = env(tempDir());
    expect(await fails(fetchHfDataset(spec({ repo: 'acme/nope' }), { env: e }))).toBe(
      `hf:acme/nope: dataset repository not found at ${hub.url} (HTTP 404)`,
    );
    expect(await fails(fetchHfDataset(spec({ revision: 'v9' }), { env: e }))).toBe(
      'hf:acme/tiny: revision "v9" not found (give a branch, tag or commit of the dataset)',
    );
    expect(await fails(fetchHfDataset(spec({ split: 'dev2' }), { env: e }))).toMatch(
      /^hf:acme\/tiny@[0-9a-f]{7}: no split "dev2" for config "default" \(splits found: test, train\)$/,
    );
    const url = hub.url;
    await hub.close();
    expect(
      await fails(fetchHfDataset(spec({ revision: 'a'.repeat(40) }), { env: { ...e, HF_ENDPOINT: url } })),
    ).toMatch(/is unreachable .* and revision "a{40}" is not cached/);
  });

  it('names HF_TOKEN when the hub rejects it or it is missing, and never prints it', async () => {
    hub = await startHub({ token: 'hf_right' });
    hub.publish('acme/tiny', { 'train.jsonl': '{"id":1,"input":"a"}\n' });
    const cache = tempDir();
    const wrong = await fails(fetchHfDataset(spec(), { env: env(cache, { HF_TOKEN: 'hf_wrong_secret' }) }));
    expect(wrong).toMatch(/HF_TOKEN is rejected by the hub at .* \(HTTP 401\)/);
    expect(wrong).not.toContain('hf_wrong_secret');
    expect(await fails(fetchHfDataset(spec(), { env: env(cache) }))).toMatch(
      /refused access \(HTTP 401\).*set HF_TOKEN/,
    );
    const malformed = await fails(fetchHfDataset(spec(), { env: env(cache, { HF_TOKEN: 'not-a-token-secret' }) }));
    expect(malformed).toMatch(/HF_TOKEN is rejected: a Hugging Face token starts with "hf_"/);
    expect(malformed).not.toContain('not-a-token-secret');
    const ok = await fetchHfDataset(spec(), { env: env(cache, { HF_TOKEN: 'hf_right' }) });
    expect(existsSync(ok.files[0].localPath)).toBe(true);
    expect(defined(hub.requests.filter((r) => !r.url.startsWith('/cdn/')).at(-1)).authorization).toBe(
      'Bearer hf_right',
    );
  });
});
