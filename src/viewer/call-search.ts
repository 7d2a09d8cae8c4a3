// The search of a trial's model calls (docs/reports.md#the-trial-page): the calls whose messages or
// answer hold the text open, their matching messages unfold and are marked, the others dim; Enter
// goes to the next match.
import { attr, el } from './dom.ts';
import { messageSearchText, type CallIndex } from './calls.ts';
import { openCall } from './call-view.ts';
import { unfold } from './messages.ts';
import type { PageCall } from './types.ts';

export interface ShownCall {
  node: HTMLDetailsElement;
  call: PageCall;
}

function markMessages(d: HTMLDetailsElement, idx: CallIndex, q: string): void {
  for (const m of Array.from(d.querySelectorAll('.msg[data-key]'))) {
    const hit = q !== '' && messageSearchText(idx.message(m.getAttribute('data-key') || undefined)).indexOf(q) >= 0;
    m.classList.toggle('hit', hit);
    if (!hit) continue;
    unfold(m);
    const group = m.closest('details.earlier');
    if (group instanceof HTMLDetailsElement) group.open = true;
  }
}

/** The search box over `calls`; null when the trial has none. */
export function callSearch(calls: ShownCall[], idx: CallIndex): HTMLElement | null {
  if (!calls.length) return null;
  const input = el('input', null);
  input.type = 'search';
  input.id = 'call-search';
  input.placeholder = 'search the model calls';
  attr(input, 'aria-label', 'search the messages and answers of the model calls');
  const count = el('span', 'note', calls.length + ' model call(s) with messages: open one, or search them');
  count.id = 'call-search-count';
  let hits: ShownCall[] = [];
  let at = -1;
  input.addEventListener('input', () => {
    const q = input.value.trim().toLowerCase();
    hits = [];
    at = -1;
    for (const s of calls) {
      const hit = q !== '' && idx.text(s.call).indexOf(q) >= 0;
      s.node.classList.toggle('hit', hit);
      s.node.classList.toggle('miss', q !== '' && !hit);
      if (hit) {
        hits.push(s);
        openCall(s.node, s.call, idx);
      }
      if (s.node.querySelector('.call-body')) markMessages(s.node, idx, q);
    }
    count.textContent = q ? hits.length + ' of ' + calls.length + ' model call(s) match' : '';
  });
  input.addEventListener('keydown', (ev) => {
    if (ev.key !== 'Enter' || !hits.length) return;
    at = (at + 1) % hits.length;
    const n = hits[at].node.querySelector('.msg.hit') || hits[at].node;
    if (n.scrollIntoView) n.scrollIntoView({ block: 'center' });
    ev.preventDefault();
  });
  return el('div', 'controls call-search', [input, count]);
}
