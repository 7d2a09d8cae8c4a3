// Harbor's side of a compose task (docs/benchmarks.md#compose-tasks): the variables its compose
// files may use, and the base the task's file is laid over — `main` built from environment/ (or
// the prebuilt `docker_image`), kept alive, with the task's resources and its log folders.
import path from 'node:path';

export interface HarborEnvironment {
  taskId: string;
  /** The task's environment/ folder (the compose file's folder). */
  envDir: string;
  dockerImage: string | null;
  /** environment/ holds a Dockerfile: `main` is built from it unless `dockerImage` is set. */
  hasDockerfile: boolean;
  cpus: number | null;
  memoryMb: number | null;
  /** `[environment] env`: variables of the compose file too, over Harbor's (as Harbor does). */
  env: Record<string, string>;
}

/** Harbor's log folders inside `main`: each a volume of the environment, so other services may mount it too. */
const LOGS = { VERIFIER: '/logs/verifier', AGENT: '/logs/agent', ARTIFACTS: '/logs/artifacts' } as const;
const logVolume = (k: keyof typeof LOGS) => `harbor-logs-${k.toLowerCase()}`;

/** Harbor's rule for names: lowercase, [a-z0-9_.-] (no `.` in a project name), starting with a letter or digit. */
const sanitize = (name: string, allowed: RegExp) => {
  const lower = name.toLowerCase();
  return (/^[a-z0-9]/.test(lower) ? lower : `0${lower}`).replace(allowed, '-');
};

export function harborVariables(h: HarborEnvironment): Record<string, string> {
  const vars: Record<string, string> = {
    CONTEXT_DIR: path.resolve(h.envDir),
    MAIN_IMAGE_NAME: sanitize(`hb__${h.taskId}`, /[^a-z0-9._-]/g),
    COMPOSE_PROJECT_NAME: sanitize(h.taskId, /[^a-z0-9_-]/g),
    CPUS: String(h.cpus ?? 1),
    MEMORY: `${h.memoryMb ?? 2048}M`,
    ...(h.dockerImage ? { PREBUILT_IMAGE_NAME: h.dockerImage } : {}),
  };
  for (const k of Object.keys(LOGS) as Array<keyof typeof LOGS>) {
    const key = k === 'ARTIFACTS' ? 'ARTIFACTS_PATH' : `${k}_LOGS_PATH`;
    vars[`HOST_${key}`] = logVolume(k);
    vars[`ENV_${key}`] = LOGS[k];
  }
  return { ...vars, ...h.env };
}

/** The compose document the task's file is laid over; `main` is the name the task gives its main service. */
export function harborBase(h: HarborEnvironment, main: string): Record<string, unknown> {
  const vars = harborVariables(h);
  const keys = Object.keys(LOGS) as Array<keyof typeof LOGS>;
  const image = h.dockerImage
    ? { image: h.dockerImage }
    : h.hasDockerfile
      ? { build: { context: vars.CONTEXT_DIR }, image: vars.MAIN_IMAGE_NAME }
      : {};
  return {
    services: {
      [main]: {
        ...image,
        command: ['sh', '-c', 'sleep infinity'],
        volumes: keys.map((k) => `${logVolume(k)}:${LOGS[k]}`),
        ulimits: { nofile: { soft: 1048576, hard: 1048576 } },
        deploy: { resources: { limits: { cpus: vars.CPUS, memory: vars.MEMORY } } },
      },
    },
    volumes: Object.fromEntries(keys.map((k) => [logVolume(k), {}])),
  };
}
