// Files copied out of a sandbox into the run folder are scrubbed of the run's secrets
// (src/config/scrub-files.ts): every form, across chunk boundaries, in binary files keeping their
// length, in names, without following symlinks.
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scrubberFor } from '../../../src/config/scrub.ts';
import { scrubFile, scrubFiles } from '../../../src/config/scrub-files.ts';
import { tempDir } from '../../support/cli.ts';
import { formsIn, keyForms } from '../../support/key-forms.ts';

const KEY = 'sk-file-SECRET-4a7c9e1b';
const scrubber = scrubberFor([KEY]);

describe('scrubFiles', () => {
  it('a text file: every form of the key becomes ***, the rest is kept', async () => {
    const dir = tempDir();
    const text = Object.entries(keyForms(KEY))
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n');
    writeFileSync(join(dir, 'log.txt'), `before\n${text}\nafter\n`);
    writeFileSync(join(dir, 'clean.txt'), 'nothing here\n');
    const r = await scrubFiles(dir, scrubber);
    expect(r.files).toEqual(['log.txt']);
    const out = readFileSync(join(dir, 'log.txt'), 'utf8');
    expect(formsIn(out, KEY)).toEqual([]);
    expect(out).toMatch(/^before\nplain: \*\*\*\n[^]*after\n$/);
    expect(readFileSync(join(dir, 'clean.txt'), 'utf8')).toBe('nothing here\n');
    expect(readdirSync(dir).sort()).toEqual(['clean.txt', 'log.txt']); // no temporary file left
  });

  it('a key across the 1 MiB chunk boundary, in a file of several MiB, and an empty file', async () => {
    const dir = tempDir();
    const file = join(dir, 'big.log');
    const mib = 1024 * 1024;
    const parts = [
      Buffer.alloc(mib - 5, 'a'),
      Buffer.from(KEY),
      Buffer.alloc(2 * mib, 'b'),
      Buffer.from(Buffer.from(KEY).toString('base64')),
      Buffer.from('\n'),
    ];
    writeFileSync(file, Buffer.concat(parts));
    writeFileSync(join(dir, 'empty'), '');
    await scrubFiles(dir, scrubber);
    const out = readFileSync(file, 'latin1');
    expect(formsIn(out, KEY)).toEqual([]);
    expect(out.length).toBe(mib - 5 + 3 + 2 * mib + 3 + 1);
    expect(out.slice(mib - 5, mib - 2)).toBe('***');
    expect(readFileSync(join(dir, 'empty'), 'utf8')).toBe('');
  });

  it('a binary file (a NUL byte early on): each match becomes as many * as it had bytes', async () => {
    const dir = tempDir();
    const bytes = Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(KEY), Buffer.from([255, 0])]);
    writeFileSync(join(dir, 'blob.bin'), bytes);
    expect(await scrubFile(join(dir, 'blob.bin'), scrubber)).toBe(true);
    const out = readFileSync(join(dir, 'blob.bin'));
    expect(out.length).toBe(bytes.length);
    expect([...out.subarray(0, 3)]).toEqual([0, 1, 2]);
    expect(out.subarray(3, 3 + KEY.length).toString()).toBe('*'.repeat(KEY.length));
    expect([...out.subarray(-2)]).toEqual([255, 0]);
  });

  it('a secret with non-ASCII characters, as UTF-8 bytes and JSON-escaped', async () => {
    const secret = 'clé-secrète-ü123';
    const dir = tempDir();
    /* eslint-disable no-control-regex -- \x00-\x7f is all of ASCII: the regex matches every character outside it */
    writeFileSync(
      join(dir, 'a.json'),
      `${secret} ${JSON.stringify(secret).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}`,
    );
    /* eslint-enable no-control-regex */
    await scrubFiles(dir, scrubberFor([secret]));
    expect(readFileSync(join(dir, 'a.json'), 'utf8')).toBe('*** "***"');
  });

  it('names holding the key are renamed; folders walked; symlinks neither followed nor rewritten', async () => {
    const dir = tempDir();
    const outside = join(tempDir(), 'outside.txt');
    writeFileSync(outside, KEY);
    mkdirSync(join(dir, `sub-${KEY}`));
    writeFileSync(join(dir, `sub-${KEY}`, `${KEY}.txt`), KEY);
    symlinkSync(outside, join(dir, 'link'));
    const r = await scrubFiles(dir, scrubber);
    expect(r.renamed).toBe(2);
    expect(readdirSync(dir).sort()).toEqual(['link', 'sub-***']);
    expect(readdirSync(join(dir, 'sub-***'))).toEqual(['***.txt']);
    expect(readFileSync(join(dir, 'sub-***', '***.txt'), 'utf8')).toBe('***');
    expect(readFileSync(outside, 'utf8')).toBe(KEY);
  });

  it('no secrets: nothing read or written', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'x'), KEY);
    expect(await scrubFiles(dir, scrubberFor([]))).toEqual({ files: [], renamed: 0 });
    expect(readFileSync(join(dir, 'x'), 'utf8')).toBe(KEY);
  });
});
