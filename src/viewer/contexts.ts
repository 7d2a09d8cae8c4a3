// A `retrieved` event on the trial page (docs/agents.md#retrieved-contexts): what the agent
// retrieved, ranked best first, with where it came from (its reply, or a tool it recorded).
import { attr, el, fmt, isRecord, pre, textOf } from './dom.ts';
import type { TrialEvent } from './types.ts';

function sourceOf(e: TrialEvent): string {
  if (e.source === 'reply') return 'reply' + (typeof e.turn === 'number' ? ' of turn ' + e.turn : '');
  return typeof e.tool === 'string' ? 'tool ' + e.tool : 'recorded by the agent';
}

export function retrievedNode(e: TrialEvent): HTMLDetailsElement {
  const list = Array.isArray(e.contexts) ? e.contexts.filter(isRecord) : [];
  const ids = list.map((c) => textOf(c.id ?? '')).filter((x) => x !== '');
  const more: string[] = [];
  if (typeof e.dropped === 'number' && e.dropped > 0) more.push(e.dropped + ' more not kept');
  if (typeof e.cut === 'number' && e.cut > 0) more.push(e.cut + ' text(s) cut');
  const d = el('details', 'tool retrieved');
  d.appendChild(
    el('summary', null, [
      el('span', 'tool-name', 'retrieved'),
      el(
        'span',
        'cmd',
        list.length + ' context(s) \u00b7 ' + sourceOf(e) + (ids.length ? ' \u00b7 ' + ids.join(', ') : ''),
      ),
    ]),
  );
  const t = el(
    'table',
    'criteria contexts',
    el('tr', null, [el('th', 'num', 'rank'), el('th', null, 'id'), el('th', 'num', 'score'), el('th', null, 'text')]),
  );
  list.forEach((c, i) => {
    const tr = el('tr', null, [
      el('td', 'num', String(i + 1)),
      el('td', 'mono', textOf(c.id ?? '')),
      el('td', 'num', c.score === undefined ? '' : fmt(c.score, 3)),
      el('td', null, pre(c.text)),
    ]);
    attr(tr, 'data-rank', i + 1);
    t.appendChild(tr);
  });
  d.appendChild(el('div', 'tool-body', [t, more.length ? el('div', 'note', more.join(', ')) : null]));
  return d;
}
