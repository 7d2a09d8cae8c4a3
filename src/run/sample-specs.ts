// The spec of each sample that brings its own sandbox, at run time, its images resolved (docs/benchmarks.md#a-sandbox-per-sample, docs/sandboxes.md): before a trial whose sample brings its own
// sandbox is scheduled, its image is found here, built once per distinct build context (tagged
// `benchrig-env/<benchmark>:<content hash>`, reused by later runs until the context changes), or
// pulled with `--pull`. At most `[run] max_builds` builds run at once, each under its timeout, its
// log kept in `<run>/builds/`. A context that does not build fails only the trials that need it:
// SANDBOX_ERROR, not retried, never the agent's.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, type ErrorValue } from '../errors.ts';
import { folderDigest } from '../benchmark/version.ts';
import { isTemplate } from '../benchmark/sample-sandbox.ts';
import { absoluteFrom } from '../environment/relocate.ts';
import type { EnvironmentSpec, ServiceSpec } from '../environment/spec.ts';
import { Semaphore } from '../pool/semaphore.ts';
import { buildNetworkOf, missingImageMessage, type SampleImages } from '../sandbox/index.ts';
import type { SandboxSpec } from '../sandbox/types.ts';
import type { TrialInput } from '../trial/types.ts';
import type { Sample, SampleSandbox } from '../types.ts';

interface SampleSpecOptions {
  benchmark: string;
  /** Build folders of samples are relative to it. */
  benchmarkDir: string;
  runDir: string;
  maxBuilds: number;
  buildTimeoutS: number;
  /** `--pull` (with its deadline per image): found missing at the start, pulled before the run (run/prebuilt-images.ts); again here if one is gone since. */
  pull?: { timeoutMs: number };
  /** `--network none`: over every sample's own network setting. */
  noNetwork?: boolean;
  /** The benchmark's `[sandbox.services]` (paths relative to `benchmarkDir`): for samples without an environment of their own. */
  environment?: EnvironmentSpec;
  log?: (line: string) => void;
}

const envImageTag = (benchmark: string, digest: string) =>
  `benchrig-env/${
    benchmark
      .toLowerCase()
      .replace(/[^a-z0-9_.-]+/g, '-')
      .replace(/^[-.]+/, '') || 'benchmark'
  }:${digest}`;

export class SampleSpecs {
  readonly #images = new Map<string, Promise<string>>();
  readonly #environments = new Map<string, Promise<EnvironmentSpec>>();
  readonly #builds: Semaphore;

  constructor(
    private readonly base: SandboxSpec,
    /** The run's provider's images: on several hosts, made on every one (any may be given the trial). */
    private readonly images: SampleImages,
    private readonly o: SampleSpecOptions,
  ) {
    this.#builds = new Semaphore(Math.max(1, o.maxBuilds));
  }

  /** The trial with its own sandbox spec and its services' images, or why it cannot have them. */
  async prepare(trial: TrialInput): Promise<TrialInput | ErrorValue> {
    const own = trial.sample.sandbox;
    const environment = trial.sample.environment ?? this.o.environment;
    // A build reaches no further than its sandbox will (docs/sandboxes.md#images), unless `[sandbox] build_network`.
    const network = this.o.noNetwork ? 'none' : (own?.network ?? this.base.network);
    const buildNetwork = buildNetworkOf({ buildNetwork: this.base.buildNetwork, network });
    const servicesNetwork = buildNetworkOf({
      buildNetwork: this.base.buildNetwork,
      network: environment?.internet ? network : 'none',
    });
    try {
      let ready = trial;
      if (own) {
        const image = await this.imageFor(own, buildNetwork);
        const spec = specFor(
          this.base,
          own,
          image,
          own.workdir_from_image ? await this.images.workdir(image) : undefined,
        );
        ready = { ...ready, sandbox: this.o.noNetwork ? { ...spec, network: 'none' } : spec };
      }
      if (environment) ready = { ...ready, environment: await this.environmentFor(environment, servicesNetwork) };
      return ready;
    } catch (err) {
      return { kind: 'sandbox', message: describe(err), retryable: false };
    }
  }

  /** Every service's image but main's (the trial's sandbox) found, built once per build, or pulled; paths absolute. */
  private environmentFor(env: EnvironmentSpec, network: boolean): Promise<EnvironmentSpec> {
    const key = `env\n${network}\n${JSON.stringify(env)}`;
    let p = this.#environments.get(key);
    if (!p) this.#environments.set(key, (p = this.resolveEnvironment(absoluteFrom(env, this.o.benchmarkDir), network)));
    return p;
  }

  private async resolveEnvironment(env: EnvironmentSpec, network: boolean): Promise<EnvironmentSpec> {
    const services: Record<string, ServiceSpec> = {};
    for (const [name, s] of Object.entries(env.services)) {
      if (name === env.main) services[name] = s;
      else {
        const { build: _build, ...rest } = s;
        services[name] = { ...rest, image: await this.serviceImage(name, s, network) };
      }
    }
    return { ...env, services };
  }

