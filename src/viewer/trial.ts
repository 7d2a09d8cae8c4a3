// The trial page shared by report.html and the comparison page: the trajectory first, verdicts at
// the end, metadata folded away; keyboard stepping through steps and deep links in the hash.
import {
  append,
  attr,
  badge,
  clear,
  el,
  fmt,
  isRecord,
  panel,
  pre,
  secs,
  textOf,
  typingInField,
  value,
  verdict,
} from './dom.ts';
import { retrievedNode } from './contexts.ts';
import { indexCalls, type CallIndex } from './calls.ts';
import { callNode, callSummary } from './call-view.ts';
import { callSearch, type ShownCall } from './call-search.ts';
import type { CheckVerdict, PageTrial, TrialEvent } from './types.ts';

/** What rendering the steps carries along: the simulated user's turns so far, the trial's model calls. */
interface StepContext {
  userTurns: number;
  calls: CallIndex | null;
  /** The calls shown so far, for the search. */
  shown: ShownCall[];
}

/** One step of the trajectory: a tool call and its result are one step. */
export interface Step {
  kind: string;
  /** The event (for a tool step, its call); none for a result without a call. */
  event: TrialEvent | null;
  call: TrialEvent | null;
  result: TrialEvent | null;
  /** Step numbers of its first and last events. */
  first: number;
  last: number;
  node?: HTMLLIElement;
}

export interface TrialView {
  steps: Step[];
  nodes: HTMLLIElement[];
  /** Index of the current step; -1 or undefined for none. */
  current?: number;
}

interface TrialNav {
  pos: number;
  total: number;
  label?: string;
  prev(): void;
  next(): void;
  close(): void;
}

function firstLine(text: unknown): string {
  const s = textOf(text === undefined || text === null ? '' : text);
  const i = s.indexOf('\n');
  return i < 0 ? s : s.slice(0, i) + ' \u2026';
}

/** The arguments as text (undefined, for none: an empty <pre>). */
const argsText = (args: unknown): string | undefined =>
  typeof args === 'string' ? args : JSON.stringify(args, null, 2);

function commandOf(args: unknown): string {
  if (typeof args === 'string') return args;
  if (!args || typeof args !== 'object') return String(args);
  const a = args as Record<string, unknown>;
  for (const k of ['command', 'cmd', 'code', 'query', 'path', 'answer', 'input']) {
    const v = a[k];
    if (typeof v === 'string') return v;
  }
  return JSON.stringify(args);
}

/**
 * Events grouped into steps: a tool call and its result are one step (paired by id, else by the
 * next result of the same tool). Each step keeps the step numbers of its events.
 */
function stepsOf(events: TrialEvent[]): Step[] {
  const steps: Step[] = [];
  const openCalls: Step[] = [];
  for (const e of events) {
    if (e.type === 'tool_result') {
      const i = openCalls.findIndex((c) => (e.id && c.call?.id === e.id) || (!e.id && c.call?.tool === e.tool));
      if (i >= 0) {
        const c = openCalls[i];
        c.result = e;
        c.last = e.step;
        openCalls.splice(i, 1);
        continue;
      }
      steps.push({ kind: 'tool', event: null, call: null, result: e, first: e.step, last: e.step });
      continue;
    }
    const isCall = e.type === 'tool_call';
    const s: Step = {
      kind: isCall ? 'tool' : e.type,
      event: e,
      call: isCall ? e : null,
      result: null,
      first: e.step,
      last: e.step,
    };
    steps.push(s);
    if (isCall) openCalls.push(s);
  }
  return steps;
}

/** The fields of `e` not in `known`, or null when there are none. */
function rest(e: Record<string, unknown>, known: string[]): Record<string, unknown> | null {
  let out: Record<string, unknown> | null = null;
  for (const k of Object.keys(e)) {
    if (known.indexOf(k) < 0) {
      out = out || {};
      out[k] = e[k];
    }
  }
  return out;
}

