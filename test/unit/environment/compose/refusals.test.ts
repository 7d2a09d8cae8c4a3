// What a compose task may not ask for is refused at load, one message naming the task, the file, the
// service and the key (docs/benchmarks.md#compose-tasks). The task is third-party content: each of
// these would hand the agent (or the task) the host.
import { describe, expect, it } from 'vitest';
import { composeTask, load, refusal } from './helpers.ts';

const cases: Array<[string, string, RegExp]> = [
  ['privileged', 'services.side.privileged', /privileged containers are not allowed/],
  ['cap_add', 'services.side.cap_add', /capabilities NET_ADMIN are not allowed/],
  ['devices', 'services.side.devices', /host devices are not allowed/],
  ['pid-host', 'services.side.pid', /pid: "host" shares a namespace outside the environment/],
  ['ipc-host', 'services.side.ipc', /ipc: "host" shares a namespace/],
  ['network_mode-host', 'services.side.network_mode', /network_mode: host is not allowed/],
  [
    'network_mode-unknown',
    'services.side.network_mode',
    /network_mode "bridge" is not supported \(none or service:<name>/,
  ],
  [
    'docker-socket',
    'services.side.volumes[0]',
    /"\/var\/run\/docker.sock" is the Docker socket, outside the task folder/,
  ],
  ['bind-outside', 'services.side.volumes[0]', /"\.\.\/\.\.\/\.\.\/" is outside the task folder/],
  ['bind-symlink', 'services.side.volumes[0]', /"\.\/etc-link" is outside the task folder \(it resolves to \/etc\)/],
  ['bind-tests', 'services.main.volumes[3]', /would mount the task's tests\/ folder/],
  ['external-volume', 'volumes.data.external', /external volumes and networks are not allowed/],
  ['external-network', 'networks.outside.external', /external volumes and networks are not allowed/],
  [
    'security_opt',
    'services.side.security_opt',
    /"seccomp:unconfined" loosens the sandbox; only no-new-privileges:true/,
  ],
  ['volume-driver', 'volumes.root.driver', /volume drivers are not allowed/],
  ['env_file-outside', 'services.side.env_file[0]', /"\/etc\/hostname" is outside the task folder/],
  ['build-outside', 'services.side.build.context', /"\.\.\/\.\.\/\.\." is outside the task folder/],
  ['schema-error', 'services.side.healthcheck', /unknown key "intervals" \(not in the compose specification\)/],
  ['cycle', 'services', /services depend on each other in a cycle: a → b → a/],
];

describe('compose refusals at load', () => {
  it.each(cases)('%s: refused, naming the task, its compose file and %s', (fixture, key, why) => {
    const dir = composeTask({ fixture });
    const message = refusal(dir);
    expect(message).toContain(`task "task" (${dir}/environment/docker-compose.yaml): key ${key}: `);
    expect(message).toMatch(why);
  });

  it.each([
    [
      'a service (list form)',
      '  side:\n    image: benchrig/busybox:1\n    labels: ["benchrig.pid=1"]\n',
      'services.side.labels',
      'benchrig.pid',
    ],
    ['main', '  main:\n    labels: {benchrig: "1"}\n', 'services.main.labels', 'benchrig'],
    [
      'a volume',
      '  side:\n    image: benchrig/busybox:1\nvolumes:\n  data:\n    labels: {benchrig.run: x}\n',
      'volumes.data.labels',
      'benchrig.run',
    ],
    [
      'a network',
      '  side:\n    image: benchrig/busybox:1\nnetworks:\n  back:\n    labels: [benchrig.keep=1]\n',
      'networks.back.labels',
      'benchrig.keep',
    ],
  ])("a label under benchrig's prefix on %s is refused", (_, body, key, label) => {
    const dir = composeTask(`services:\n${body}`);
    const message = refusal(dir);
    expect(message).toContain(`key ${key}: "${label}" is benchrig's own label`);
  });

  it("labels that only start like benchrig's are the task's", () => {
    const dir = composeTask(
      'services:\n  side:\n    image: benchrig/busybox:1\n    labels: {benchrigger: a, org.benchrig.x: b}\n',
    );
    expect(load(dir).spec.services.side.labels).toEqual({ benchrigger: 'a', 'org.benchrig.x': 'b' });
  });

  it('a value that only becomes true through interpolation is refused too', () => {
    const dir = composeTask('services:\n  side:\n    image: benchrig/busybox:1\n    privileged: ${PRIV:-true}\n');
    expect(refusal(dir)).toMatch(/key services\.side\.privileged: privileged containers are not allowed/);
  });

  it('a bind that climbs out through .. inside the folder, or covers the solution, is refused', () => {
    expect(refusal(composeTask('services:\n  main:\n    volumes: ["./data/../../..:/x"]\n'))).toMatch(
      /outside the task folder/,
    );
    expect(refusal(composeTask('services:\n  main:\n    volumes: ["..:/task"]\n'))).toMatch(
      /would mount the task's tests\/ folder/,
    );
    expect(refusal(composeTask('services:\n  main:\n    volumes: ["../solution/solve.sh:/s"]\n'))).toMatch(
      /solution\/ folder/,
    );
  });

  it('the main service given twice, or not buildable, is refused', () => {
    const two = 'services:\n  a:\n    image: x\n    x-default: true\n  b:\n    image: y\n    x-default: true\n';
    expect(refusal(composeTask(two))).toMatch(/key services: a and b are both marked x-default/);
    const both = 'services:\n  main:\n    image: x\n  other:\n    image: y\n    x-default: true\n';
    expect(refusal(composeTask(both))).toMatch(
      /key services\.other: marked as the main service, but a service is named main too/,
    );
  });

  it('an undeclared named volume or network, a remote build, a build with the host SSH agent are refused', () => {
    expect(refusal(composeTask('services:\n  s:\n    image: x\n    volumes: ["nope:/d"]\n'))).toMatch(
      /services\.s\.volumes\[0\]: volume "nope" is not declared/,
    );
    expect(refusal(composeTask('services:\n  s:\n    image: x\n    networks: [nope]\n'))).toMatch(
      /services\.s\.networks\.nope: network "nope" is not declared/,
    );
    expect(refusal(composeTask('services:\n  s:\n    build: https://example.com/repo.git\n'))).toMatch(
      /services\.s\.build\.context: .*remote build contexts are not fetched/,
    );
    expect(refusal(composeTask('services:\n  s:\n    build:\n      context: .\n      ssh: [default]\n'))).toMatch(
      /services\.s\.build\.ssh: build ssh is not allowed/,
    );
  });

  it('a Dockerfile outside its build context is refused', () => {
    const dir = composeTask('services:\n  s:\n    build: { context: ./data, dockerfile: ../Dockerfile }\n');
    expect(refusal(dir)).toMatch(/key services\.s\.build\.dockerfile: "\.\.\/Dockerfile" is outside the build context/);
  });

  it('a required variable left unset is refused with its message', () => {
    const dir = composeTask('services:\n  s:\n    image: ${IMG:?the task needs IMG}\n');
    expect(refusal(dir)).toMatch(/key services\.s\.image: variable IMG is required: the task needs IMG/);
  });

  it('invalid YAML and a file without services are refused', () => {
    expect(refusal(composeTask('services: [\n'))).toMatch(/docker-compose.yaml\): not valid YAML/);
    expect(refusal(composeTask('volumes: {}\n'))).toMatch(/key services: a compose file needs a services table/);
  });
});
