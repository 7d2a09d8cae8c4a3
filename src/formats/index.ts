// The format registry (formats/types.ts): one line per format. The core asks these functions what a
// benchmark's format does; no module outside formats/ names a format.
import type { CheckConfig } from '../config/schema.ts';
import type { Exporter } from '../report/exporter.ts';
import type { EvaluationReport } from '../report/types.ts';
import { harborFormat } from './harbor/format.ts';
import { plainFormat } from './plain/format.ts';
import { swebenchFormat } from './swebench/format.ts';
import type { Format, FolderReader, InitTemplate, PredictionsReader, RowsReader } from './types.ts';

export const FORMATS = {
  plain: plainFormat,
  harbor: harborFormat,
  swebench: swebenchFormat,
} satisfies Record<string, Format>;

const all = (): Array<[string, Format]> => Object.entries(FORMATS);

/** Every format's own check types (checks/index.ts adds them to the map). */
export const FORMAT_CHECKS = { ...swebenchFormat.checks };

/** The rows reader of `[dataset] format` (unset: a plain dataset); undefined for a name no format has. */
export function rowsReader(format: string | undefined): RowsReader | undefined {
  const name = format ?? 'plain';
  return Object.hasOwn(FORMATS, name) ? (FORMATS as Record<string, Format>)[name].rows : undefined;
}

/** The format that reads `dir` as a folder benchmark (it has no benchmark.toml), or null. */
export function folderReader(dir: string): FolderReader | null {
  for (const [, f] of all()) if (f.folders?.is(dir)) return f.folders;
  return null;
}

/** The formats whose checks the benchmark uses: a trial of it writes their files and carries their fields. */
export function formatsGrading(checks: ReadonlyArray<Pick<CheckConfig, 'type'>>): Format[] {
  const types = new Set(checks.map((c) => c.type));
  return all()
    .map(([, f]) => f)
    .filter((f) => Object.keys(f.checks ?? {}).some((t) => types.has(t)));
}

/** The run-level files of every format the report's checks belong to (`types`: the benchmark's check types, when known). */
export async function writeRunFiles(runDir: string, report: EvaluationReport, types?: string[]): Promise<void> {
  const checks = (types ?? report.checks.map((c) => c.type)).map((type) => ({ type }));
  for (const f of formatsGrading(checks)) await f.runFiles?.(runDir, report);
}

/** The reader of predictions files that `--agent predictions` grades. */
export function predictionsReader(): PredictionsReader {
  const f = all().find(([, x]) => x.predictions)?.[1];
  if (!f?.predictions) throw new Error('internal: no format reads predictions files');
  return f.predictions;
}

/** `benchrig export --format NAME` of each format that exports. */
export function formatExporters(): Record<string, Exporter> {
  return Object.fromEntries(all().flatMap(([name, f]) => (f.exporter ? [[name, f.exporter]] : [])));
}

/** `benchrig init --template NAME` of each format that has one. */
export function formatTemplates(): Record<string, InitTemplate> {
  return Object.fromEntries(all().flatMap(([name, f]) => (f.template ? [[name, f.template]] : [])));
}

/** How help text names the formats read from folders ("Harbor"). */
export const folderFormatTitles = (): string[] => all().flatMap(([, f]) => (f.folders ? [f.title] : []));
