import type { InterproceduralNumbering, PathStep } from '@pathprof/numbering';
import { readUnsplitCalls, type RefusalReason, type UnsplitCall } from '@pathprof/cfg';
import type { ProfiledFile } from './profiled-file';

/** Why a call of a statically known callee is not crossed, by the build's reason (`RefusalReason`). */
export const WHY_NOT_CROSSED: Record<RefusalReason, string> = {
  async: 'an async function: its body resumes later',
  generator: 'a generator: its body resumes later',
  spread: 'spread arguments',
  parameters:
    'its parameters run code before the callee can take the path (destructuring; older builds also refused defaults)',
};

/** What a call whose callee is not known statically means for the path it is on. */
export const UNKNOWN_CALLEE_MEANS =
  "what it runs (a method, a callback, another file's function, native code) is not part of the path";

/**
 * A call a function makes that is not split (neither crossed nor cut), as the build recorded it: the block
 * that makes it and how it reads in the source (`obj.parse(s)`, or `obj.parse(…)` when its arguments are
 * long or on other lines).
 */
export interface UnsplitCallSite extends UnsplitCall {
  readonly caller: number;
  readonly text: string;
}

const callsByFile = new WeakMap<ProfiledFile, Map<number, UnsplitCallSite[]>[]>();

/**
 * Per function of the file, its calls not split by the block that makes them, each block's in the order it
 * makes them; empty for builds that did not record them (they listed `notCrossed` without blocks).
 */
export function unsplitCallsByBlock(file: ProfiledFile): Map<number, UnsplitCallSite[]>[] {
  const known = callsByFile.get(file);
  if (known) return known;
  const byBlock = file.meta.functions.map((fn, caller) => {
    const blocks = new Map<number, UnsplitCallSite[]>();
    for (const call of readUnsplitCalls(fn.calls ?? [])) {
      const list = blocks.get(call.block) ?? [];
      blocks.set(call.block, list);
      list.push({ ...call, caller, text: callText(file, call) });
    }
    return blocks;
  });
  callsByFile.set(file, byBlock);
  return byBlock;
}

/** The file's calls not split, in function order. */
export function unsplitCalls(file: ProfiledFile): UnsplitCallSite[] {
  return unsplitCallsByBlock(file).flatMap((blocks) => [...blocks.values()].flat());
}

/** At most this many characters of a call's text: a step names the call, it does not quote it. */
const CALL_TEXT_LIMIT = 40;

/**
 * The call as written, from its start to its closing parenthesis when that is on the line its callee ends
 * on and the whole is short; else its callee and `(…)` (`shortened`).
 */
function callText(file: ProfiledFile, call: UnsplitCall): string {
  const lines = file.source.lines;
  const callee =
    call.line === call.endLine
      ? (lines[call.line - 1] ?? '').slice(call.column, call.endColumn)
      : [
          (lines[call.line - 1] ?? '').slice(call.column),
          ...lines.slice(call.line, call.endLine - 1),
          (lines[call.endLine - 1] ?? '').slice(0, call.endColumn),
        ].join(' ');
  const rest = lines[call.endLine - 1] ?? '';
  // A tagged template's quasi is not quoted: it is often long and on many lines.
  if (rest[call.endColumn] === '`') return shortened(callee, '`…`');
  const end = argumentsEnd(rest, call.endColumn);
  const whole = (callee + (end === null ? '(…)' : rest.slice(call.endColumn, end))).replace(/\s+/g, ' ');
  return whole.length <= CALL_TEXT_LIMIT ? whole : shortened(callee, '(…)');
}

/**
 * A call as its callee and `args` within `CALL_TEXT_LIMIT`, whitespace runs as one space; a callee too long
 * as its last member (`….splice(…)`), where the method's name is, or else its end.
 */
function shortened(callee: string, args: string): string {
  const text = `${callee}${args}`.replace(/\s+/g, ' ');
  if (text.length <= CALL_TEXT_LIMIT) return text;
  const member = /(?:\?\.|\.)\s*#?[\w$]+\s*$/.exec(callee);
  return member
    ? `…${member[0].replace(/\s+/g, '')}${args}`
    : `…${text.slice(text.length - CALL_TEXT_LIMIT + 1)}`;
}

/**
 * Where the arguments that open at `from` (`(`, after `?.` or a type's `<…>` none: those read as long) close
 * on the line, past strings; null when they do not open there or do not close on the line.
 */
function argumentsEnd(text: string, from: number): number | null {
  let i = from;
  while (text[i] === ' ') i++;
  if (text.startsWith('?.', i)) i += 2;
  if (text[i] !== '(') return null;
  let depth = 0;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '`') {
      const close = text.indexOf(c, i + 1);
      if (close < 0) return null;
      i = close;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return null;
}

/**
 * A call not split on a decoded path: shown before the path's step `before`, the step that leaves its block.
 * `certain` unless that step is an exception leaving the block and code before the call in the block may
 * have raised it (then the path perhaps did not make the call).
 */
export interface PlacedCall {
  readonly call: UnsplitCallSite;
  readonly before: number;
  readonly certain: boolean;
}

/**
 * The calls not split that a path makes (`steps` of a decoded interprocedural path): a block's calls before
 * each step that leaves the block, all of them when it leaves normally (a block runs whole). When an
 * exception leaves it, the calls with no code before them in the block that may throw were surely made (one
 * of them perhaps threw); the others perhaps were not.
 */
export function placeUnsplitCalls(
  numbering: InterproceduralNumbering,
  steps: readonly PathStep[],
  file: ProfiledFile,
): PlacedCall[] {
  const byBlock = unsplitCallsByBlock(file);
  const placed: PlacedCall[] = [];
  steps.forEach((step, i) => {
    // A call vertex makes only its split call, and a return step leaves no block of the caller's.
    if (step.kind !== 'edge') return;
    const { dag } = numbering.procedures[step.procedure];
    const calls = byBlock[step.procedure]?.get(dag.src[step.edge]);
    if (!calls) return;
    const kind = dag.kind[step.edge];
    const thrown = kind === 'exception' || kind === 'throw-end';
    for (const call of calls) placed.push({ call, before: i, certain: !thrown || !call.afterThrowable });
  });
  return placed;
}
