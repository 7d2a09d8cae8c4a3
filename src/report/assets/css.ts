// The one stylesheet of every benchrig page (run report, comparison, history, run list). Inlined
// and allowed by hash in each page's CSP. ASCII only, so the hash the server computes is the
// browser's. Status is always carried by text or a symbol too, never by colour alone.

export const PAGE_CSS = String.raw`
:root { --fg:#1f2328; --muted:#59636e; --line:#d1d9e0; --bg:#fff; --soft:#f6f8fa; --pass:#1a7f37; --fail:#cf222e; --warn:#9a6700; --info:#0969da; --tool:#8250df;
  --pass-bg:#dafbe1; --fail-bg:#ffebe9; --warn-bg:#fff8c5; --info-bg:#ddf4ff; --none-bg:#eaeef2; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header, main { max-width: 1240px; margin: 0 auto; padding: 0 16px; }
header { padding-top: 14px; border-bottom: 1px solid var(--line); }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 22px 0 8px; } h3 { font-size: 14px; margin: 14px 0 6px; }
a { color: var(--info); }
.sub { color: var(--muted); margin: 0 0 12px; overflow-wrap: anywhere; }
.mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.cards { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; min-width: 140px; background: var(--soft); }
.card .k { color: var(--muted); font-size: 12px; } .card .v { font-size: 20px; font-weight: 600; } .card .n { color: var(--muted); font-size: 12px; }
.gate { padding: 8px 12px; border-radius: 6px; margin: 8px 0; font-weight: 600; overflow-wrap: anywhere; }
.gate.pass { background: var(--pass-bg); color: var(--pass); } .gate.fail { background: var(--fail-bg); color: var(--fail); } .gate.none { background: var(--soft); color: var(--muted); }
table { border-collapse: collapse; width: 100%; margin: 4px 0 8px; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; white-space: nowrap; }
th.sortable { cursor: pointer; user-select: none; } th.sorted-asc::after { content: " \25B2"; } th.sorted-desc::after { content: " \25BC"; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr.clickable { cursor: pointer; } tbody tr.clickable:hover { background: #eef4fd; } tr.selected { background: var(--info-bg); }
.badge { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 12px; font-weight: 600; border: 1px solid currentColor; white-space: nowrap; }
.s-PASSED, .v-pass { color: var(--pass); } .s-FAILED, .s-TIMEOUT, .s-AGENT_ERROR, .v-fail { color: var(--fail); }
.s-SANDBOX_ERROR, .s-MODEL_ERROR, .s-UNGRADABLE, .s-AWAITING_REVIEW, .v-null { color: var(--warn); }
.controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; }
.controls label { color: var(--muted); } select, input, button { font: inherit; padding: 2px 8px; }
button { border: 1px solid var(--line); background: var(--soft); border-radius: 6px; cursor: pointer; }
button:hover:not(:disabled) { background: #eaeef2; } button.on { background: var(--info-bg); border-color: var(--info); }
kbd { font: 11px ui-monospace, monospace; border: 1px solid var(--line); border-bottom-width: 2px; border-radius: 4px; padding: 0 4px; background: #fff; }
.pager { display: flex; gap: 8px; align-items: center; color: var(--muted); }
.reason { color: var(--muted); max-width: 520px; overflow-wrap: anywhere; }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; margin: 4px 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 420px; overflow: auto; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
.kv th { width: 1%; white-space: nowrap; font-weight: 500; background: none; color: var(--muted); }
.kv { width: auto; min-width: 40%; }
.note { color: var(--muted); font-size: 12px; }
pre.diff span { display: block; } pre.diff .diff-add { background: var(--pass-bg); color: var(--pass); } pre.diff .diff-del { background: var(--fail-bg); color: var(--fail); }
pre.diff .diff-hunk { color: var(--info); } pre.diff .diff-file { font-weight: 600; }
.cut { color: var(--warn); font-size: 12px; }
ul.plain { margin: 4px 0; padding-left: 20px; }
details > summary { cursor: pointer; }
details.panel { border: 1px solid var(--line); border-radius: 6px; padding: 4px 10px; margin: 8px 0; }
details.panel > summary { font-weight: 600; color: var(--muted); }
[hidden] { display: none !important; }

/* charts */
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(380px, 1fr)); gap: 12px; margin: 12px 0; }
figure.chart { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; background: #fff; min-width: 0; }
figure.chart figcaption { font-weight: 600; font-size: 13px; margin-bottom: 4px; }
.plot-box { overflow: hidden; }
svg.plot { display: block; font: 12px system-ui, sans-serif; }
svg.plot text.value, svg.plot text.marker-label, svg.plot text.gate-label { paint-order: stroke; stroke: #fff; stroke-width: 3px; stroke-linejoin: round; }
svg.plot .version-mark { stroke: var(--muted); stroke-dasharray: 3 3; }
svg.plot text { fill: var(--fg); } svg.plot text.seg-label { fill: #fff; font-weight: 600; } svg.plot .axis { stroke: var(--line); } svg.plot text.muted { fill: var(--muted); }
svg.plot .bar-pass { fill: #2da44e; } svg.plot .bar-fail { fill: #fa4549; } svg.plot .bar-track { fill: #eaeef2; } svg.plot .bar-time { fill: #54aeff; }
svg.plot .whisker { stroke: var(--fg); stroke-width: 1.5; } svg.plot .marker { stroke-width: 1.5; stroke-dasharray: 4 3; }
svg.plot .p50 { stroke: var(--tool); } svg.plot .p95 { stroke: var(--fail); }
svg.plot .band { fill: #54aeff; fill-opacity: .25; } svg.plot .line { fill: none; stroke: var(--info); stroke-width: 2; }
svg.plot .line2 { fill: none; stroke: var(--tool); stroke-width: 2; stroke-dasharray: 6 3; } svg.plot .dot { fill: var(--info); } svg.plot .dot2 { fill: var(--tool); }
svg.plot .gate-line { stroke: var(--warn); stroke-dasharray: 2 3; }
.st-PASSED { fill: #2da44e; } .st-FAILED { fill: #fa4549; } .st-TIMEOUT { fill: #bc4c00; } .st-AGENT_ERROR { fill: #a40e26; }
.st-SANDBOX_ERROR { fill: #d4a72c; } .st-MODEL_ERROR { fill: #8250df; } .st-UNGRADABLE { fill: #bf8700; } .st-AWAITING_REVIEW { fill: #8c959f; }

.charts.wide { grid-template-columns: 1fr; }
/* the trial page */
#detail { margin: 12px 0 48px; }
.trial-head { position: sticky; top: 0; background: #fff; z-index: 2; padding: 10px 0 8px; border-bottom: 1px solid var(--line); }
.trial-head h2 { margin: 0 0 4px; display: flex; gap: 8px; align-items: center; flex-wrap: wrap; overflow-wrap: anywhere; }
.trial-nav { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; color: var(--muted); font-size: 12px; }
.trial-facts { color: var(--muted); font-size: 12px; margin-top: 4px; overflow-wrap: anywhere; }
.error-box { background: var(--fail-bg); color: var(--fail); border-radius: 6px; padding: 6px 10px; margin: 8px 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.timeline { margin: 10px 0; padding-left: 0; list-style: none; }
.step { position: relative; margin: 0 0 6px 0; padding: 4px 8px 4px 52px; border-radius: 6px; border: 1px solid transparent; }
.step .n { position: absolute; left: 6px; top: 5px; width: 38px; text-align: right; color: var(--muted); font: 11px ui-monospace, monospace; }
.step.current { border-color: var(--info); background: #f5faff; }
.turn { border-left: 3px solid var(--line); padding-left: 10px; }
.turn .who { font-size: 12px; font-weight: 600; margin-bottom: 2px; display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
.turn.user { border-color: var(--info); } .turn.user .who { color: var(--info); }
.turn.sim-user { border-color: #bf3989; } .turn.sim-user .who { color: #bf3989; }
.turn.agent { border-color: var(--pass); } .turn.agent .who { color: var(--pass); }
.turn .body { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 360px; overflow: auto; }
.tag { font-size: 11px; font-weight: 600; border-radius: 10px; padding: 0 6px; background: var(--soft); border: 1px solid var(--line); color: var(--muted); }
details.tool { border: 1px solid var(--line); border-left: 3px solid var(--tool); border-radius: 6px; background: #fbfaff; }
details.tool > summary { padding: 3px 8px; display: flex; gap: 8px; align-items: baseline; list-style: none; overflow: hidden; }
details.tool > summary::before { content: "\25B8"; color: var(--muted); } details.tool[open] > summary::before { content: "\25BE"; }
details.tool > summary .tool-name { font-weight: 600; color: var(--tool); }
details.tool > summary .cmd { font-family: ui-monospace, monospace; font-size: 12px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; flex: 1; min-width: 0; }
details.tool > summary .exit { font-size: 12px; white-space: nowrap; } .exit.ok { color: var(--pass); } .exit.bad { color: var(--fail); }
details.tool > summary .dur { font-size: 12px; color: var(--muted); white-space: nowrap; }
details.tool .tool-body { padding: 0 8px 6px; }
.marker-line { font-size: 12px; color: var(--muted); display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.marker-line .dotm { width: 8px; height: 8px; border-radius: 50%; background: #8c959f; display: inline-block; }
.marker-line.err { color: var(--fail); } .marker-line.warn { color: var(--warn); }
details.llm > summary { cursor: pointer; list-style: none; }
details.llm > summary::before { content: "\25B8"; color: var(--muted); font-size: 11px; } details.llm[open] > summary::before { content: "\25BE"; }
details.llm.miss > summary { opacity: .45; } details.llm.hit > summary { background: var(--warn-bg); border-radius: 4px; }
.err-text { color: var(--fail); }
.call-body { border-left: 3px solid #8c959f; margin: 4px 0 2px 3px; padding: 2px 0 2px 10px; }
.call-part { margin-top: 6px; font-weight: 600; }
details.earlier > summary { font-size: 12px; color: var(--muted); cursor: pointer; }
.msg { border: 1px solid var(--line); border-radius: 6px; padding: 3px 8px; margin: 4px 0; background: #fff; }
.msg.fresh { border-left: 3px solid var(--info); } .msg.answer { border-left: 3px solid var(--pass); } .msg.hit { outline: 2px solid var(--warn); }
.msg-head { display: flex; gap: 6px; align-items: baseline; font-size: 12px; flex-wrap: wrap; }
.msg-head .role { font-weight: 600; color: var(--muted); }
.tag.new { color: var(--info); border-color: var(--info); background: var(--info-bg); }
pre.msg-text.folded { max-height: 15em; overflow: hidden; }
button.unfold { font-size: 12px; padding: 0 6px; }
details.reasoning > summary { font-size: 12px; color: var(--muted); cursor: pointer; }
.msg-tool-call { border-left: 3px solid var(--tool); padding-left: 6px; margin: 4px 0; }
.call-search { margin: 4px 0 8px; } .call-search input { min-width: 280px; }
.verdict-row { display: flex; gap: 8px; align-items: baseline; padding: 4px 0; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
.verdict-row .vname { font-weight: 600; } .verdict-row .vreason { color: var(--muted); overflow-wrap: anywhere; flex-basis: 100%; padding-left: 4px; }
table.criteria { width: auto; min-width: 50%; margin: 4px 0 8px 16px; font-size: 13px; }

/* comparison */
table.matrix td.cell { text-align: center; cursor: pointer; font-weight: 600; font-size: 12px; white-space: nowrap; }
table.matrix td.cell:hover { outline: 2px solid var(--info); outline-offset: -2px; }
.c-passing { background: var(--pass-bg); color: var(--pass); } .c-failing { background: var(--fail-bg); color: var(--fail); }
.c-unanswered { background: var(--warn-bg); color: var(--warn); } .c-not_graded { background: var(--none-bg); color: var(--muted); } .c-absent { background: #fff; color: var(--muted); font-weight: 400; }
td.diff { font-size: 11px; color: var(--muted); white-space: nowrap; } td.diff-cell { min-width: 220px; } table.runs-table td.note { max-width: 200px; overflow-wrap: anywhere; }
table.answers { margin-bottom: 12px; } table.answers td:first-child { white-space: nowrap; } table.answers td.answer-cell { width: 45%; } table.answers tr.differs > td:first-child { color: var(--warn); font-weight: 600; }
button.answers { font-size: 11px; padding: 0 6px; margin-left: 6px; }
.legend { display: flex; gap: 12px; flex-wrap: wrap; font-size: 12px; color: var(--muted); align-items: center; }
.legend span.sw { display: inline-block; padding: 0 6px; border-radius: 4px; font-weight: 600; }
`;
