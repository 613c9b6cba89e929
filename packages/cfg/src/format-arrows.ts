import { edgeKindName } from './edge-kind';
import type { ControlFlowGraph } from './control-flow-graph';

/**
 * The graph as text arrows, one edge per line in edge-id order: `b2 -true-> b3`. Block 0 prints as `entry`
 * and block 1 as `exit`; exceptional edges use `~kind~>`. Stable for a given graph, so fixtures can hold it.
 */
export function formatArrows(cfg: ControlFlowGraph): string {
  const name = (b: number) => (b === cfg.entry ? 'entry' : b === cfg.exit ? 'exit' : `b${b}`);
  const lines: string[] = [];
  for (let e = 0; e < cfg.edgeCount; e++) {
    const kind = edgeKindName(cfg.edgeKind[e]);
    const arrow = cfg.edgeExceptional[e] ? `~${kind}~>` : `-${kind}->`;
    lines.push(`${name(cfg.edgeSrc[e])} ${arrow} ${name(cfg.edgeDst[e])}`);
  }
  return lines.join('\n');
}
