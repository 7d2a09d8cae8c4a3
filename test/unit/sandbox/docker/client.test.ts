import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../../../../src/errors.ts';
import { docker, freshClient, withDeadline } from '../../../../src/sandbox/docker/client.ts';
import { defined } from '../../../support/defined.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

describe('withDeadline', () => {
  it('turns a call that never answers into a SandboxError naming it', async () => {
    const never = new Promise<void>(() => {});
    await expect(withDeadline(never, 50, 'list containers')).rejects.toThrow(SandboxError);
    await expect(withDeadline(never, 50, 'list containers')).rejects.toThrow(/within 50 ms: list containers/);
  });
  it('passes a value through', async () => {
    await expect(withDeadline(Promise.resolve(7), 1000, 'x')).resolves.toBe(7);
  });
});

describe('checkDocker', () => {
  it('names the endpoint and says how to start or install Docker when it is unreachable', async () => {
    const script = `
      import { checkDocker } from ${JSON.stringify(path.join(repo, 'src/sandbox/docker/client.ts'))};
      try { await checkDocker(); console.log('reachable'); }
      catch (e) { console.log(JSON.stringify({ kind: e.kind, message: e.message })); }`;
    const res = await execa(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: repo,
      env: { DOCKER_HOST: 'unix:///nonexistent/docker.sock' },
      reject: false,
    });
    const out = JSON.parse(defined(res.stdout.trim().split('\n').pop()));
    expect(out.kind).toBe('docker_unavailable');
    expect(out.message).toContain('Docker is not reachable at unix:///nonexistent/docker.sock');
    expect(out.message).toMatch(/dockerd &|systemctl start docker/);
    expect(out.message).toContain('apt-get install docker.io');
  });
});

describe('the Docker client', () => {
  it('loads without gRPC (BuildKit sessions) or ssh2, each loaded when first used', async () => {
    const script = `
      import { createRequire } from 'node:module';
      import { Dockerode } from ${JSON.stringify(path.join(repo, 'src/sandbox/docker/client.ts'))};
      const require = createRequire(${JSON.stringify(path.join(repo, 'src/sandbox/docker/client.ts'))});
      const loaded = () => ['@grpc', 'ssh2'].filter((m) => Object.keys(require.cache).some((k) => k.includes('/' + m)));
      new (Dockerode())();
      const before = loaded();
      const fromDockerode = createRequire(require.resolve('dockerode'));
      const withSession = require(fromDockerode.resolve('./session'));
      // A session whose dial fails: it fails, after loading the real module.
      await new Promise((done) => withSession({ modem: { dial: (_o, cb) => cb(new Error('no daemon')) } }, {}, done));
      const sshAgent = require(fromDockerode.resolve('docker-modem/lib/ssh'))({ host: '127.0.0.1', port: 9 });
      console.log(JSON.stringify({ before, after: loaded(), agent: typeof sshAgent.createConnection }));`;
    const res = await execa(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repo });
    expect(JSON.parse(defined(res.stdout.trim().split('\n').pop()))).toEqual({
      before: [],
      after: ['@grpc', 'ssh2'],
      agent: 'function',
    });
  });

  it('formats a request with its own connection without its http.Agent (docker-modem inspects every request)', () => {
    const fresh = freshClient(docker()).modem as unknown as { agent: object };
    expect(inspect({ agent: fresh.agent }, { showHidden: true, depth: null }).length).toBeLessThan(40);
  });
});
