// One message of a model call on the trial page: who wrote it, its text (folded when long, the
// whole text still in the page for the browser's find), its reasoning, the tool calls it asked for.
// Text only, as every node of these pages: a message of `</script>` shows as those characters.
import { attr, el, pre } from './dom.ts';
import type { PageMessage } from './types.ts';

/** Past this many characters or lines a message is folded to its first lines. */
const FOLD_CHARS = 1200;
const FOLD_LINES = 16;

function lineCount(s: string): number {
  let n = 1;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** The text of a message, folded with a button to unfold it when it is long. */
function foldedText(text: string): HTMLElement[] {
  const p = pre(text);
  p.className = 'msg-text';
  const lines = lineCount(text);
  if (text.length <= FOLD_CHARS && lines <= FOLD_LINES) return [p];
  p.classList.add('folded');
  const b = el('button', 'unfold', 'show all (' + text.length + ' characters, ' + lines + ' lines)');
  b.addEventListener('click', () => unfold(p.parentElement));
  return [p, b];
}

/** Shows a message's whole text (a search hit, or its button clicked). */
export function unfold(msg: Element | null): void {
  if (!msg) return;
  const p = msg.querySelector('pre.msg-text.folded');
  if (p) p.classList.remove('folded');
  const b = msg.querySelector('button.unfold');
  if (b) b.remove();
}

function toolCallNode(c: { id: string; name: string; arguments: string }): HTMLElement {
  let args = c.arguments;
  try {
    args = JSON.stringify(JSON.parse(c.arguments), null, 2);
  } catch {
    // not JSON: shown as the model sent it
  }
  const n = el('div', 'msg-tool-call', [
    el('div', 'note', ['tool call ', el('b', null, c.name), c.id ? ' \u00b7 ' + c.id : '']),
    pre(args),
  ]);
  attr(n, 'data-tool', c.name);
  return n;
}

interface MessageOptions {
  /** New since the previous call of the same caller. */
  fresh?: boolean;
  /** The call's answer. */
  answer?: boolean;
}

/** A message of the transcript; a key the transcript lacks shows as such. */
export function messageNode(key: string, m: PageMessage | undefined, o: MessageOptions = {}): HTMLElement {
  if (!m) return attr(el('div', 'msg missing note', 'message ' + key + ' is not in the transcript'), 'data-key', key);
  const role = String(m.role);
  const head: unknown[] = [el('span', 'role', role)];
  if (m.name) head.push(el('span', 'mono', m.name));
  if (m.tool_call_id) head.push(el('span', 'note', 'result of ' + m.tool_call_id));
  if (o.fresh) head.push(el('span', 'tag new', 'new'));
  if (m.truncated) head.push(el('span', 'cut', 'stored cut from ' + m.truncated.original_chars + ' characters'));
  const box = el(
    'div',
    'msg role-' + role.replace(/[^a-z_]/g, '') + (o.fresh ? ' fresh' : '') + (o.answer ? ' answer' : ''),
  );
  attr(box, 'data-key', key);
  attr(box, 'data-role', role);
  box.appendChild(el('div', 'msg-head', head));
  if (m.reasoning) {
    const r = el('details', 'reasoning', el('summary', null, 'reasoning (' + m.reasoning.length + ' characters)'));
    r.appendChild(pre(m.reasoning));
    box.appendChild(r);
  }
  if (m.text || !(m.tool_calls && m.tool_calls.length)) for (const n of foldedText(m.text)) box.appendChild(n);
  for (const c of m.tool_calls || []) box.appendChild(toolCallNode(c));
  return box;
}
