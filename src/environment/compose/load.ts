// A Harbor compose task's environment (docs/benchmarks.md#compose-tasks): its
// environment/docker-compose.yaml parsed (yaml), interpolated with Harbor's variables, checked
// against the compose specification, laid over Harbor's base, refused where it loosens the sandbox,
// and mapped to an EnvironmentSpec. Every problem is one load error naming the task, file and key.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { BenchrigError } from '../../errors.ts';
import { startOrder } from '../order.ts';
import type { EnvironmentSpec, NetworkSpec, ServiceSpec } from '../spec.ts';
import { harborBase, harborVariables, type HarborEnvironment } from './harbor-base.ts';
import { interpolate } from './interpolate.ts';
import { mapService } from './map-service.ts';
import { mergeCompose } from './merge.ts';
import { ignoredKeys } from './notes.ts';
import { ComposeProblem, flag, isMap } from './problem.ts';
import { refuseDocument, refuseService } from './refusals.ts';
import { validateCompose } from './schema.ts';

interface ComposeTask extends HarborEnvironment {
  taskDir: string;
  composeFile: string;
  /** `[environment] network_mode` is `public`: the environment may reach out. */
  internet: boolean;
}

interface LoadedEnvironment {
  spec: EnvironmentSpec;
  /** For `benchrig validate`: keys benchrig does not read (`services.web.ports (not published: …)`). */
  ignored: string[];
  /** For `benchrig validate`: variables and environment entries left without a value, each naming the key. */
  notes: string[];
}

export function loadComposeTask(t: ComposeTask): LoadedEnvironment {
  try {
    return composeEnvironment(t);
  } catch (err) {
    if (!(err instanceof ComposeProblem)) throw err;
    const where = err.key ? `: key ${err.key}` : '';
    throw new BenchrigError('benchmark', `task "${t.taskId}" (${t.composeFile})${where}: ${err.message}`);
  }
}

function composeEnvironment(t: ComposeTask): LoadedEnvironment {
  const raw = readYaml(t.composeFile);
  const { value, unset } = interpolate(raw, harborVariables(t));
  validateCompose(value);
  const doc = value as Record<string, unknown>;
  const main = mainService(doc);
  const merged = mergeCompose(harborBase(t, main), normalise(doc));
  refuseDocument(merged);
  const services = merged.services as Record<string, Record<string, unknown>>;
  const names = Object.keys(services);
  for (const name of names) refuseService(name, services[name], names);
  const notes = [
    ...unset.map((v) => `variable ${v} is not set: an empty string (the host's environment is not passed to a task)`),
  ];
  const declared = (k: string) => Object.keys(isMap(merged[k]) ? merged[k] : {});
  const ctx = {
    taskDir: t.taskDir,
    composeDir: path.dirname(t.composeFile),
    volumes: declared('volumes'),
    networks: declared('networks'),
    note: (n: string) => notes.push(n),
  };
  const specs: Record<string, ServiceSpec> = {};
  for (const name of names) specs[name] = mapService(name, services[name], ctx);
  builtByOthers(specs);
  if (!specs[main].image && !specs[main].build)
    throw new ComposeProblem(
      `services.${main}`,
      'the main service has neither image nor build (and the task neither docker_image nor environment/Dockerfile)',
    );
  const order = startOrder(specs);
  if ('problem' in order) throw new ComposeProblem('services', order.problem);
  return {
    spec: {
      main,
      services: specs,
      volumes: volumesOf(merged),
      networks: networksOf(merged, specs, t.internet),
      internet: t.internet,
      order: order.order,
    },
    ignored: ignoredKeys(doc, main),
    notes,
  };
}

/** A service whose `image` another service builds (its `build` and `image` both set) gets that build: the same image. */
function builtByOthers(specs: Record<string, ServiceSpec>): void {
  for (const s of Object.values(specs)) {
    if (s.build || !s.image) continue;
    const builder = Object.values(specs).find((b) => b.build && b.image === s.image);
    if (builder?.build) s.build = builder.build;
  }
}

function readYaml(file: string): unknown {
  // yaml is loaded with the first compose file, not with every run (docs/performance.md).
  const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  let doc: unknown;
  try {
    doc = parse(readFileSync(file, 'utf8'), { merge: true, maxAliasCount: 1000 });
  } catch (err) {
    throw new ComposeProblem('', `not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (!isMap(doc) || !isMap(doc.services))
    throw new ComposeProblem('services', 'a compose file needs a services table');
  return doc;
}

/** The main service: the one marked `x-default: true`, else `main`, else `default` (Inspect's name), else Harbor's `main`. */
function mainService(doc: Record<string, unknown>): string {
  const services = doc.services as Record<string, unknown>;
  const marked = Object.keys(services).filter((n) => isMap(services[n]) && flag(services[n]['x-default']));
  if (marked.length > 1)
    throw new ComposeProblem('services', `${marked.join(' and ')} are both marked x-default: one main service`);
  const main = marked[0] ?? (services.main ? 'main' : services.default ? 'default' : 'main');
  if (main !== 'main' && services.main)
    throw new ComposeProblem(`services.${main}`, `marked as the main service, but a service is named main too`);
  return main;
}

/** `build: ./dir` as `build: {context: ./dir}`, so that a merge sees one shape. */
function normalise(doc: Record<string, unknown>): Record<string, unknown> {
  const services = Object.fromEntries(
    Object.entries(doc.services as Record<string, unknown>).map(([n, s]) => [
      n,
      isMap(s) && typeof s.build === 'string' ? { ...s, build: { context: s.build } } : (s ?? {}),
    ]),
  );
  return { ...doc, services };
}

function volumesOf(doc: Record<string, unknown>): EnvironmentSpec['volumes'] {
  const table = isMap(doc.volumes) ? doc.volumes : {};
  return Object.fromEntries(Object.entries(table).map(([n, v]) => [n, { labels: labels(v) }]));
}

/** Declared networks, and `default` when a service is on it; internal when the task may not reach out. */
function networksOf(
  doc: Record<string, unknown>,
  specs: Record<string, ServiceSpec>,
  internet: boolean,
): Record<string, NetworkSpec> {
  const table = isMap(doc.networks) ? doc.networks : {};
  const out: Record<string, NetworkSpec> = {};
  const used = new Set(Object.values(specs).flatMap((s) => Object.keys(s.networks)));
  for (const n of new Set([...Object.keys(table), ...used])) {
    const v = table[n];
    out[n] = { internal: !internet || (isMap(v) && flag(v.internal)), labels: labels(v) };
  }
  return out;
}

const labels = (v: unknown): Record<string, string> =>
  isMap(v) && isMap(v.labels) ? Object.fromEntries(Object.entries(v.labels).map(([k, x]) => [k, String(x)])) : {};
