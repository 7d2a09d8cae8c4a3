// What is wrong with a compose file, at which key (`services.web.volumes[0]`); the loader
// (compose/load.ts) turns it into the load error that names the task and the file.
export class ComposeProblem extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(message);
    this.name = 'ComposeProblem';
  }
}

/** `services.web` + `volumes` → `services.web.volumes`; a number → `[n]`. */
export const keyPath = (at: string, k: string | number): string =>
  typeof k === 'number' ? `${at}[${k}]` : at ? `${at}.${k}` : k;

export const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A scalar as compose reads it (`8080`, `true`, `"x"`); anything else as JSON. */
export const text = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);

/** A compose boolean: `true`, or a string compose reads as true (`"true"`, `"yes"`, `"on"`…, as an interpolated value is). */
export const flag = (v: unknown): boolean =>
  v === true || (typeof v === 'string' && ['true', 'yes', 'y', 'on', '1'].includes(v.trim().toLowerCase()));

/** A compose boolean that is explicitly false (`false`, `"no"`…), for keys whose default is true. */
export const isFalse = (v: unknown): boolean =>
  v === false || (typeof v === 'string' && ['false', 'no', 'n', 'off', '0'].includes(v.trim().toLowerCase()));
