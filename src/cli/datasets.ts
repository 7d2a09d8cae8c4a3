// `benchrig datasets list|show` (docs/cli.md#datasets): what a registry holds, read as `run NAME@VERSION` reads it.
import type { Command } from 'commander';
import { REGISTRY_FORMAT, registryDatasets } from '../benchmark/registry.ts';

const print = (line: string) => process.stdout.write(line + '\n');

export function registerDatasets(program: Command): void {
  const datasets = program.command('datasets').description(`a registry's datasets (${REGISTRY_FORMAT})`);
  const registryOpt = ['--registry <url|file>', 'the registry (over BENCHRIG_REGISTRY and [registry] url)'] as const;
  datasets
    .command('list')
    .description('every dataset and version of the registry, newest version first')
    .option(...registryOpt)
    .option('--config <file>', 'an extra TOML layer')
    .action(async (o: { registry?: string; config?: string }) => {
      const { source, datasets: all } = await registryDatasets(opts(o));
      print(`registry ${source}`);
      const w = Math.max(7, ...all.map((d) => `${d.name}@${d.version}`.length));
      print(`${'DATASET'.padEnd(w)}  TASKS  DESCRIPTION`);
      for (const d of all)
        print(`${`${d.name}@${d.version}`.padEnd(w)}  ${String(d.tasks.length).padStart(5)}  ${d.description ?? ''}`);
    });
  datasets
    .command('show')
    .description('one dataset version: its tasks, each with its repository, commit and path')
    .argument('<name[@version]>')
    .option(...registryOpt)
    .option('--config <file>', 'an extra TOML layer')
    .action(async (ref: string, o: { registry?: string; config?: string }) => {
      const { source, find } = await registryDatasets(opts(o));
      const d = find(ref);
      print(`${d.name}@${d.version}  (${d.tasks.length} tasks, registry ${source})`);
      if (d.description) print(d.description);
      for (const t of d.tasks) print(`  ${t.name}  ${t.git_url}  ${t.git_commit_id ?? 'head'}  ${t.path}`);
    });
}

function opts(o: { registry?: string; config?: string }) {
  return {
    cwd: process.cwd(),
    env: process.env,
    configFile: o.config,
    flags: o.registry ? { registry: { url: o.registry } } : undefined,
  };
}
