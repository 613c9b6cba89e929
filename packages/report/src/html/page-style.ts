/** The report's stylesheet, inlined in every page (the site is a folder of static files, no server). */
export const pageStyle = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
table.files { border-collapse: collapse; }
table.files td, table.files th { padding: 0.2em 0.8em; border-bottom: 1px solid #ddd; text-align: right; }
table.files td:first-child, table.files th:first-child { text-align: left; }
table.files th { cursor: pointer; user-select: none; white-space: nowrap; }
table.files th[aria-sort="ascending"]::after { content: " ▲"; } table.files th[aria-sort="descending"]::after { content: " ▼"; }
table.files small { color: #777; }
.high { color: #17803d; } .medium { color: #a15c00; } .low { color: #b42318; } .none { color: #777; }
.help { color: #555; } kbd { border: 1px solid #bbb; border-radius: 3px; padding: 0 0.3em; font: 12px ui-monospace, monospace; }
.layout { display: flex; gap: 1.5em; align-items: flex-start; }
.source { font: 13px/1.5 ui-monospace, monospace; white-space: pre; border: 1px solid #ddd; flex: 1; overflow: auto;
  position: sticky; top: 0; max-height: 100vh; }
.line { display: block; padding-right: 1em; }
.line .n { display: inline-block; width: 3.5em; color: #999; text-align: right; margin-right: 0.6em; user-select: none; }
.line .c { display: inline-block; width: 4em; color: #666; text-align: right; margin-right: 0.8em; user-select: none;
  border-left: 4px solid transparent; }
.line.hit .c { background: #e6f4ea; border-left-color: #34a853; }
.line.miss .c { background: #fde8e7; border-left-color: #d93025; color: #b42318; }
.line.miss .code { background: #fdf0ef; }
.line.partial .c { background: #fef7e0; border-left-color: #f9ab00; }
.tk { color: #8b1fa9; } .ts { color: #0b7a0b; } .tn { color: #1750eb; } .tr { color: #b35900; } .tc { color: #80868b; font-style: italic; }
.line.hl .n { background: #fff3b0; } body:not(.precise) .line.hl .code { background: #fff3b0; }
.line.decision .n { background: #ffd166; font-weight: bold; }
::highlight(pp-missed) { background-color: #f6c6ce; }
::highlight(pp-undecided) { text-decoration: underline dotted #c26401; }
::highlight(pp-path) { background-color: #fff3b0; color: #000; }
::highlight(pp-taken) { background-color: #ffd166; color: #000; }
::highlight(pp-untaken) { background-color: #f8c4c0; color: #000; text-decoration: underline wavy #d93025; }
.functions { width: 36em; }
nav.todo h2 { font-size: 1em; margin: 0 0 0.3em; } nav.todo ul { margin: 0 0 1em; padding-left: 1.2em; }
.path { cursor: pointer; padding: 0.2em 0.4em; border-radius: 4px; border-left: 3px solid transparent; }
.path.residual { border-left-color: #8b1fa9; } p.preferential.residual { color: #8b1fa9; }
.path[aria-selected="true"] { background: #e8f0fe; border-left-color: #1f6feb; }
.path.unexecuted { color: #b42318; }
.path.unexecuted[aria-selected="true"] { background: #fdecea; border-left-color: #d93025; }
.path.implicit { display: none; } body.show-implicit .path.implicit { display: list-item; }
.path .steps { display: block; font: 12px ui-monospace, monospace; margin-left: 1em; color: #333; }
.path .tests, .path .closest { display: block; font-size: 12px; margin-left: 1em; color: #555; }
.graph-note { color: #777; font-style: italic; }
svg.graph { max-width: 100%; height: auto; }
svg.graph .edge { fill: none; stroke: #bbb; }
svg.graph .edge.warm { stroke: #e09f3e; } svg.graph .edge.hot { stroke: #d62828; }
svg.graph .edge.cold, svg.graph .edge.exceptional { stroke-dasharray: 3 3; }
svg.graph .edge.on { stroke: #1f6feb; stroke-dasharray: none; }
svg.graph .arrowhead { fill: #888; }
svg.graph circle { fill: white; stroke: #555; } svg.graph .group rect { fill: #f1f3f4; stroke: #555; }
svg.graph text { font: 10px sans-serif; text-anchor: middle; }
ul.call-paths { list-style: none; padding-left: 0; } ul.call-tree { list-style: none; padding-left: 1.2em; margin: 0; }
ul.call-tree li.step .fn { color: #555; font-weight: bold; } ul.call-tree li.call { color: #1f6feb; }
ul.call-tree li.return { color: #1f6feb; } ul.call-tree li.end { color: #888; } ul.call-tree li.context { opacity: 0.6; }
ul.call-tree li.cut-call, ul.call-tree li.not-crossed-call { color: #8250df; } ul.call-tree li.unknown-call { color: #57606a; } ul.call-tree li.perhaps { font-style: italic; }
svg.flame .bar { cursor: pointer; }
svg.flame rect { fill: #f2a65a; stroke: white; }
svg.flame .f1 rect { fill: #e07a5f; } svg.flame .f2 rect { fill: #f2cc8f; } svg.flame .f3 rect { fill: #81b29a; }
svg.flame .f4 rect { fill: #e9c46a; } svg.flame .f5 rect { fill: #f4a261; } svg.flame .cut rect { fill: #bbb; }
svg.flame .bar[aria-pressed="true"] rect { fill: #1f6feb; }
svg.flame text { font: 11px ui-monospace, monospace; pointer-events: none; }
#context-detail .context { font: 12px ui-monospace, monospace; }
`;
