// Which installed agent a run names: `--agent cli:<preset>`, or `[agent] name = "cli"` with
// `options.preset`, or a user-defined one from `[agent.options]` with the same fields as a preset.
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { BenchrigError } from '../../errors.ts';
import { importUserModule } from '../../loader/user-module.ts';
import type { Protocol } from '../../gateway/types.ts';
import { PRESETS } from './presets.ts';
import type { GatewayView, InstalledAgentSpec } from './types.ts';

export const isInstalledAgent = (name: string): boolean => name === 'cli' || name.startsWith('cli:');

const APIS: Protocol[] = ['chat', 'responses', 'messages'];

/**
 * A user-defined agent as a module (`[agent.options] module = "./my-cli.ts"`, relative to the working
 * directory): its default export has a preset's fields (functions included). Loaded once per process;
 * call this before `installedSpec` wherever the options may name one.
 */
export async function loadInstalledModule(options: Record<string, unknown>): Promise<void> {
  if (options.module === undefined) return;
  if (typeof options.module !== 'string' || options.module === '')
    throw new BenchrigError(
      'config',
      '[agent.options] module: a path to a module whose default export has the fields of a preset',
    );
  const file = moduleFile(options.module);
  if (modules.has(file)) return;
  if (!existsSync(file))
    throw new BenchrigError('config', `[agent.options] module: ${options.module} not found (looked at ${file})`);
  const m = (await importUserModule(file)) as { default?: unknown };
  const spec = m.default as Partial<InstalledAgentSpec> | undefined;
  const missing = ['name', 'package', 'api', 'command', 'env'].filter(
    (k) => spec?.[k as keyof InstalledAgentSpec] === undefined,
  );
  if (!spec || typeof spec !== 'object' || missing.length)
    throw new BenchrigError(
      'config',
      `[agent.options] module: ${options.module} must export default an installed agent (missing ${missing.join(', ') || 'a default export'})`,
    );
  if (!APIS.includes(spec.api as Protocol))
    throw new BenchrigError(
      'config',
      `[agent.options] module: ${options.module}: api must be one of ${APIS.join(', ')}`,
    );
  modules.set(file, {
    needsGlibc: true,
    unprivileged: true,
    multiTurn: false,
    collect: [],
    ...spec,
  } as InstalledAgentSpec);
}

const modules = new Map<string, InstalledAgentSpec>();
/** Workers share the main process's working directory, so a relative path names the same file everywhere. */
const moduleFile = (p: string) => (isAbsolute(p) ? p : resolve(process.cwd(), p));

/** The spec, with `[agent.options]` over the preset's fields; one clear message (exit 2) when wrong. */
export function installedSpec(name: string, options: Record<string, unknown>): InstalledAgentSpec {
  const presetName = name.startsWith('cli:')
    ? name.slice(4)
    : typeof options.preset === 'string'
      ? options.preset
      : undefined;
  const fromModule = typeof options.module === 'string' ? modules.get(moduleFile(options.module)) : undefined;
  if (options.module !== undefined && !fromModule) throw new Error('installedSpec: loadInstalledModule(options) first');
  const base = fromModule ?? (presetName === undefined ? undefined : PRESETS[presetName]);
  if (presetName !== undefined && !base)
    throw new BenchrigError(
      'usage',
      `unknown installed agent preset "${presetName}": use one of ${Object.keys(PRESETS).join(', ')} (cli:<preset>), or define one in [agent.options] (package, api, command)`,
    );
  const o = options;
  const bad = (key: string, what: string) => new BenchrigError('config', `[agent.options] ${key}: ${what}`);
  let spec: InstalledAgentSpec | undefined = base && { ...base };
  if (!spec) {
    // A user-defined agent: package "name@version", api, command (argv, "{prompt}" replaced).
    if (typeof o.package !== 'string' || !/^(@[^@/]+\/)?[^@]+@\d[^@]*$/.test(o.package))
      throw bad('package', 'set "name@version" (an exact version) or use --agent cli:<preset>');
    if (!APIS.includes(o.api as Protocol)) throw bad('api', `one of ${APIS.join(', ')}`);
    if (!Array.isArray(o.command) || !o.command.every((a) => typeof a === 'string'))
      throw bad('command', 'an array of strings, "{prompt}" where the instruction goes');
    const at = o.package.lastIndexOf('@');
    const argv = o.command;
    spec = {
      name: o.package.slice(0, at),
      package: { name: o.package.slice(0, at), version: o.package.slice(at + 1) },
      api: o.api as Protocol,
      needsGlibc: true,
      unprivileged: true,
      multiTurn: false,
      command: (prompt, _turn, gw) => argv.map((a) => fill(a, gw).replaceAll('{prompt}', prompt)),
      env: () => ({}),
      collect: [],
    };
  }
  if (o.env !== undefined) {
    if (!o.env || typeof o.env !== 'object' || Object.values(o.env).some((v) => typeof v !== 'string'))
      throw bad('env', 'a table of strings ({base_url}, {token}, {model} are replaced)');
    const own = o.env as Record<string, string>;
    const inner = spec.env;
    spec.env = (gw) => ({ ...inner(gw), ...Object.fromEntries(Object.entries(own).map(([k, v]) => [k, fill(v, gw)])) });
  }
  if (o.files !== undefined) {
    if (!o.files || typeof o.files !== 'object' || Object.values(o.files).some((v) => typeof v !== 'string'))
      throw bad('files', 'a table of path = content');
    const own = o.files as Record<string, string>;
    const inner = spec.files;
    spec.files = (gw) => ({
      ...inner?.(gw),
      ...Object.fromEntries(Object.entries(own).map(([k, v]) => [k, fill(v, gw)])),
    });
  }
  if (o.collect !== undefined) {
    if (!Array.isArray(o.collect) || !o.collect.every((a) => typeof a === 'string'))
      throw bad('collect', 'an array of paths under the home folder');
    spec.collect = o.collect;
  }
  if (o.user !== undefined) {
    if (o.user !== 'root' && o.user !== 'agent') throw bad('user', '"agent" (uid 1000, the default) or "root"');
    spec.unprivileged = o.user === 'agent';
  }
  if (o.multi_turn !== undefined) spec.multiTurn = o.multi_turn === true;
  return spec;
}

const fill = (s: string, gw: GatewayView) =>
  s.replaceAll('{base_url}', gw.baseUrl).replaceAll('{token}', gw.token).replaceAll('{model}', gw.model);
