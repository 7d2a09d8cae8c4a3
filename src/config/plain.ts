// Which configuration keys are plain: their value is shown (run.json, `config show`) even when it
// came from an environment variable. Every other value that came from one may be a secret, whatever
// its key is called, and is shown as the string written (`"session=${MY_KEY}"`) instead.
// schema.ts marks the plain schemas; config/secrets.ts reads the marks.

/** true: plain (everything under it too, unless marked again); false: may be a secret. */
const marks = new WeakMap<object, boolean>();

/** Marks a schema (a key, or a whole table) as plain. Returns it, for use inside the schema. */
export function plain<T extends object>(schema: T): T {
  marks.set(schema, true);
  return schema;
}

/** Marks a schema inside a plain table as one whose value may be a secret. */
export function secret<T extends object>(schema: T): T {
  marks.set(schema, false);
  return schema;
}

export const markOf = (schema: unknown): boolean | undefined =>
  schema && typeof schema === 'object' ? marks.get(schema) : undefined;
