import type * as t from '@babel/types';
import { EdgeKind, isExceptionalKind, isSilentKind } from './edge-kind';
import type { EdgeSite } from './edge-site';
import type { BlockInfo, EdgeInfo, Position, SourceRange } from './control-flow-graph';

export const ENTRY = 0;
export const EXIT = 1;
/** The builder's "current block" when the code at hand cannot run (after a jump). */
export const UNREACHABLE = -1;

type EdgeExtras = Pick<EdgeInfo, 'entersFinally' | 'inParameter'>;

interface PendingEdge {
  readonly from: number;
  readonly kind: EdgeKind;
  readonly site: EdgeSite | null;
  readonly node: t.Node;
  readonly extras: EdgeExtras | undefined;
}

/**
 * A place several edges may lead to (the code after an `if`, a loop exit, a `catch`). Its block is created
 * only when the first edge arrives (`GraphBuilder.land`), so joins nobody reaches never become blocks and
 * unreachable code stays out of the graph.
 */
export class Join {
  block = UNREACHABLE;
  readonly pending: PendingEdge[] = [];
}

interface MutableBlock {
  start: Position | null;
  end: Position | null;
  mayThrow: boolean;
  suspends: boolean;
  bindsParameters: boolean;
  /** A `throw` statement ends the block: its explicit edge is the block's exceptional edge. */
  endsInThrow: boolean;
  closed: boolean;
  /** Where an exception raised in this block goes; null means EXIT. */
  handler: Join | null;
}

/**
 * The mutable graph under construction: blocks, edges with identity, and lazily created joins. Each block
 * gets its exceptional edge when it is closed, once all of its code is known.
 */
export class GraphBuilder {
  private readonly blockData: MutableBlock[] = [];
  private readonly edgeSrc: number[] = [];
  private readonly edgeDst: number[] = [];
  private readonly edgeInfo: EdgeInfo[] = [];
  readonly exitJoin: Join;
  /** While a parameter default is built: every edge added belongs to it (EdgeInfo.inParameter). */
  parameter: t.AssignmentPattern | null = null;

  constructor() {
    this.addBlock(null);
    this.addBlock(null);
    this.exitJoin = new Join();
    this.exitJoin.block = EXIT;
  }

  get blockCount(): number {
    return this.blockData.length;
  }

  addBlock(handler: Join | null): number {
    this.blockData.push({
      start: null,
      end: null,
      mayThrow: false,
      suspends: false,
      bindsParameters: false,
      endsInThrow: false,
      closed: false,
      handler,
    });
    return this.blockData.length - 1;
  }

  addEdge(
    from: number,
    to: number,
    kind: EdgeKind,
    site: EdgeSite | null,
    node: t.Node,
    extras?: EdgeExtras,
  ): number {
    this.edgeSrc.push(from);
    this.edgeDst.push(to);
    const parameter = this.parameter && !isExceptionalKind(kind) ? { inParameter: this.parameter } : {};
    this.edgeInfo.push({ kind, site, node, ...parameter, ...extras });
    return this.edgeSrc.length - 1;
  }

  /** An edge from `from` to a join: direct if the join already has its block, else pending until it lands. */
  edgeTo(
    from: number,
    join: Join,
    kind: EdgeKind,
    site: EdgeSite | null,
    node: t.Node,
    extras?: EdgeExtras,
  ): void {
    if (from === UNREACHABLE) return;
    if (join.block !== UNREACHABLE) this.addEdge(from, join.block, kind, site, node, extras);
    else join.pending.push({ from, kind, site, node, extras });
  }

  /** Creates the join's block if any edge reached it; returns the block, or UNREACHABLE. */
  land(join: Join, handler: Join | null): number {
    if (join.block !== UNREACHABLE) return join.block;
    if (join.pending.length === 0) return UNREACHABLE;
    join.block = this.addBlock(handler);
    for (const p of join.pending) this.addEdge(p.from, join.block, p.kind, p.site, p.node, p.extras);
    join.pending.length = 0;
    return join.block;
  }

  /** Records that `node` runs in `block`, widening the block's source range; `mayThrow` if it can throw. */
  noteCode(block: number, node: t.Node, mayThrow: boolean): void {
    if (block === UNREACHABLE) return;
    const data = this.blockData[block];
    if (mayThrow) data.mayThrow = true;
    const loc = node.loc;
    if (!loc) return;
    if (!data.start || before(loc.start, data.start))
      data.start = { line: loc.start.line, column: loc.start.column };
    if (!data.end || before(data.end, loc.end)) data.end = { line: loc.end.line, column: loc.end.column };
  }

  /** Whether code noted in `block` so far may throw. */
  mayThrowSoFar(block: number): boolean {
    return block !== UNREACHABLE && this.blockData[block].mayThrow;
  }

  /**
   * Code that runs as control enters `block` can throw (an iterator closed by the jump into it): its exceptional
   * edge, added now if the builder already left the block.
   */
  throwsOnEntry(block: number, node: t.Node): void {
    if (block === UNREACHABLE) return;
    const data = this.blockData[block];
    if (data.mayThrow) return;
    data.mayThrow = true;
    if (data.closed && !data.endsInThrow) this.exceptionalEdge(block, node);
  }

  /** The block rethrows (the end of a `finally` entered by an exception) without code of its own. */
  markMayThrow(block: number): void {
    if (block !== UNREACHABLE) this.blockData[block].mayThrow = true;
  }