function exitOf(res: TrialEvent | null): HTMLSpanElement {
  if (!res) return el('span', 'exit bad', 'no result');
  if (res.denied) return el('span', 'exit bad', 'denied');
  if (res.error) return el('span', 'exit bad', 'error');
  if (res.exit_code === undefined) return el('span', 'exit', 'done');
  return el('span', 'exit ' + (res.exit_code === 0 ? 'ok' : 'bad'), 'exit ' + textOf(res.exit_code));
}

function toolStep(s: Step): HTMLDetailsElement {
  const call = s.call;
  const res = s.result;
  const tool = (call || res)?.tool;
  const d = el('details', 'tool');
  const dur =
    call && res && typeof call.ts === 'number' && typeof res.ts === 'number' ? secs(Math.max(0, res.ts - call.ts)) : '';
  d.appendChild(
    el('summary', null, [
      el('span', 'tool-name', tool),
      el('span', 'cmd', call ? firstLine(commandOf(call.args)) : ''),
      exitOf(res),
      el('span', 'dur', dur),
    ]),
  );
  const body = el('div', 'tool-body');
  if (call) append(body, [el('div', 'note', 'arguments'), pre(argsText(call.args))]);
  if (res) {
    if (res.error) body.appendChild(el('div', 'error-box', res.error));
    append(body, [el('div', 'note', 'output'), pre(res.output)]);
    const extra = rest(res, ['type', 'step', 'ts', 'tool', 'exit_code', 'output', 'denied', 'id', 'error']);
    if (extra) body.appendChild(value(extra));
  }
  d.appendChild(body);
  return d;
}

function eventNode(e: TrialEvent, ctx: StepContext): HTMLElement {
  if (e.type === 'user_message') {
    const sim = ctx.userTurns++ > 0;
    return el('div', 'turn ' + (sim ? 'sim-user' : 'user'), [
      el(
        'div',
        'who',
        sim
          ? ['simulated user', el('span', 'tag', 'turn ' + ctx.userTurns)]
          : ['user', el('span', 'tag', 'task prompt')],
      ),
      el('div', 'body', e.content),
    ]);
  }
  if (e.type === 'agent_message') {
    const flags: HTMLElement[] = [];
    if (e.done) flags.push(el('span', 'tag', 'done'));
    if (e.blocked) flags.push(el('span', 'tag', 'blocked'));
    return el('div', 'turn agent', [el('div', 'who', ['agent', ...flags]), el('div', 'body', e.content)]);
  }
  if (e.type === 'llm_call') {
    const extra = rest(e, ['type', 'step', 'ts', 'role', 'model', 'latency_ms', 'tokens', 'error', 'call', 'cost_usd']);
    const c = ctx.calls ? ctx.calls.call(e.call) : undefined;
    if (c && ctx.calls) {
      const d = callNode(e, c, ctx.calls, extra);
      ctx.shown.push({ node: d, call: c });
      return d;
    }
    return el('div', 'marker-line' + (e.error ? ' err' : ''), callSummary(e, undefined, extra));
  }
  if (e.type === 'check') {
    return el('div', 'marker-line', [
      el('span', 'dotm'),
      el('span', null, 'check'),
      el('b', null, e.name),
      verdict(e.passed),
      el('span', 'reason', e.reason),
    ]);
  }
  if (e.type === 'log') {
    return el('div', 'marker-line' + (e.level === 'error' ? ' err' : e.level === 'warn' ? ' warn' : ''), [
      el('span', 'dotm'),
      el('span', null, 'log ' + String(e.level)),
      el('span', null, e.message),
    ]);
  }
  if (e.type === 'retrieved') return retrievedNode(e);
  if (e.type === 'cut') return el('div', 'cut', e.message);
  // an event kind this page does not know (newer harness): its type and every field, as text
  const r = rest(e, ['type', 'step', 'ts']);
  return el('details', 'tool', [
    el('summary', null, [
      el('span', 'tool-name', String(e.type).replace(/_/g, ' ')),
      el('span', 'cmd', r ? firstLine(JSON.stringify(r)) : ''),
    ]),
    el('div', 'tool-body', r ? value(r) : null),
  ]);
}