  private serviceImage(name: string, s: ServiceSpec, network: boolean): Promise<string> {
    const key = `service\n${network}\n${JSON.stringify(s.build ?? s.image)}`;
    let p = this.#images.get(key);
    if (!p) this.#images.set(key, (p = this.resolveService(name, s, network)));
    return p;
  }

  private async resolveService(name: string, s: ServiceSpec, network: boolean): Promise<string> {
    const b = s.build;
    if (b) {
      const options = JSON.stringify([b.dockerfile, b.target ?? null, b.args]);
      const digest = createHash('sha256')
        .update(`${await folderDigest(b.context)}\n${options}`)
        .digest('hex')
        .slice(0, 16);
      const tag = envImageTag(this.o.benchmark, digest);
      if (await this.images.exists(tag)) return tag;
      await this.buildTag(tag, b.context, `service ${name} (${path.relative(this.o.benchmarkDir, b.context) || '.'})`, {
        dockerfile: b.dockerfile,
        ...(b.target ? { target: b.target } : {}),
        args: b.args,
        network,
      });
      return tag;
    }
    const image = s.image;
    if (!image) throw new Error(`service ${name} has neither an image nor a build`);
    if (await this.images.exists(image)) return image;
    if (this.o.pull) {
      await this.images.pull(image, { ...this.o.pull, onProgress: (line) => this.o.log?.(line) });
      return image;
    }
    throw new Error(`service ${name}: ${missingImageMessage(image)}`);
  }

  private imageFor(own: SampleSandbox, network: boolean): Promise<string> {
    // A row that only overrides limits or env runs in the benchmark's own image (made before the run).
    if (own.image === undefined && own.build === undefined) return Promise.resolve(this.base.image);
    const key = `${own.image ?? ''}\n${own.build ?? ''}\n${network}`;
    let p = this.#images.get(key);
    if (!p) this.#images.set(key, (p = this.resolve(own, network)));
    return p;
  }

  private async resolve(own: SampleSandbox, network: boolean): Promise<string> {
    // A prebuilt image wins when it is here (a task folder's own image), else its build context.
    const image = own.image;
    if (image && (await this.images.exists(image))) return image;
    if (own.build) return this.build(own, own.build, network);
    if (image && this.o.pull) {
      await this.images.pull(image, { ...this.o.pull, onProgress: (line) => this.o.log?.(line) });
      return image;
    }
    throw new Error(missingImageMessage(own.image ?? ''));
  }

  private async build(own: SampleSandbox, build: string, network: boolean): Promise<string> {
    const dir = path.resolve(this.o.benchmarkDir, build);
    const digest = await folderDigest(dir);
    const tag = envImageTag(this.o.benchmark, digest);
    if (await this.images.exists(tag)) return tag;
    await this.buildTag(tag, dir, build, { timeoutS: own.build_timeout_s, network });
    return tag;
  }

  /** One build under `max_builds`, its log in `<run>/builds/`; a failure says what did not build and where the log is. */
  private async buildTag(
    tag: string,
    dir: string,
    what: string,
    extra: { timeoutS?: number; network: boolean; dockerfile?: string; target?: string; args?: Record<string, string> },
  ): Promise<void> {
    const { timeoutS, ...buildOptions } = extra;
    const [name, digest] = tag.split(':');
    const logFile = path.join(this.o.runDir, 'builds', `${name.replace(/\//g, '_')}-${digest}.log`);
    const release = await this.#builds.acquire();
    try {
      await mkdir(path.dirname(logFile), { recursive: true });
      const log = createWriteStream(logFile, { flags: 'a' });
      try {
        this.o.log?.(`building ${tag} from ${what}`);
        // The benchmark's own image first, where it has a build: a sample's Dockerfile is often FROM it.
        const base = this.base.build && !isTemplate(this.base.image) ? this.base : undefined;
        await this.images.build(tag, dir, {
          timeoutMs: (timeoutS ?? this.o.buildTimeoutS) * 1000,
          benchmark: this.o.benchmark,
          ...(base ? { base: { image: base.image, build: base.build, network: buildNetworkOf(base) } } : {}),
          onProgress: (line) => log.write(line + '\n'),
          ...buildOptions,
        });
      } catch (err) {
        log.write(`\n${describe(err)}\n`);
        throw new Error(
          `the sandbox image of ${what} did not build: ${describe(err).split('\n').slice(-3).join(' ')} (log: ${path.relative(this.o.runDir, logFile)})`,
        );
      } finally {
        await new Promise((r) => log.end(r));
      }
    } finally {
      release();
    }
  }
}

/** The run's `[sandbox]` with the sample's keys over it, key by key; `workdir` the image's when asked. */
function specFor(base: SandboxSpec, own: SampleSandbox, image: string, imageWorkdir?: string): SandboxSpec {
  const { build: _build, build_timeout_s: _t, image: _i, workdir_from_image: fromImage, ...rest } = own;
  return {
    ...base,
    ...rest,
    image,
    build: undefined,
    ...(fromImage && !own.workdir ? { workdir: imageWorkdir || '/' } : {}),
  };
}

/** Whether a run needs the per-sample stage at all. */
export function bringsOwnSandbox(samples: Iterable<Sample>): boolean {
  for (const s of samples) if (s.sandbox || s.environment) return true;
  return false;
}
