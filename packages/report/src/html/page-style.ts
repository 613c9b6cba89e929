/** The report's stylesheet, inlined in every page (the site is a folder of static files, no server). */
export const pageStyle = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
table.files { border-collapse: collapse; }
table.files td, table.files th { padding: 0.2em 0.8em; border-bottom: 1px solid #ddd; text-align: right; }
table.files td:first-child, table.files th:first-child { text-align: left; }
.high { color: #17803d; } .medium { color: #a15c00; } .low { color: #b42318; }
.layout { display: flex; gap: 1.5em; align-items: flex-start; }
.source { font: 13px/1.5 ui-monospace, monospace; white-space: pre; border: 1px solid #ddd; flex: 1; overflow: auto;
  position: sticky; top: 0; max-height: 100vh; }
.line { display: block; padding-right: 1em; }
.line .n { display: inline-block; width: 3.5em; color: #999; text-align: right; margin-right: 1em; user-select: none; }
.line.hl { background: #fff3b0; }
.line.decision { background: #ffd166; font-weight: bold; }
.functions { width: 34em; }
.path { cursor: pointer; padding: 0.2em 0.4em; border-radius: 4px; }
.path[aria-selected="true"] { background: #1f6feb; color: white; }
.path.unexecuted { color: #b42318; }
.path .steps { display: block; font: 12px ui-monospace, monospace; margin-left: 1em; }
svg.graph .edge { fill: none; stroke: #bbb; }
svg.graph .edge.warm { stroke: #e09f3e; } svg.graph .edge.hot { stroke: #d62828; }
svg.graph .edge.cold, svg.graph .edge.exceptional { stroke-dasharray: 3 3; }
svg.graph .edge.on { stroke: #1f6feb; stroke-dasharray: none; }
svg.graph circle { fill: white; stroke: #555; }
svg.graph text { font: 10px sans-serif; text-anchor: middle; }
ul.call-paths { list-style: none; padding-left: 0; } ul.call-tree { list-style: none; padding-left: 1.2em; margin: 0; }
ul.call-tree li.step .fn { color: #555; font-weight: bold; } ul.call-tree li.call { color: #1f6feb; }
ul.call-tree li.return { color: #1f6feb; } ul.call-tree li.end { color: #888; } ul.call-tree li.context { opacity: 0.6; }
`;
