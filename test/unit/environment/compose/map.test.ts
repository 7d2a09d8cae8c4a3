// Every key a compose task may use, as the environment spec has it (docs/benchmarks.md#compose-tasks),
// laid over Harbor's base; and the notes `validate` prints for what is ignored.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { healthBudgetMs } from '../../../../src/environment/spec.ts';
import { FULL, composeTask, load } from './helpers.ts';

const KITCHEN_SINK = `
x-common: &common
  labels: [team=bench]
services:
  main:
    environment: [FROM_LIST=1, EMPTY_VAR]
    working_dir: /app
    user: "1000:1000"
    init: true
    shm_size: 64m
    stdin_open: true
    tty: "true"
    stop_grace_period: 1m30s
    expose: [8080, "9090"]
    tmpfs: ["/run:size=16m", /cache]
    ulimits: { nproc: 512 }
    mem_limit: 512m
    cpus: 0.5
    pids_limit: 300
    labels: { role: agent }
    depends_on: [api]
  api:
    <<: *common
    build:
      context: ./data
      dockerfile: sub/../Dockerfile.api
      target: runtime
      args: { VERSION: "\${CPUS}" }
    image: local/api:dev
    command: httpd -f -p 8080 -h "/srv/www root"
    entrypoint: ["/bin/sh", "-c"]
    env_file: [./api.env]
    environment: { FROM_MAP: yes, OVERRIDE: map }
    volumes:
      - shared:/shared:ro
      - ./data:/seed
      - /anon
      - type: bind
        source: ./data/file.txt
        target: /etc/file.txt
        read_only: true
      - type: tmpfs
        target: /scratch
        tmpfs: { size: 1048576 }
    networks:
      back: { aliases: [api-internal, api2] }
      default:
    healthcheck:
      test: wget -q -O- localhost:8080
      interval: 500ms
      timeout: 2s
      retries: 5
      start_period: 10s
    deploy: { resources: { limits: { cpus: "2", memory: 1g, pids: 64 } } }
    security_opt: [no-new-privileges:true]
    cap_drop: [ALL]
    ports: ["8080:8080"]
    restart: always
  sniffer:
    image: benchrig/busybox:1
    network_mode: service:api
    depends_on:
      api: { condition: service_healthy, required: false }
  offline:
    image: benchrig/busybox:1
    network_mode: none
    healthcheck: { disable: true }
    depends_on: { api: { condition: service_completed_successfully } }
volumes:
  shared: { labels: { kind: data } }
networks:
  back: { internal: true }
`;

