import { describe, expect, it } from 'vitest';
import { mergeCompose, mergeService } from '../../../../src/environment/compose/merge.ts';

describe("compose-spec's merge rules", () => {
  it('mappings merge key by key; a scalar is the later file’s', () => {
    const m = mergeService(
      { image: 'a', working_dir: '/a', deploy: { resources: { limits: { cpus: '1', memory: '1g' } } } },
      { image: 'b', deploy: { resources: { limits: { memory: '2g' } } } },
    );
    expect(m).toEqual({
      image: 'b',
      working_dir: '/a',
      deploy: { resources: { limits: { cpus: '1', memory: '2g' } } },
    });
  });

  it('command, entrypoint and healthcheck.test are replaced, not appended', () => {
    const m = mergeService(
      { command: ['sh', '-c', 'sleep infinity'], entrypoint: ['/a'], healthcheck: { test: ['CMD', 'a'], retries: 3 } },
      { command: ['httpd', '-f'], entrypoint: ['/b'], healthcheck: { test: ['CMD-SHELL', 'b'], interval: '1s' } },
    );
    expect(m).toEqual({
      command: ['httpd', '-f'],
      entrypoint: ['/b'],
      healthcheck: { test: ['CMD-SHELL', 'b'], retries: 3, interval: '1s' },
    });
  });

  it('other sequences append', () => {
    expect(mergeService({ extra_list: [1] }, { extra_list: [2] })).toEqual({ extra_list: [1, 2] });
  });

  it('volumes are unique by target: the later file’s entry wins, the others stay', () => {
    const m = mergeService(
      { volumes: ['logs:/logs/agent', 'a:/data'] },
      { volumes: [{ type: 'volume', source: 'b', target: '/data' }, './x:/x:ro'] },
    );
    expect(m.volumes).toEqual(['logs:/logs/agent', { type: 'volume', source: 'b', target: '/data' }, './x:/x:ro']);
  });

  it('devices, secrets and configs are unique by target too', () => {
    expect(mergeService({ devices: ['/dev/a:/dev/x'] }, { devices: ['/dev/b:/dev/x'] }).devices).toEqual([
      '/dev/b:/dev/x',
    ]);
    expect(
      mergeService({ secrets: [{ source: 's', target: '/t' }] }, { secrets: [{ source: 'u', target: '/t' }] }).secrets,
    ).toEqual([{ source: 'u', target: '/t' }]);
  });

  it('ports, expose, dns, env_file, tmpfs and cap_add append without repeats; a single value counts as a list', () => {
    const m = mergeService(
      { ports: ['80:80'], expose: ['80'], dns: '1.1.1.1', env_file: ['a.env'], tmpfs: '/run', cap_add: ['A'] },
      {
        ports: ['80:80', '81:81'],
        expose: ['80', '81'],
        dns: ['8.8.8.8'],
        env_file: 'b.env',
        tmpfs: ['/run', '/tmp'],
        cap_add: ['A'],
      },
    );
    expect(m).toEqual({
      ports: ['80:80', '81:81'],
      expose: ['80', '81'],
      dns: ['1.1.1.1', '8.8.8.8'],
      env_file: ['a.env', 'b.env'],
      tmpfs: ['/run', '/tmp'],
      cap_add: ['A'],
    });
  });

  it('environment, labels and build.args merge as maps whether written as a list or a map', () => {
    const m = mergeService(
      { environment: ['A=1', 'B=2'], labels: { x: 'a' }, build: { context: '.', args: ['V=1'] } },
      { environment: { B: '3', C: '4' }, labels: ['y=b'], build: { args: { W: '2' } } },
    );
    expect(m).toEqual({
      environment: { A: '1', B: '3', C: '4' },
      labels: { x: 'a', y: 'b' },
      build: { context: '.', args: { V: '1', W: '2' } },
    });
  });

  it('depends_on and networks merge as maps: a list is service_started / no options', () => {
    const m = mergeService(
      { depends_on: ['db'], networks: ['front'] },
      {
        depends_on: { db: { condition: 'service_healthy' }, web: { condition: 'service_started' } },
        networks: { back: { aliases: ['b'] } },
      },
    );
    expect(m).toEqual({
      depends_on: { db: { condition: 'service_healthy' }, web: { condition: 'service_started' } },
      networks: { front: null, back: { aliases: ['b'] } },
    });
  });

  it('whole documents: services merged by name, new services and top-level tables added', () => {
    const m = mergeCompose(
      { services: { main: { image: 'a', volumes: ['l:/logs'] } }, volumes: { l: {} } },
      { services: { main: { environment: { A: '1' } }, db: { image: 'db' } }, volumes: { shared: {} }, 'x-note': 1 },
    );
    expect(m).toEqual({
      services: { main: { image: 'a', volumes: ['l:/logs'], environment: { A: '1' } }, db: { image: 'db' } },
      volumes: { l: {}, shared: {} },
      'x-note': 1,
    });
  });
});
