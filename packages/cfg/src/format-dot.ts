import { edgeKindName } from './edge-kind';
import type { ControlFlowGraph } from './control-flow-graph';

/** A Graphviz DOT picture of the graph, for humans: blocks labelled with their source lines. */
export function formatDot(cfg: ControlFlowGraph): string {
  const out = [`digraph ${JSON.stringify(cfg.name)} {`, '  node [shape=box, fontname="monospace"];'];
  cfg.blocks.forEach((b, i) => {
    const title = i === cfg.entry ? 'ENTRY' : i === cfg.exit ? 'EXIT' : `b${i}`;
    const lines = b.range
      ? ` L${b.range.start.line}${b.range.end.line !== b.range.start.line ? `-${b.range.end.line}` : ''}`
      : '';
    const shape = i === cfg.entry || i === cfg.exit ? ', shape=oval' : '';
    out.push(`  n${i} [label=${JSON.stringify(title + lines)}${shape}];`);
  });
  for (let e = 0; e < cfg.edgeCount; e++) {
    const style = cfg.edgeExceptional[e] ? ', style=dashed' : '';
    out.push(
      `  n${cfg.edgeSrc[e]} -> n${cfg.edgeDst[e]} [label=${JSON.stringify(`${e}:${edgeKindName(cfg.edgeKind[e])}`)}${style}];`,
    );
  }
  out.push('}');
  return out.join('\n');
}
