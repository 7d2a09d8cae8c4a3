// A worker thread's one collection after its boot (src/worker/collect.ts): what is garbage by then is
// freed, and no context made afterwards (an agent's vm, a later thread) finds `gc` exposed.
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectBootGarbage } from '../../../src/worker/collect.ts';

describe('collectBootGarbage', () => {
  it('frees what is garbage now, and leaves gc exposed nowhere', async () => {
    let boot: object | null = { modules: new Array(100_000).fill('loaded') };
    const ref = new WeakRef(boot);
    boot = null;
    await new Promise((ok) => setImmediate(ok)); // a WeakRef's target lives until the end of its job
    collectBootGarbage();
    expect(ref.deref()).toBeUndefined();
    expect(vm.runInNewContext('typeof gc')).toBe('undefined');
  });
});
