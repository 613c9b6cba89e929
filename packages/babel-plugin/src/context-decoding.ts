import { contextOfValue, contextValues, decodeContext, type ContextValues } from '@pathprof/numbering';
import type { StackRecord } from '@pathprof/runtime';
import type { FileMetadata } from './metadata';

/** One frame of a decoded calling context, root first. */
export type DecodedFrame =
  | {
      readonly kind: 'function';
      /** The file (its key) and the function (its index in the file's metadata). */
      readonly file: string;
      readonly function: number;
      readonly name: string;
      /**
       * The call that entered it: a call site of the frame before it (its id in that frame's file), or null
       * where the context starts and for entries by a callback, a method or another call not known statically.
       */
      readonly site: number | null;
    }
  /** The realm held its most encoding stacks: what came before this point is cut off the context. */
  | { readonly kind: 'cut' };

/** A file with calling contexts as a profile names it: its key, the hash of its source, its metadata. */
export interface ContextFileRef {
  readonly key: string;
  readonly hash: string;
  readonly meta: FileMetadata;
}

/**
 * Decodes calling contexts counted by the plugin's `contexts` option: a file's context value and encoding
 * stack (profile format 3) become the chain of functions, root first. Each stack entry names the activation
 * that was running (a value of its own file) and the call site: its sub-path is decoded in that file
 * (`decodeContext`), repeated for a run, and so on down the stack.
 */
export class ContextDecoder {
  private readonly files = new Map<string, { ref: ContextFileRef; values: ContextValues }>();

  constructor(files: Iterable<ContextFileRef>) {
    for (const ref of files) {
      const contexts = ref.meta.contexts;
      if (contexts)
        this.files.set(fileId(ref.key, ref.hash), { ref, values: contextValues(contexts.numbering) });
    }
  }

  /** The context of value `value` of file `key`/`hash` on stack `stack` of `stacks` (-1: empty). */
  decode(
    key: string,
    hash: string,
    stacks: readonly StackRecord[],
    stack: number,
    value: number,
  ): DecodedFrame[] {
    let frames = this.subPath(key, hash, value);
    for (let s = stack; s >= 0; s = stacks[s][0]) {
      const [, callerKey, callerHash, callerValue, site, run] = stacks[s];
      if (run === 0) {
        frames = [{ kind: 'cut' }, ...frames];
        continue;
      }
      const below = this.subPath(callerKey, callerHash, callerValue);
      for (let r = 0; r < run; r++) {
        const [first, ...rest] = frames;
        if (first?.kind === 'function') frames = [{ ...first, site: site > 0 ? site - 1 : null }, ...rest];
        frames = [...below, ...frames];
      }
    }
    return frames;
  }

  /** The acyclic sub-path that value `value` of a file encodes, from its dummy edge on. */
  private subPath(key: string, hash: string, value: number): DecodedFrame[] {
    const file = this.files.get(fileId(key, hash));
    if (!file) throw new Error(`${key}: no calling-context metadata for this version of the file`);
    const context = contextOfValue(file.values, value);
    if (!context) throw new Error(`${key}: ${value} is not one of its context values`);
    const functions = file.ref.meta.functions;
    return decodeContext(file.values.numbering, {
      function: context.function,
      id: context.id,
      stack: [],
    }).map((frame): DecodedFrame => ({
      kind: 'function',
      file: key,
      function: frame.function,
      name: functions[frame.function]?.name ?? `#${frame.function}`,
      site: frame.site,
    }));
  }
}

function fileId(key: string, hash: string): string {
  return `${key}\0${hash}`;
}