function stepNode(s: Step, ctx: StepContext): HTMLLIElement {
  const box = s.kind === 'tool' || !s.event ? toolStep(s) : eventNode(s.event, ctx);
  const li = el('li', 'step', [el('span', 'n', String(s.first)), box]);
  attr(li, 'data-step', s.first);
  attr(li, 'data-kind', s.kind);
  const ts = (s.event || s.call || s.result)?.ts;
  if (typeof ts === 'number') li.title = 't = ' + ts.toFixed(2) + 's';
  return li;
}

function criteriaTable(details: Record<string, unknown> | undefined): HTMLTableElement | null {
  const scores = details && details.scores;
  if (!isRecord(scores)) return null;
  const t = el(
    'table',
    'criteria',
    el('tr', null, [el('th', null, 'criterion'), el('th', 'num', 'score'), el('th', null, 'reasoning')]),
  );
  for (const k of Object.keys(scores)) {
    const s = scores[k];
    const o = typeof s === 'object' && s !== null ? (s as Record<string, unknown>) : null;
    const sc = o ? o.score : s;
    const tr = el('tr', null, [
      el('td', null, k),
      el('td', 'num', fmt(sc, 2)),
      el('td', 'reason', o ? o.reasoning || o.reason || '' : ''),
    ]);
    attr(tr, 'data-criterion', k);
    t.appendChild(tr);
  }
  return t;
}

function verdicts(checks: CheckVerdict[]): HTMLDivElement {
  const box = el('div', 'verdicts');
  if (!checks.length) {
    box.appendChild(el('p', 'note', 'no verdicts'));
    return box;
  }
  for (const c of checks) {
    const row = el('div', 'verdict-row', [
      verdict(c.passed),
      el('span', 'vname', c.name),
      el('span', 'note', c.type + ' \u00b7 score ' + fmt(c.score, 3)),
      el('span', 'vreason', c.reason),
    ]);
    attr(row, 'data-check', c.name);
    box.appendChild(row);
    const ct = criteriaTable(c.details);
    if (ct) box.appendChild(ct);
    if (c.details && Object.keys(c.details).length) {
      const other = rest(c.details, ct ? ['scores'] : []);
      if (other) box.appendChild(panel('details of ' + c.name, value(other)));
    }
  }
  return box;
}

function artifact(name: string, a: unknown): HTMLDetailsElement {
  const out: Node[] = [];
  if (isRecord(a) && ('stdout' in a || 'stderr' in a)) {
    out.push(
      el(
        'div',
        'note',
        'exit code ' +
          (a.exit_code === undefined ? 'n/a' : textOf(a.exit_code)) +
          (a.timed_out ? ', timed out' : '') +
          (a.truncated ? ', truncated' : ''),
      ),
    );
    out.push(el('div', 'note', 'stdout'), pre(a.stdout || ''));
    if (a.stderr) out.push(el('div', 'note', 'stderr'), pre(a.stderr));
  } else out.push(value(a));
  return panel('artifact ' + name, out);
}

const causeText = (cause: unknown): string => (typeof cause === 'string' ? cause : String(JSON.stringify(cause)));

