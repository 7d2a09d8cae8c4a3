// The shape of the official test-command table (specs.generated.ts; docs/swebench.md#eval-scripts).

/** What an eval script needs of one repository version's official specs. */
export interface OfficialSpec {
  test_cmd?: string | string[];
  eval_commands?: string[];
  install?: string;
  build?: string[];
}

/** Repository → its language's file extension and its versions' specs. */
export type OfficialSpecs = Record<string, { ext: string; versions: Record<string, OfficialSpec> }>;
