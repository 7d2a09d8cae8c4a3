// A compose file checked against the official compose-spec JSON schema (vendored:
// src/environment/compose-spec/README.md), draft 2020-12, with ajv. The first error, at its path.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { ComposeProblem } from './problem.ts';

let validator: ValidateFunction | null = null;

function compiled(): ValidateFunction {
  if (validator) return validator;
  const file = new URL('../compose-spec/compose-spec.json', import.meta.url);
  const schema = JSON.parse(readFileSync(file, 'utf8')) as object;
  // ajv is loaded with the first compose file, not with every run (docs/performance.md).
  const { Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  // strict: false: the schema uses keywords ajv's strict mode does not know (`deprecated`…).
  validator = new Ajv2020({ strict: false, allErrors: false }).compile(schema);
  return validator;
}

/** Throws a ComposeProblem naming the first key that breaks the schema. */
export function validateCompose(doc: unknown): void {
  const validate = compiled();
  if (validate(doc)) return;
  const err = pickError(validate.errors ?? []);
  throw new ComposeProblem(dotted(err?.instancePath ?? ''), describe(err));
}

/** additionalProperties names the key; otherwise the deepest error says the most. */
function pickError(errors: ErrorObject[]): ErrorObject | undefined {
  return [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
}

function describe(err: ErrorObject | undefined): string {
  if (!err) return 'does not match the compose specification';
  const p = err.params as Record<string, unknown>;
  const extra = p.additionalProperty ?? p.unevaluatedProperty;
  if (typeof extra === 'string') return `unknown key "${extra}" (not in the compose specification)`;
  if (err.keyword === 'enum') return `must be one of ${JSON.stringify(p.allowedValues)}`;
  return `${err.message ?? 'is not valid'} (compose specification)`;
}

/** `/services/web/ports/0` → `services.web.ports[0]`. */
function dotted(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
}
