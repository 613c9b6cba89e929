import { ContextStacks, ROOT_STACK } from './context-stack';
import { pathCounter, type PathCounter } from './path-counter';

/**
 * How many encoding-stack nodes (besides the empty stack) a realm makes before cutting contexts (bounded
 * memory).
 */
export const DEFAULT_MAX_STACKS = 100_000;

/**
 * One file's calling contexts in a realm: its contexts are the realm-wide values `base … base + size - 1`
 * (the plugin numbers them per file from 0; the realm gives each file its own range). Entries into contexts on
 * the empty stack are counted in `counts` (by value − base), and their path counters kept in `paths`.
 */
export interface FileContexts {
  readonly key: string;
  readonly hash: string;
  readonly base: number;
  readonly size: number;
  readonly counts: Float64Array;
  readonly paths: (PathCounter | undefined)[];
  /** The realm's state, which the file's code reads and writes. */
  readonly state: ContextState;
}

/** How `ContextState.frame` starts an activation: the values are part of the emitted code's calls. */
export const FRAME_ENTERS = 0;
export const FRAME_TAKES = 1;
export const FRAME_CHECKS = 2;

/** What an activation entered at a parameter default keeps until its body runs (`ContextState.frame`). */
export interface ContextFrame {
  readonly x: ContextState;
  pv: number;
  ps: number;
  readonly v: number;
  readonly s: number;
  readonly P: PathCounter | null;
  r: number;
}

/**
 * The running calling context of a realm, which every instrumented file shares (the plugin's `contexts`
 * option): `v`, the realm-wide value of the running activation's context (-1 when no instrumented code
 * runs), `s`, its encoding stack, and the hand-off of a numbered call: `h`, the callee's value, and `t`, a
 * token naming the callee (`base + function + 1`); a negative token asks the callee to push `<v, -t>` (a
 * recursive or reduced call at site `-t - 1`). Each activation keeps the `v` and `s` it found and puts them
 * back when it returns, throws or suspends, so the caller finds its own again; a numbered call sets only `h`
 * and `t`, which the callee's prologue takes.
 */
export class ContextState {
  v = -1;
  t = 0;
  h = 0;
  /** The running activation's encoding stack: a node of `stacks` (`ROOT_STACK`, the empty stack). */
  s = ROOT_STACK;
  /** Every encoding stack the realm has made. */
  readonly stacks = new ContextStacks();
  /** Every file given a range, by base. */
  readonly files: FileContexts[] = [];
  private nextBase = 0;

  constructor(readonly maxStacks: number = DEFAULT_MAX_STACKS) {}

  /** Gives a file its range of `size` context values. */
  addFile(key: string, hash: string, size: number): FileContexts {
    const file: FileContexts = {
      key,
      hash,
      base: this.nextBase,
      size,
      counts: new Float64Array(size),
      paths: [],
      state: this,
    };
    this.nextBase += size;
    this.files.push(file);
    return file;
  }

  /**
   * A numbered call's callee starts: its context is the one handed off (on the caller's stack). Returns the
   * value, counted.
   */
  take(file: FileContexts): number {
    this.t = 0;
    const v = (this.v = this.h);
    const s = this.s;
    if (s === ROOT_STACK) file.counts[v - file.base]++;
    else this.stacks.inc(s, v);
    return v;
  }

  /**
   * `take` for paths per context: returns the path counter of the context taken (made on first use), found
   * by the same lookup that counts the entry (the value is in `v`).
   */
  takePaths(file: FileContexts, pathCount: number, hashThreshold: number): PathCounter {
    this.t = 0;
    const v = (this.v = this.h);
    const s = this.s;
    if (s !== ROOT_STACK) return this.stacks.incPaths(s, v, pathCount, hashThreshold);
    const i = v - file.base;
    file.counts[i]++;
    return (file.paths[i] ??= pathCounter(pathCount, hashThreshold));
  }

  /**
   * A function entered other than by a numbered call starts a context at its dummy edge (`file.base +
   * first`, its id 0), on the stack of the activation that was running plus `<its value, site>`; on the empty
   * stack when none was. Returns the value, counted.
   */
  enter(file: FileContexts, first: number): number {
    const token = this.t;
    this.t = 0;
    const caller = this.v;
    const v = file.base + first;
    this.v = v;
    if (caller < 0) {
      this.s = ROOT_STACK;
      file.counts[first]++;
      return v;
    }
    const site = token < 0 ? -token : 0;
    const s = this.s;
    const stacks = this.stacks;
    // A push on a cut stack, or one of the last two on this stack, is found in the stack's own line.
    const known = stacks.lastPush(s, caller, site, v);
    const k = known >= 0 ? known : stacks.push(s, caller, site, v, this.maxStacks);
    this.s = k;
    stacks.inc(k, v);
    return v;
  }

  /**
   * `enter` for paths per context: returns the path counter of the context entered (the value is in `v`).
   * Its stack's own context unless cut, so a field and no table: `enter` stays one call of its own.
   */
  enterPaths(file: FileContexts, first: number, pathCount: number, hashThreshold: number): PathCounter {
    this.enter(file, first);
    return this.paths(file, pathCount, hashThreshold);
  }

  /**
   * An activation entered at its first parameter default: its context, and what it found running, in a frame
   * its defaults and its body share; with its path counter and register when paths are counted per context
   * (`pathCount` ≥ 0). `handOff` says how it starts, as the body's prologue would: `FRAME_ENTERS` (no numbered
   * call enters it), `FRAME_TAKES` (only numbered calls do), `FRAME_CHECKS` (a hand-off whose token names it,
   * else an entry). Instrumented code of older builds passes no `handOff`.
   */
  frame(
    file: FileContexts,
    first: number,
    pathCount: number,
    hashThreshold: number,
    handOff = FRAME_ENTERS,
  ): ContextFrame {
    const pv = this.v;
    const ps = this.s;
    const taken = handOff === FRAME_TAKES || (handOff === FRAME_CHECKS && this.t === file.base + first + 1);
    const v = taken ? this.take(file) : this.enter(file, first);
    const P = pathCount < 0 ? null : this.paths(file, pathCount, hashThreshold);
    return { x: this, pv, ps, v, s: this.s, P, r: 0 };
  }

  /** The path counter of the running context (paths per context), made on first use. */
  paths(file: FileContexts, pathCount: number, hashThreshold: number): PathCounter {
    const s = this.s;
    const v = this.v;
    if (s !== ROOT_STACK) return this.stacks.pathsOf(s, v, pathCount, hashThreshold);
    return (file.paths[v - file.base] ??= pathCounter(pathCount, hashThreshold));
  }

  /** The file whose range holds realm-wide value `v`. */
  fileOf(v: number): FileContexts | undefined {
    let lo = 0;
    let hi = this.files.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const f = this.files[mid];
      if (v < f.base) hi = mid - 1;
      else if (v >= f.base + f.size) lo = mid + 1;
      else return f;
    }
    return undefined;
  }
}
