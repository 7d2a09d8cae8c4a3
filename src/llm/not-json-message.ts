// An answer from a model endpoint that is not JSON (an HTML error page, a proxy's plain-text 502, a web
// UI at the wrong address), reported with the URL, the status and the start of the body instead of
// JSON.parse's "Unexpected token '<'". Without the SDK: the check at load (run/model-check.ts) runs
// in the main thread, which loads the SDK only when a run calls a model.
/** How much of the body the message shows. */
const START = 200;

/** The body's first characters on one line, quoted. */
function bodyStart(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return '(an empty body)';
  return JSON.stringify(flat.length > START ? `${flat.slice(0, START)}…` : flat);
}

/** The one-line description: what was asked, the status and type of the answer, its start. */
export function notJsonMessage(method: string, url: string, status: number, contentType: string, text: string) {
  const type = contentType ? `${contentType.split(';')[0].trim()} ` : '';
  return `HTTP ${status} from ${method} ${url}, ${type}not JSON: ${bodyStart(text)}`;
}