  markSuspends(block: number): void {
    if (block !== UNREACHABLE) this.blockData[block].suspends = true;
  }

  markBindsParameters(block: number): void {
    if (block !== UNREACHABLE) this.blockData[block].bindsParameters = true;
  }

  /** Ends `block` with an explicit `throw` to its handler; closing it adds no second exceptional edge. */
  throwFrom(block: number, node: t.Node): void {
    if (block === UNREACHABLE) return;
    const data = this.blockData[block];
    data.mayThrow = true;
    data.endsInThrow = true;
    this.edgeTo(block, data.handler ?? this.exitJoin, EdgeKind.Throw, null, node);
  }

  /** Adds the block's exceptional edge if its code can throw. Called once, when the builder leaves it. */
  close(block: number, node: t.Node): void {
    if (block === UNREACHABLE) return;
    const data = this.blockData[block];
    if (data.closed) return;
    data.closed = true;
    if (data.mayThrow && !data.endsInThrow) this.exceptionalEdge(block, node);
  }

  private exceptionalEdge(block: number, node: t.Node): void {
    this.edgeTo(block, this.blockData[block].handler ?? this.exitJoin, EdgeKind.Exception, null, node);
  }

  /**
   * Connects blocks that cannot reach EXIT (an infinite loop with no code that could throw) by an `interrupt`
   * edge: path numbering needs every block to reach EXIT, and leaving such a loop is possible only by
   * interruption. One edge per cycle suffices, so the latest such block gets it first and reachability is
   * recomputed. Blocks with code always have an exceptional edge, so only code-free cycles get here.
   */
  connectDeadEnds(owner: t.Node): void {
    for (;;) {
      const reaches = this.reachesExit();
      let dead = -1;
      for (let b = this.blockData.length - 1; b > ENTRY && dead < 0; b--) {
        if (b !== EXIT && !reaches[b] && this.isReachable(b)) dead = b;
      }
      if (dead < 0) return;
      const handler = this.blockData[dead].handler;
      // A handler nobody else reached has no block; an interrupt cannot be caught in practice, so EXIT.
      const target = handler && handler.block !== UNREACHABLE ? handler.block : EXIT;
      this.addEdge(dead, target, EdgeKind.Interrupt, null, owner);
    }
  }

  private reachableCache: Uint8Array | null = null;

  private isReachable(block: number): boolean {
    if (!this.reachableCache) {
      const seen = new Uint8Array(this.blockData.length);
      const stack = [0];
      seen[0] = 1;
      const out = this.outEdges();
      while (stack.length) {
        const b = stack.pop()!;
        for (const e of out[b]) {
          const d = this.edgeDst[e];
          if (!seen[d]) {
            seen[d] = 1;
            stack.push(d);
          }
        }
      }
      this.reachableCache = seen;
    }
    return this.reachableCache[block] === 1;
  }

  private outEdges(): number[][] {
    const out: number[][] = this.blockData.map(() => []);
    for (let e = 0; e < this.edgeSrc.length; e++) out[this.edgeSrc[e]].push(e);
    return out;
  }

  private reachesExit(): Uint8Array {
    const into: number[][] = this.blockData.map(() => []);
    for (let e = 0; e < this.edgeSrc.length; e++) into[this.edgeDst[e]].push(this.edgeSrc[e]);
    const seen = new Uint8Array(this.blockData.length);
    const stack = [EXIT];
    seen[EXIT] = 1;
    while (stack.length) {
      const b = stack.pop()!;
      for (const p of into[b]) {
        if (!seen[p]) {
          seen[p] = 1;
          stack.push(p);
        }
      }
    }
    return seen;
  }

  /** The finished graph's arrays. Blocks are renumbered in creation order with ENTRY 0 and EXIT 1. */
  finish(): {
    blocks: BlockInfo[];
    edgeSrc: Int32Array;
    edgeDst: Int32Array;
    edgeKind: Uint8Array;
    edgeExceptional: Uint8Array;
    edgeSilent: Uint8Array;
    edges: EdgeInfo[];
  } {
    const blocks = this.blockData.map((b): BlockInfo => ({
      range: b.start && b.end ? ({ start: b.start, end: b.end } satisfies SourceRange) : null,
      mayThrow: b.mayThrow,
      suspends: b.suspends,
      bindsParameters: b.bindsParameters,
    }));
    // Filled by a counted loop: `TypedArray.from` with a mapping function goes through the iterator protocol,
    // ten times slower in V8 (it was an eighth of `buildCfg`'s time).
    const count = this.edgeInfo.length;
    const edgeKind = new Uint8Array(count);
    const edgeExceptional = new Uint8Array(count);
    const edgeSilent = new Uint8Array(count);
    for (let e = 0; e < count; e++) {
      const kind = this.edgeInfo[e].kind;
      edgeKind[e] = kind;
      edgeExceptional[e] = isExceptionalKind(kind) ? 1 : 0;
      edgeSilent[e] = isSilentKind(kind) ? 1 : 0;
    }
    return {
      blocks,
      edgeSrc: new Int32Array(this.edgeSrc),
      edgeDst: new Int32Array(this.edgeDst),
      edgeKind,
      edgeExceptional,
      edgeSilent,
      edges: this.edgeInfo,
    };
  }
}

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.column < b.column);
}
