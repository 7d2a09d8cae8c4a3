// Every supported compose key takes effect in a real run (docs/benchmarks.md#compose-tasks): one
// compose task (test/fixtures/harbor-compose-keys/keys) whose services each exercise several keys
// and write what they see (uid, ulimits, cgroup limits, mounts, routes, who answers on the network);
// the oracle copies the reports out as artifacts. What only Docker sees (health probes, the stop
// signal and exit code, labels) is read from Docker's events while the run goes on. A second task
// has its main service named `default`. Nothing of either trial is left behind. The per-key
// assertions are soft: one run names every key that did not take effect.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { docker } from '../../src/sandbox/docker/client.ts';
import { FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { leftovers } from '../support/leftovers.ts';

const hasDocker = await requireDocker();
const BENCH = join(FIXTURES, 'harbor-compose-keys');
/** The label the fixture puts on the services whose events are watched. */
const WATCHED = 'org.example.keys';

interface DockerEvent {
  status?: string;
  Action?: string;
  id?: string;
  time: number;
  timeNano: number;
  Actor: { ID: string; Attributes: Record<string, string> };
}

/** Docker's container events for the fixture's watched services, and each one's config inspected when it starts. */
async function watchEvents(client: Docker) {
  const events: DockerEvent[] = [];
  const inspected = new Map<string, Docker.ContainerInspectInfo>();
  const pending: Array<Promise<unknown>> = [];
  const stream = (await client.getEvents({
    filters: JSON.stringify({ type: ['container'], label: [WATCHED] }),
  })) as NodeJS.ReadableStream & { destroy(): void };
  let buf = '';
  stream.on('data', (chunk: Buffer) => {
    buf += chunk.toString('utf8');
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const e = JSON.parse(buf.slice(0, nl)) as DockerEvent;
      buf = buf.slice(nl + 1);
      events.push(e);
      const service = e.Actor.Attributes[WATCHED];
      if (e.Action === 'start' && !inspected.has(service))
        pending.push(
          client
            .getContainer(e.Actor.ID)
            .inspect()
            .then((i) => inspected.set(service, i)),
        );
    }
  });
  return {
    async stop() {
      await new Promise((r) => setTimeout(r, 500)); // the last events of the cleanup
      stream.destroy();
      await Promise.allSettled(pending);
      const of = (service: string) => events.filter((e) => e.Actor.Attributes[WATCHED] === service);
      return { of, inspected };
    },
  };
}

/** `a=1 b=x y` lines of one report as a map. */
function report(dir: string, service: string): Record<string, string> {
  const text = readFileSync(join(dir, 'trials', 'keys', 'logs', 'artifacts', `${service}.txt`), 'utf8');
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/(\w+)=(\S*)/g)) out[m[1]] = m[2];
  return out;
}

const actions = (es: DockerEvent[]) => es.map((e) => e.Action ?? e.status ?? '');
const at = (es: DockerEvent[], action: string) => es.find((e) => (e.Action ?? e.status) === action)?.timeNano ?? NaN;

describe('every supported compose key, at load', () => {
  it('validate reads every key of the fixture; on the main service it notes those it does not apply', async () => {
    const v = await runCli(['validate', BENCH]);
    expect(v.code).toBe(0);
    const notes = v.stdout.split('\n').filter((l) => l.startsWith('note:'));
    const onMain =
      '(not applied to the main service: it is the agent’s sandbox, kept alive by benchrig, with the task’s bounds and working directory)';
    expect(notes).toEqual([
      `note: ignored key keys/environment/docker-compose.yaml: services.app.user ${onMain}`,
      `note: ignored key keys/environment/docker-compose.yaml: services.app.working_dir ${onMain}`,
    ]);
  }, 60_000);
});

