import { describe, expect, it } from 'vitest';
import { checkedImageRef, imagePathName, imageRefProblem } from '../../../src/sandbox/image-ref.ts';

describe('image references (Docker reference grammar)', () => {
  it.each([
    'busybox',
    'benchrig/busybox:1',
    'ghcr.io/org/team/image:v1.2-rc_3',
    'localhost:5000/x',
    '127.0.0.1:19999/x',
    '[::1]:5000/x:latest',
    'swebench/sweb.eval.x86_64.django__django-11099:latest',
    `alpine@sha256:${'a'.repeat(64)}`,
    `registry.example.com/a/b:tag@sha256:${'0'.repeat(64)}`,
  ])('accepts %s', (ref) => {
    expect(imageRefProblem(ref)).toBeNull();
  });

  it.each([
    ['../../127.0.0.1:19999/x', /not a valid image reference/],
    ['../../nonexistent-host', /not a valid image reference/],
    ['/busybox', /not a valid image reference/],
    ['a/../b', /not a valid image reference/],
    ['benchrig/BusyBox:1', /repository names are lowercase/],
    ['busybox:', /not a valid image reference/],
    ['busybox:1?x=y', /not a valid image reference/],
    ['busybox#frag', /not a valid image reference/],
    ['busy box', /not a valid image reference/],
    ['busybox@sha256:abc', /not a valid image reference/],
    ['-busybox', /not a valid image reference/],
    [`x:${'a'.repeat(129)}`, /not a valid image reference/],
    ['', /is empty/],
  ])('refuses %s', (ref, message) => {
    expect(imageRefProblem(ref)).toMatch(message);
  });

  it('refuses a name over 255 characters', () => {
    expect(imageRefProblem(`${'a'.repeat(250)}/bcdef`)).toMatch(/longer than 255/);
  });

  it('names whose reference it is, and encodes a valid one for an API path', () => {
    expect(() => checkedImageRef('../x', 'tasks.jsonl:3')).toThrow(
      /^tasks\.jsonl:3: "\.\.\/x" is not a valid image reference/,
    );
    expect(imagePathName('localhost:5000/a/b:1')).toBe('localhost%3A5000%2Fa%2Fb%3A1');
  });
});