/** The trial page's head: its task, status and score, the navigation, its facts. */
function trialHead(t: PageTrial, nav: TrialNav): HTMLElement {
  const md = t.metadata || {};
  const head = el('div', 'trial-head');
  const h = el('h2', null, [el('span', 'mono', t.task_id), badge(t.status)]);
  if (t.score !== null && t.score !== undefined) h.appendChild(el('span', 'note', 'score ' + fmt(t.score, 3)));
  head.appendChild(h);
  const back = el('button', 'close', '\u2190 back');
  const prev = el('button', 'prev', '\u2191 previous');
  const next = el('button', 'next', 'next \u2193');
  back.addEventListener('click', () => nav.close());
  prev.addEventListener('click', () => nav.prev());
  next.addEventListener('click', () => nav.next());
  prev.disabled = !(nav.pos > 0);
  next.disabled = !(nav.pos >= 0 && nav.pos < nav.total - 1);
  head.appendChild(
    el('div', 'trial-nav', [
      back,
      prev,
      next,
      nav.pos >= 0
        ? el('span', 'pos', 'trial ' + (nav.pos + 1) + ' of ' + nav.total + ' ' + (nav.label || 'in the filter'))
        : el('span', 'pos', 'not in the current filter'),
      el('span', null, [
        'keys: ',
        el('kbd', null, 'j'),
        '/',
        el('kbd', null, 'k'),
        ' trial, ',
        el('kbd', null, '['),
        '/',
        el('kbd', null, ']'),
        ' step',
      ]),
    ]),
  );
  const facts = ['sample ' + t.sample_id, 'trial ' + t.trial, 'stop ' + t.stop_reason, secs(t.execution_time_s)];
  if (md.llm_calls !== undefined) facts.push(md.llm_calls + ' model call(s)');
  if (md.tokens) facts.push(md.tokens.input + ' in / ' + md.tokens.output + ' out tokens');
  if (md.cost_usd !== undefined && md.cost_usd !== null) facts.push('$' + Number(md.cost_usd).toFixed(4));
  if (md.limit && md.limit.kind)
    facts.push('limit ' + md.limit.kind + ' ' + String(md.limit.value) + '/' + String(md.limit.limit));
  head.appendChild(el('div', 'trial-facts', facts.join(' \u00b7 ')));
  if (t.reason) head.appendChild(el('div', 'trial-facts reason-line', t.reason));
  return head;
}

/** The trajectory's steps as a timeline (the prompt and response first and last when no event holds them). */
function timeline(t: PageTrial, events: TrialEvent[], hasUser: boolean, hasAgent: boolean) {
  const tl = el('ol', 'timeline');
  if (!hasUser && t.prompt)
    tl.appendChild(
      el(
        'li',
        'step',
        el('div', 'turn user', [
          el('div', 'who', ['user', el('span', 'tag', 'task prompt')]),
          el('div', 'body', t.prompt),
        ]),
      ),
    );
  const steps = stepsOf(events);
  const ctx: StepContext = { userTurns: 0, calls: t.transcript ? indexCalls(t.transcript) : null, shown: [] };
  const nodes: HTMLLIElement[] = [];
  for (const s of steps) {
    const n = stepNode(s, ctx);
    s.node = n;
    nodes.push(n);
    tl.appendChild(n);
  }
  if (steps.length === 0) tl.appendChild(el('li', 'note', 'no events recorded'));
  if (!hasAgent && t.response)
    tl.appendChild(
      el(
        'li',
        'step',
        el('div', 'turn agent', [
          el('div', 'who', ['agent', el('span', 'tag', 'final response')]),
          el('div', 'body', t.response),
        ]),
      ),
    );
  return { tl, steps, nodes, ctx };
}