describe.skipIf(!hasDocker)('every supported compose key, in one run', () => {
  it('each key takes effect, the main service may be x-default or named default, and nothing is left', async () => {
    const client = docker();
    const watch = await watchEvents(client);
    const out = tempDir();
    const r = await runCli(['run', BENCH, '--agent', 'oracle', '--mode', 'single', '--output', out]);
    const { of, inspected } = await watch.stop();
    const dir = onlyRunDir(out, 'oracle', 'harbor-compose-keys');
    const rs = results(dir);
    expect(rs.map((x) => [x.task_id, x.status, x.error?.message ?? null]).sort()).toEqual([
      ['dflt', 'PASSED', null], // its main service is the one named default: WHO is set there
      ['keys', 'PASSED', null],
    ]);
    expect(r.code).toBe(0);

    // build: context, dockerfile (not named Dockerfile), target (not the last stage), args;
    // image built by another service; a network's aliases; internal: true; networks apart.
    // The host answers (refuses a closed port) on front, not internal; on back (internal: true) nothing answers.
    expect.soft(report(dir, 'web')).toMatchObject({ stage: 'final', host: 'answers' });
    const copy = report(dir, 'copy');
    expect.soft(copy).toMatchObject({ stage: 'final', token: 'built-token' }); // web's image, not rebuilt elsewhere
    expect.soft(copy.host).toBe('silent');
    expect.soft(copy.web_by_ip).toBe(''); // back only: web (front only) is unreachable, even by address
    expect.soft(copy.web_by_name).toBe('no');
    const app = report(dir, 'app');
    expect.soft(app).toMatchObject({ www: 'built-token', backside: 'built-token', web_ip: 'built-token' }); // aliases, on both networks
    // network_mode: service:web shares web's stack (and starts after it although written first); none has only lo.
    expect.soft(report(dir, 'shared-ns').localhost).toBe('built-token');
    expect.soft(report(dir, 'nonet').interfaces).toBe('lo');

    // user, working_dir, init: false, shm_size, ulimits, tmpfs, mem_limit, cpus, tty + stdin_open,
    // environment (map) over env_file, entrypoint + command.
    expect.soft(report(dir, 'limits')).toEqual({
      uid: '1234',
      gid: '1234',
      pwd: '/work',
      nofile: '512',
      nofile_hard: '1024',
      nproc: '77',
      shm_kb: '32768',
      scratch: 'size=8192k',
      mem: String(96 * 1024 ** 2),
      cpu: '50000',
      pid1: 'sh', // no init process
      tty: 'yes',
      env: 'from-map,from-file,map',
    });
    // environment as a list, init: true, stdin_open without a tty, the image's working directory (its WORKDIR).
    expect.soft(report(dir, 'entry')).toEqual({
      ran: 'from-list',
      pid1: 'docker-init',
      stdin: expect.stringMatching(/^pipe:/),
      pwd: '/workspace',
    });
    expect.soft(copy.stdin).toBe('/dev/null'); // no stdin_open
    // deploy.resources.limits.
    expect.soft(report(dir, 'healthy')).toEqual({ mem: String(80 * 1024 ** 2), cpu: '25000' });
    // Volumes: named and shared by two services, :ro (read_only) refuses writes, anonymous, a
    // folder of the task bound read-only (in two services), environment list on main.
    expect.soft(report(dir, 'vols')).toEqual({
      seed: 'seeded',
      seed_write: 'refused',
      data_ro: 'from-vols',
      data_ro_write: 'refused',
      anon: '1',
      anon_write: 'ok',
    });
    expect.soft(app).toMatchObject({ mode: 'list-form', shared: 'from-vols', seed: 'seeded', seed_write: 'refused' });
    expect.soft(app).toMatchObject({ uid: '0', pwd: '/app' }); // main's user and working_dir: noted, not applied
    expect.soft(readFileSync(join(BENCH, 'keys', 'environment', 'seed', 'hello.txt'), 'utf8')).toBe('seeded\n');

    // depends_on: service_completed_successfully (prep exited 0 before the others started),
    // service_healthy (healthy started once web was healthy), service_started.
    const prep = of('prep');
    expect.soft(prep.find((e) => e.Action === 'die')?.Actor.Attributes.exitCode).toBe('0');
    expect.soft(at(prep, 'die')).toBeLessThan(at(of('web'), 'start'));
    expect.soft(actions(of('web'))).toContain('health_status: healthy'); // healthcheck CMD
    expect.soft(at(of('web'), 'health_status: healthy')).toBeLessThan(at(of('healthy'), 'start'));
    expect.soft(actions(of('healthy'))).toContain('health_status: healthy'); // healthcheck as a string (CMD-SHELL)
    expect.soft(at(of('web'), 'start')).toBeLessThan(at(of('copy'), 'start'));
    // healthcheck NONE: the image's own (always failing) probe never runs.
    expect.soft(actions(of('copy')).filter((a) => a.startsWith('health_status'))).toEqual([]);
    expect.soft(inspected.get('copy')?.Config.Healthcheck?.Test).toEqual(['NONE']);
    // interval, timeout, retries, start_period as given (nanoseconds).
    expect.soft(inspected.get('healthy')?.Config.Healthcheck).toEqual({
      Test: ['CMD-SHELL', 'test -f /tmp/ok'],
      Interval: 500e6,
      Timeout: 1e9,
      Retries: 30,
      StartPeriod: 2e9,
    });
    expect.soft(Object.keys(inspected.get('web')?.Config.ExposedPorts ?? {})).toEqual(['8080/tcp']); // expose
    // labels (the events were found by one), stop_grace_period: SIGTERM first, the service's own exit.
    expect.soft(inspected.get('limits')?.Config.Labels).toMatchObject({ [WATCHED]: 'limits' });
    const limits = of('limits');
    expect.soft(limits.find((e) => e.Action === 'kill')?.Actor.Attributes.signal).toBe('15');
    expect.soft(limits.find((e) => e.Action === 'die')?.Actor.Attributes.exitCode).toBe('42'); // its trap ran

    expect(await leftovers(readJson(join(dir, 'run.json')).run_id as string)).toEqual([]);
  }, 300_000);
});
