import {
  numberInterproceduralPaths,
  type CallSite,
  type InterproceduralNumbering,
  type Program,
} from '@pathprof/numbering';
import { fingerprint } from './fingerprint';
import { flowGraphOf, type FileMetadata, type FunctionMetadata } from './metadata';

/** The call sites a function's metadata lists (`callSites`, 4 numbers each). */
export function callSitesOf(fn: FunctionMetadata): CallSite[] {
  const quads = fn.callSites ?? [];
  const sites: CallSite[] = [];
  for (let i = 0; i < quads.length; i += 4) {
    sites.push({ site: quads[i], call: quads[i + 1], returnSite: quads[i + 2], callee: quads[i + 3] });
  }
  return sites;
}

/** The numbering's input for a file: one procedure per function, in the metadata's order. */
export function programOf(file: string, functions: readonly FunctionMetadata[], roots: number[]): Program {
  return {
    procedures: functions.map((fn) => ({
      name: fn.name,
      file,
      graph: flowGraphOf(fn),
      callSites: callSitesOf(fn),
      ...(fn.splitEdges ? { splitEdges: fn.splitEdges } : {}),
    })),
    roots,
  };
}

/** What fixes every path number: N, the entry points' ranges, and every ψ and ρ. */
export function interproceduralChecksum(numbering: InterproceduralNumbering): string {
  const linear = (fs: readonly { a: bigint; b: bigint }[]) => fs.map((f) => `${f.a}:${f.b}`).join(',');
  return fingerprint(
    [
      numbering.scheme,
      numbering.pathCount,
      numbering.entryPoints.map((p) => `${p.kind}${p.procedure}@${p.start}+${p.count}`).join(','),
      ...numbering.procedures.map((p) => `${linear(p.psi)}|${linear(p.rho)}`),
    ].join(';'),
  );
}

/**
 * The interprocedural numbering a file was instrumented with, recomputed from its metadata; throws if this
 * version of the numbering engine numbers it differently (the counts would decode to other paths).
 */
export function interproceduralNumberingOf(file: FileMetadata): InterproceduralNumbering {
  const ipp = file.interprocedural;
  if (!ipp) throw new Error(`${file.file} was not instrumented in interprocedural mode`);
  const numbering = numberInterproceduralPaths(programOf(file.file, file.functions, ipp.roots), {
    scheme: ipp.scheme,
    hybrid: { sites: ipp.cutSites },
  });
  if (interproceduralChecksum(numbering) !== ipp.checksum) {
    throw new Error(
      `${file.file} was numbered by another version of pathprof; re-instrument (clear the transform cache)`,
    );
  }
  return numbering;
}