describe('a compose task mapped to the environment spec', () => {
  it('the full fixture: main from environment/, a built web service, a healthy db, a shared volume, start order', () => {
    const { spec, notes } = load(FULL);
    expect(spec.main).toBe('main');
    expect(spec.order).toEqual(['web', 'db', 'main']);
    expect(spec.internet).toBe(false); // network_mode = "no-network": every network internal
    expect(spec.networks).toEqual({ default: { internal: true, labels: {} } });
    expect(Object.keys(spec.volumes).sort()).toEqual([
      'harbor-logs-agent',
      'harbor-logs-artifacts',
      'harbor-logs-verifier',
      'shared',
    ]);
    const { main, web, db } = spec.services;
    expect(main.build).toEqual({ context: 'full/environment', dockerfile: 'Dockerfile', args: {} });
    expect(main.image).toBe('hb__full');
    expect(main.command).toEqual(['sh', '-c', 'sleep infinity']); // kept alive, as Harbor's base does
    expect(main.memoryBytes).toBe(256 * 1024 ** 2);
    expect(main.cpus).toBe(1);
    expect(main.ulimits).toEqual({ nofile: { soft: 1048576, hard: 1048576 } });
    expect(main.env).toEqual({ WEB_URL: 'http://web:8080/token.txt' });
    expect(main.dependsOn).toEqual({
      web: { condition: 'service_started', required: true },
      db: { condition: 'service_healthy', required: true },
    });
    expect(main.mounts).toEqual([
      { type: 'volume', source: 'harbor-logs-verifier', target: '/logs/verifier', readOnly: false },
      { type: 'volume', source: 'harbor-logs-agent', target: '/logs/agent', readOnly: false },
      { type: 'volume', source: 'harbor-logs-artifacts', target: '/logs/artifacts', readOnly: false },
      { type: 'volume', source: 'shared', target: '/shared', readOnly: true },
    ]);
    expect(web.build).toEqual({
      context: 'full/environment/web',
      dockerfile: 'Dockerfile',
      args: { TOKEN: 'compose-token' },
    });
    expect(web.networks).toEqual({ default: { aliases: ['www'] } });
    expect(web.expose).toEqual(['8080']);
    expect(db.healthcheck).toEqual({
      test: ['CMD-SHELL', 'test -f /tmp/ready'],
      intervalMs: 1000,
      timeoutMs: 2000,
      retries: 30,
      startPeriodMs: 1000,
    });
    expect(healthBudgetMs(db.healthcheck ?? expect.unreachable())).toBe(1000 + 30 * 3000);
    expect(db.mounts).toEqual([{ type: 'volume', source: 'shared', target: '/data', readOnly: false }]);
    expect(notes).toEqual([]);
  });

  it('every supported key', () => {
    const dir = composeTask(KITCHEN_SINK, '[environment]\ncpus = 3\nmemory_mb = 1024\nnetwork_mode = "public"\n');
    writeFileSync(path.join(dir, 'environment', 'api.env'), '# comment\nexport FROM_FILE="a b"\nOVERRIDE=file\n');
    const { spec, notes } = load(dir);
    const { main, api, sniffer, offline } = spec.services;
    expect(spec.internet).toBe(true);
    expect(spec.networks).toEqual({
      default: { internal: false, labels: {} },
      back: { internal: true, labels: {} },
    });
    expect(spec.volumes.shared).toEqual({ labels: { kind: 'data' } });
    expect(spec.order).toEqual(['api', 'main', 'sniffer', 'offline']);
    expect(main).toMatchObject({
      env: { FROM_LIST: '1' },
      workingDir: '/app',
      user: '1000:1000',
      init: true,
      shmSizeBytes: 64 * 1024 ** 2,
      stdinOpen: true,
      tty: true,
      stopGracePeriodMs: 90_000,
      expose: ['8080', '9090'],
      tmpfs: { '/run': 'size=16m', '/cache': '' },
      ulimits: { nofile: { soft: 1048576, hard: 1048576 }, nproc: { soft: 512, hard: 512 } },
      memoryBytes: 512 * 1024 ** 2, // mem_limit over the base's deploy limit
      cpus: 0.5,
      pids: 300,
      labels: { role: 'agent' },
      dependsOn: { api: { condition: 'service_started', required: true } },
    });
    expect(api).toMatchObject({
      image: 'local/api:dev',
      build: {
        context: 'task/environment/data',
        dockerfile: 'Dockerfile.api',
        target: 'runtime',
        args: { VERSION: '3' },
      },
      command: ['httpd', '-f', '-p', '8080', '-h', '/srv/www root'],
      entrypoint: ['/bin/sh', '-c'],
      env: { FROM_FILE: 'a b', OVERRIDE: 'map', FROM_MAP: 'yes' },
      labels: { team: 'bench' },
      networks: { back: { aliases: ['api-internal', 'api2'] }, default: { aliases: [] } },
      healthcheck: {
        test: ['CMD-SHELL', 'wget -q -O- localhost:8080'],
        intervalMs: 500,
        timeoutMs: 2000,
        retries: 5,
        startPeriodMs: 10_000,
      },
      cpus: 2,
      memoryBytes: 1024 ** 3,
      pids: 64,
      capAdd: [],
      tmpfs: { '/scratch': 'size=1048576' },
    });
    expect(api.mounts).toEqual([
      { type: 'volume', source: 'shared', target: '/shared', readOnly: true },
      { type: 'bind', source: 'task/environment/data', target: '/seed', readOnly: false },
      { type: 'volume', target: '/anon', readOnly: false },
      { type: 'bind', source: 'task/environment/data/file.txt', target: '/etc/file.txt', readOnly: true },
    ]);
    expect(sniffer.networkMode).toEqual({ kind: 'service', service: 'api' });
    expect(sniffer.networks).toEqual({});
    expect(sniffer.dependsOn).toEqual({ api: { condition: 'service_healthy', required: false } });
    expect(offline.networkMode).toEqual({ kind: 'none' });
    expect(offline.healthcheck?.test).toEqual(['NONE']);
    expect(offline.dependsOn.api.condition).toBe('service_completed_successfully');
    const file = 'task/environment/docker-compose.yaml';
    const onMain =
      '(not applied to the main service: it is the agent’s sandbox, kept alive by benchrig, with the task’s bounds and working directory)';
    const mainKeys = ['working_dir', 'user', 'init', 'shm_size', 'stdin_open', 'tty', 'stop_grace_period', 'expose'];
    mainKeys.push('tmpfs', 'ulimits', 'mem_limit', 'cpus', 'pids_limit', 'labels');
    expect(notes).toEqual([
      ...mainKeys.map((k) => `ignored key ${file}: services.main.${k} ${onMain}`),
      `ignored key ${file}: services.api.cap_drop (every capability is dropped anyway)`,
      `ignored key ${file}: services.api.ports (not published: nothing outside the trial needs them; services reach each other by name)`,
      `ignored key ${file}: services.api.restart (a service is not restarted; one that exits is handled by its dependents’ conditions)`,
      `${file}: services.main.environment.EMPTY_VAR has no value: compose takes it from the host, benchrig passes none (left unset)`,
    ]);
  });

  it("Harbor's variables: the task's resources, its prebuilt image, and the log folders as shared volumes", () => {
    const yaml = `
services:
  main:
    environment:
      CTX: \${CONTEXT_DIR}
      IMG: \${MAIN_IMAGE_NAME}
      PROJECT: \${COMPOSE_PROJECT_NAME}
      RES: \${CPUS}/\${MEMORY}
      LOGS: \${ENV_VERIFIER_LOGS_PATH} \${ENV_AGENT_LOGS_PATH} \${ENV_ARTIFACTS_PATH}
      PRE: \${PREBUILT_IMAGE_NAME}
      TASK_VAR: \${FROM_TASK}
      MISSING: \${NOT_SET}
  reader:
    image: benchrig/busybox:1
    volumes: ["\${HOST_AGENT_LOGS_PATH}:/agent-logs:ro"]
`;
    const dir = composeTask(
      yaml,
      '[environment]\ndocker_image = "benchrig/debian:1"\ncpus = 2\nmemory_mb = 768\n[environment.env]\nFROM_TASK = "t"\n',
    );
    const { spec, notes } = load(dir);
    expect(spec.services.main.env).toEqual({
      CTX: path.join(dir, 'environment'),
      IMG: 'hb__task',
      PROJECT: 'task',
      RES: '2/768M',
      LOGS: '/logs/verifier /logs/agent /logs/artifacts',
      PRE: 'benchrig/debian:1',
      TASK_VAR: 't',
      MISSING: '',
    });
    expect(spec.services.main.image).toBe('benchrig/debian:1'); // prebuilt: not built
    expect(spec.services.main.build).toBeUndefined();
    expect(spec.services.main).toMatchObject({ cpus: 2, memoryBytes: 768 * 1024 ** 2 });
    expect(spec.services.reader.mounts).toEqual([
      { type: 'volume', source: 'harbor-logs-agent', target: '/agent-logs', readOnly: true },
    ]);
    expect(notes).toEqual([
      "task/environment/docker-compose.yaml: variable NOT_SET is not set: an empty string (the host's environment is not passed to a task)",
    ]);
  });

  it('the host environment is never read: a variable set on the host is empty in the task', () => {
    process.env.BENCHRIG_TEST_HOST_SECRET = 'sk-host';
    try {
      const dir = composeTask('services:\n  main:\n    environment: { K: "${BENCHRIG_TEST_HOST_SECRET}" }\n');
      expect(load(dir).spec.services.main.env.K).toBe('');
    } finally {
      delete process.env.BENCHRIG_TEST_HOST_SECRET;
    }
  });

  it('x-default: true, or a service named default, is the main service and gets the base', () => {
    const marked = load(
      composeTask('services:\n  agent:\n    x-default: true\n    working_dir: /w\n  db:\n    image: x\n'),
    ).spec;
    expect(marked.main).toBe('agent');
    expect(marked.services.agent).toMatchObject({ build: { context: 'task/environment' }, workingDir: '/w' });
    expect(marked.services.main).toBeUndefined();
    const named = load(composeTask('services:\n  default:\n    image: benchrig/busybox:1\n')).spec;
    expect(named.main).toBe('default');
    expect(named.services.default.image).toBe('benchrig/busybox:1');
    expect(named.services.default.mounts.map((m) => m.target)).toEqual([
      '/logs/verifier',
      '/logs/agent',
      '/logs/artifacts',
    ]);
  });
});