/** The trial page into root. */
export function renderTrial(root: HTMLElement, t: PageTrial, nav: TrialNav): TrialView {
  clear(root);
  const md = t.metadata || {};
  root.appendChild(trialHead(t, nav));
  const err = t.error;
  if (err)
    root.appendChild(
      el('div', 'error-box', [
        el('b', null, String(err.kind)),
        ': ' + String(err.message) + (err.cause ? '\n' + causeText(err.cause) : ''),
      ]),
    );
  if (t.cut) root.appendChild(el('p', 'cut', t.cut));

  const events = t.events || [];
  root.appendChild(el('h3', null, 'trajectory (' + events.length + ' events)'));
  const hasUser = events.some((e) => e.type === 'user_message');
  const hasAgent = events.some((e) => e.type === 'agent_message');
  const { tl, steps, nodes, ctx } = timeline(t, events, hasUser, hasAgent);
  if (ctx.calls) {
    const cut = ctx.calls.transcript.truncated;
    if (cut) root.appendChild(el('p', 'cut', 'transcript: ' + cut.reason));
    append(root, callSearch(ctx.shown, ctx.calls));
  }
  root.appendChild(tl);

  root.appendChild(el('h3', null, 'verdicts'));
  root.appendChild(verdicts(t.checks || []));
  if ((t.prompt !== undefined && hasUser) || (t.response !== undefined && hasAgent)) {
    const pr: Node[] = [];
    if (t.prompt !== undefined && hasUser) pr.push(el('div', 'note', 'prompt'), pre(t.prompt));
    if (t.response !== undefined && hasAgent)
      pr.push(el('div', 'note', 'response (what the checks graded)'), pre(t.response));
    root.appendChild(panel('prompt and graded response', pr));
  }
  const meta: Record<string, unknown> = {
    sample: t.sample_id,
    trial: t.trial,
    score: t.score,
    'stop reason': t.stop_reason,
    'trace id': t.trace_id,
    session: t.session_id,
    started: t.started_at,
    finished: t.finished_at,
  };
  for (const k of Object.keys(md)) meta[k.replace(/_/g, ' ')] = md[k];
  const mp = panel('metadata: timings, sandbox, ids', value(meta));
  mp.id = 'trial-meta';
  root.appendChild(mp);
  const artifacts = t.artifacts || {};
  for (const k of Object.keys(artifacts)) root.appendChild(artifact(k, artifacts[k]));
  if (t.final_state && Object.keys(t.final_state).length) root.appendChild(panel('final state', value(t.final_state)));
  if (t.extra && Object.keys(t.extra).length) root.appendChild(panel('other fields', value(t.extra), true));
  return { steps, nodes };
}

/** Makes step `index` (clamped) the current one and scrolls to it; its step number, or null. */
export function selectStep(view: TrialView | null, index: number): number | null {
  if (!view || !view.nodes.length) return null;
  const i = Math.max(0, Math.min(view.nodes.length - 1, index));
  for (const n of view.nodes) n.classList.remove('current');
  const n = view.nodes[i];
  n.classList.add('current');
  view.current = i;
  if (n.scrollIntoView) n.scrollIntoView({ block: 'center' });
  return view.steps[i].first;
}

/** The index of the step holding step number `stepNo` (the last one past the end). */
export function stepIndexOf(view: TrialView, stepNo: number): number {
  for (let i = 0; i < view.steps.length; i++) if (view.steps[i].last >= stepNo) return i;
  return view.steps.length - 1;
}

export function parseHash(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of String(location.hash || '')
    .replace(/^#/, '')
    .split('&')) {
    const i = kv.indexOf('=');
    if (i > 0) {
      try {
        out[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
      } catch {
        // a malformed link opens nothing
      }
    }
  }
  return out;
}

export function setHash(h: Record<string, string | number | null | undefined>): void {
  const s = Object.keys(h)
    .filter((k) => h[k] !== undefined && h[k] !== null)
    .map((k) => k + '=' + encodeURIComponent(String(h[k])))
    .join('&');
  if (history.replaceState) history.replaceState(null, '', s ? '#' + s : location.pathname + location.search);
}

/** How a page's trial view moves: j/k trial, [ ] step, Escape back to the list. */
export function stepKeys(keys: {
  move(d: number): void;
  moveStep(d: number): void;
  isOpen(): boolean;
  close(): void;
}): void {
  document.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || typingInField(ev)) return;
    if (ev.key === 'j') keys.move(1);
    else if (ev.key === 'k') keys.move(-1);
    else if (ev.key === ']') keys.moveStep(1);
    else if (ev.key === '[') keys.moveStep(-1);
    else if (ev.key === 'Escape' && keys.isOpen()) keys.close();
    else return;
    ev.preventDefault();
  });
}
