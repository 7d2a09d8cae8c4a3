import { describe, expect, it } from 'vitest';
import { BoundedCapture, Demuxer } from '../../../../src/sandbox/docker/exec.ts';

const frame = (stream: number, text: string) => {
  const body = Buffer.from(text);
  const head = Buffer.alloc(8);
  head[0] = stream;
  head.writeUInt32BE(body.length, 4);
  return Buffer.concat([head, body]);
};

describe('Demuxer', () => {
  it('separates stdout and stderr frames even when split across chunks', () => {
    const got: Record<number, string> = { 1: '', 2: '' };
    const d = new Demuxer((s, data) => (got[s] += data.toString()));
    const all = Buffer.concat([frame(1, 'out one\n'), frame(2, 'err\n'), frame(1, 'out two\n')]);
    for (let i = 0; i < all.length; i += 3) d.write(all.subarray(i, i + 3)); // 3-byte chunks cut headers too
    expect(got[1]).toBe('out one\nout two\n');
    expect(got[2]).toBe('err\n');
  });
});

describe('BoundedCapture', () => {
  it('keeps everything under the limit, untruncated', () => {
    const c = new BoundedCapture(100);
    c.push(Buffer.from('hello '));
    c.push(Buffer.from('world'));
    expect(c.text()).toBe('hello world');
    expect(c.truncated).toBe(false);
  });

  it('keeps head and tail with a marker counting the dropped bytes', () => {
    const c = new BoundedCapture(10);
    for (let i = 0; i < 100; i++) c.push(Buffer.from(String(i % 10))); // "0123456789" x 10
    expect(c.truncated).toBe(true);
    expect(c.text()).toBe('01234\n[... 90 bytes truncated ...]\n56789');
  });

  it('stays bounded when fed large chunks', () => {
    const c = new BoundedCapture(1000);
    for (let i = 0; i < 200; i++) c.push(Buffer.alloc(64 * 1024, i % 2 ? 'a' : 'b'));
    const text = c.text();
    expect(text.length).toBeLessThan(1100);
    expect(text.startsWith('b'.repeat(500))).toBe(true);
    expect(text.endsWith('a'.repeat(500))).toBe(true);
    expect(text).toContain(`[... ${200 * 64 * 1024 - 1000} bytes truncated ...]`);
  });

  it('does not split a multi-byte character at the head/tail seam when nothing was dropped', () => {
    const c = new BoundedCapture(6);
    c.push(Buffer.from('aa€a')); // 6 bytes: the euro sign straddles head (3) and tail (3)
    expect(c.text()).toBe('aa€a');
  });
});
