// `[sandbox] disk` in the configuration: its default and the message for a bad value.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/load.ts';
import { tempDir } from '../../support/cli.ts';

const dir = tempDir('benchrig-cfg-disk-');
let n = 0;
function toml(text: string): string {
  const file = path.join(dir, `layer-${++n}.toml`);
  writeFileSync(file, text);
  return file;
}

describe('[sandbox] disk', () => {
  it('defaults to 10g and takes a size', async () => {
    expect((await resolveConfig({ env: {}, configFile: toml('[sandbox]\nimage = "x"\n') })).config.sandbox?.disk).toBe(
      '10g',
    );
    expect(
      (await resolveConfig({ env: {}, configFile: toml('[sandbox]\nimage = "x"\ndisk = "2g"\n') })).config.sandbox
        ?.disk,
    ).toBe('2g');
  });

  it.each([['"lots"'], ['"0"'], ['20']])('refuses disk = %s, naming the file and the key', async (value) => {
    const file = toml(`[sandbox]\nimage = "x"\ndisk = ${value}\n`);
    const err = await resolveConfig({ env: {}, configFile: file }).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(new RegExp(`^${file.replace(/[.]/g, '\\.')}: key sandbox\\.disk: `));
  });
});
