import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunDir, redact, safeName, timestamp } from '../../../src/run/run-dir.ts';
import { expandTrials } from '../../../src/run/trials.ts';
import { tempDir } from '../../support/cli.ts';

describe('run folders', () => {
  it('names a run by its timestamp and suffixes a taken one instead of mixing two runs', async () => {
    const root = tempDir();
    const at = new Date(2026, 10, 29, 9, 5, 7);
    expect(timestamp(at)).toBe('20261129-090507');
    const a = await createRunDir(root, 'my agent', 'bench/x', at);
    const b = await createRunDir(root, 'my agent', 'bench/x', at);
    expect(a).toBe(join(root, 'my_agent', 'bench_x', '20261129-090507'));
    expect(b).toBe(`${a}-2`);
    expect(existsSync(join(b, 'results'))).toBe(true);
  });

  it('makes ids file-safe and keeps two ids that differ only in unsafe characters apart', () => {
    expect(safeName('../etc/passwd')).toBe('__etc_passwd');
    const trials = expandTrials(
      [
        { id: 'a/b', input: 'x', metadata: {} },
        { id: 'a:b', input: 'y', metadata: {} },
      ],
      2,
    );
    expect(trials.map((t) => t.taskId)).toEqual(['a_b-t1', 'a_b-t2', 'a_b~2-t1', 'a_b~2-t2']);
  });

  it('strips credentials and secret-looking query parameters from URLs', () => {
    const out = redact({ url: 'https://user:tok@agents.example/run?api_key=k1&mode=fast', plain: 'not a url' });
    expect(out.url).not.toMatch(/tok|k1|user/);
    expect(out.url).toMatch(/^https:\/\/agents\.example\/run\?api_key=.*redacted.*&mode=fast$/);
    expect(out.plain).toBe('not a url');
  });

  it('redacts secret-looking option keys at any depth', () => {
    expect(
      redact({
        url: 'http://x',
        api_key: 'sk-1',
        headers: { Authorization: 'Bearer sk-2', Accept: 'json' },
        list: [{ token: 't' }],
      }),
    ).toEqual({
      url: 'http://x',
      api_key: '[redacted]',
      headers: { Authorization: '[redacted]', Accept: 'json' },
      list: [{ token: '[redacted]' }],
    });
  });
});
