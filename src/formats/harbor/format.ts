// Harbor task folders as a format (docs/benchmarks.md#harbor-task-folders): a folder without
// benchmark.toml that is a task, or holds tasks, read as a benchmark graded by `reward`; `benchrig
// export --format harbor` writes a run as Harbor's job folder; `init --template harbor` makes a task.
import type { Format } from '../types.ts';
import { harborExporter } from './export.ts';
import { isHarborFolder } from './folder.ts';
import { harborTemplate } from './template.ts';

export const harborFormat = {
  title: 'Harbor',
  folders: {
    is: isHarborFolder,
    // Loaded only to read one: its compose tasks bring the compose-spec schema and its validator.
    async read(dir) {
      const { HARBOR_IMAGE, harborConfig, harborSample, readHarborTasks } = await import('./samples.ts');
      const path = await import('node:path');
      const tasks = readHarborTasks(dir);
      return {
        config: harborConfig(path.basename(dir)),
        samples: (notes) => tasks.map((t) => harborSample(t, dir, notes)),
        unknownKeys: tasks.flatMap((t) => t.unknownKeys.map((k) => `${t.id}/task.toml: ${k}`)),
        placeholderImage: HARBOR_IMAGE,
        source: 'harbor',
      };
    },
  },
  exporter: harborExporter,
  template: { help: 'a Harbor task folder', files: harborTemplate },
} satisfies Format;
