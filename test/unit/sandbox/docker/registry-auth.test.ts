// The Docker config file's credentials for a registry (docs/sandboxes.md#images-from-registries): which
// registry an image names, which `auths` key matches it, and what a broken file or entry says.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BenchrigError } from '../../../../src/errors.ts';
import {
  dockerConfigPath,
  registryAuth,
  registryKey,
  registryOf,
} from '../../../../src/sandbox/docker/registry-auth.ts';
import { tempDir } from '../../../support/cli.ts';

const withConfig = (config: unknown) => {
  const dir = tempDir('benchrig-dockercfg-');
  writeFileSync(join(dir, 'config.json'), typeof config === 'string' ? config : JSON.stringify(config));
  return { DOCKER_CONFIG: dir };
};

describe('registry-auth', () => {
  it("names an image's registry by Docker's rule", () => {
    expect(registryOf('127.0.0.1:5000/a/b:1')).toBe('127.0.0.1:5000');
    expect(registryOf('ghcr.io/acme/env:3')).toBe('ghcr.io');
    expect(registryOf('localhost/x')).toBe('localhost');
    expect(registryOf('swebench/sweb.eval.x86_64.django_1776_django-11099:latest')).toBe('docker.io');
    expect(registryOf('busybox')).toBe('docker.io');
    expect(registryKey('https://index.docker.io/v1/')).toBe('docker.io');
    expect(registryKey('http://127.0.0.1:5000/v2/')).toBe('127.0.0.1:5000');
  });

  it('reads auths as docker login writes them: base64 user:password, or an identity token', async () => {
    const env = withConfig({
      auths: {
        'https://index.docker.io/v1/': { auth: Buffer.from('hub-user:hub:pass').toString('base64') },
        'ghcr.io': { identitytoken: 'tok' },
      },
    });
    expect((await registryAuth('swebench/x:1', env)).auth).toEqual({
      username: 'hub-user',
      password: 'hub:pass',
      serveraddress: 'https://index.docker.io/v1/',
    });
    expect((await registryAuth('ghcr.io/a/b', env)).auth).toEqual({ identitytoken: 'tok', serveraddress: 'ghcr.io' });
    const none = await registryAuth('quay.io/a/b', env);
    expect(none.auth).toBeUndefined();
    expect(none.source).toBe(dockerConfigPath(env));
  });

  it('no file is no credentials; a broken file or entry is refused naming it, without its content', async () => {
    expect((await registryAuth('ghcr.io/a', { DOCKER_CONFIG: tempDir() })).auth).toBeUndefined();
    const bad = withConfig('{"auths": ');
    await expect(registryAuth('ghcr.io/a', bad)).rejects.toThrow(
      new BenchrigError(
        'config',
        `${join(bad.DOCKER_CONFIG, 'config.json')} is not a JSON object (the Docker config file): correct it or set DOCKER_CONFIG`,
      ),
    );
    const entry = withConfig({ auths: { 'ghcr.io': { auth: Buffer.from('no-colon-secret').toString('base64') } } });
    const err = await registryAuth('ghcr.io/a', entry).then(
      () => new Error('accepted'),
      (e: unknown) => e as Error,
    );
    expect(err).toBeInstanceOf(BenchrigError);
    expect(err.message).toMatch(/auths "ghcr\.io"\): "auth" is not base64 of user:password; run docker login ghcr\.io/);
    expect(err.message).not.toContain('no-colon-secret');
  });
});
