// A model call on the trial page (docs/reports.md#the-trial-page): its marker line opens to the
// messages it was sent and the answer it got. The messages the previous call of the same caller
// already had are folded into one group; the new ones are marked. Built when first opened: a trial
// of a hundred calls renders its timeline without a hundred bodies.
import { append, attr, el, panel, textOf, value } from './dom.ts';
import { sourceLabel, type CallIndex } from './calls.ts';
import { messageNode } from './messages.ts';
import type { PageCall, TrialEvent } from './types.ts';

/** The summary line of a model call: who, the model, latency, tokens (the trajectory's marker). */
export function callSummary(e: TrialEvent, c: PageCall | undefined, extra: Record<string, unknown> | null): unknown[] {
  const role = c ? sourceLabel(c.source) : e.role === 'user' ? 'simulated user' : e.role || 'agent';
  const parts: unknown[] = [
    el('span', 'dotm'),
    el('span', null, 'model call'),
    el('b', null, role),
    el('span', 'mono', String(e.model)),
    el('span', 'latency', e.latency_ms === undefined ? '' : textOf(e.latency_ms) + ' ms'),
    el('span', 'tokens', e.tokens ? e.tokens.input + ' in / ' + e.tokens.output + ' out tokens' : ''),
  ];
  // A call's price: null is a model without a price (docs/agents.md#cost), said in words.
  if ('cost_usd' in e)
    parts.push(el('span', 'note', typeof e.cost_usd === 'number' ? '$' + e.cost_usd.toFixed(4) : 'unpriced'));
  if (extra) parts.push(el('span', 'note', JSON.stringify(extra)));
  if (e.error) parts.push(el('span', 'err-text', 'error: ' + textOf(e.error)));
  return parts;
}

/** The input: earlier messages folded in runs, new ones marked. */
function inputNodes(c: PageCall, idx: CallIndex): Node[] {
  const fresh = idx.fresh(c);
  const marked = idx.hasPrevious(c);
  const out: Node[] = [];
  let earlier: HTMLDetailsElement | null = null;
  let n = 0;
  for (const k of c.input) {
    const node = messageNode(k, idx.message(k), { fresh: marked && fresh[k] });
    if (marked && !fresh[k]) {
      if (!earlier) {
        earlier = el('details', 'earlier', el('summary', null, ''));
        out.push(earlier);
        n = 0;
      }
      earlier.appendChild(node);
      const s = earlier.firstElementChild;
      if (s) s.textContent = ++n + ' message(s) the previous call already had';
      continue;
    }
    earlier = null;
    out.push(node);
  }
  return out;
}

function answerNodes(c: PageCall, idx: CallIndex): Node[] {
  const out: Node[] = [];
  if (c.output) {
    const facts: string[] = [];
    if (c.output.finish_reason) facts.push('finish reason ' + c.output.finish_reason);
    const u = c.output.usage;
    if (u)
      facts.push(
        Object.keys(u)
          .map((k) => k + ' ' + textOf(u[k]))
          .join(', ') + ' tokens',
      );
    out.push(messageNode(c.output.message, idx.message(c.output.message), { answer: true }));
    if (facts.length) out.push(el('div', 'note', facts.join(' \u00b7 ')));
  } else if (!c.error && !c.metadata_only) out.push(el('div', 'note', 'no answer'));
  if (c.error)
    out.push(
      el('div', 'error-box', (c.error.status === undefined ? '' : 'HTTP ' + c.error.status + ': ') + c.error.body),
    );
  return out;
}

/** What was asked of the model besides the messages: API, tools offered, parameters. */
function requestPanel(c: PageCall, idx: CallIndex): HTMLDetailsElement {
  const req: Record<string, unknown> = { api: c.api, model: c.model, started: c.started_at };
  if (c.params) req.params = c.params;
  const sets = idx.transcript.tool_sets || [];
  if (c.tools !== undefined && sets[c.tools]) req.tools = sets[c.tools];
  return panel('request: API, parameters, tools offered', value(req));
}

function callBody(c: PageCall, idx: CallIndex): HTMLElement {
  const body = el('div', 'call-body');
  if (c.metadata_only)
    body.appendChild(el('p', 'cut', "past the trial's transcript bound: only this call's facts were kept"));
  append(body, [el('div', 'note call-part', 'messages sent (' + c.input.length + ')'), inputNodes(c, idx)]);
  append(body, [el('div', 'note call-part', 'answer'), answerNodes(c, idx)]);
  body.appendChild(requestPanel(c, idx));
  return body;
}

/** Opens a call's node, building its body first if it has none. */
export function openCall(d: HTMLDetailsElement, c: PageCall, idx: CallIndex): void {
  if (!d.querySelector('.call-body')) d.appendChild(callBody(c, idx));
  d.open = true;
}

/** The call of an llm_call event, folded to its marker line. */
export function callNode(
  e: TrialEvent,
  c: PageCall,
  idx: CallIndex,
  extra: Record<string, unknown> | null,
): HTMLDetailsElement {
  const d = el('details', 'llm' + (e.error ? ' err' : ''));
  attr(d, 'data-call', c.id);
  attr(d, 'data-source', c.source);
  d.appendChild(el('summary', 'marker-line' + (e.error ? ' err' : ''), callSummary(e, c, extra)));
  d.addEventListener('toggle', () => {
    if (d.open) openCall(d, c, idx);
  });
  return d;
}
