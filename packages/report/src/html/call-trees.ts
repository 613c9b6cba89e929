import {
  contextOpensCalls,
  crossesCalls,
  foldedParts,
  interproceduralReport,
  NOT_CROSSED_MEANS,
  notCrossedByCallee,
  notCrossedWhere,
  type CallPathStep,
  type NotCrossedCall,
} from '../interprocedural-report';
import type { ProfiledFile } from '../profiled-file';
import { UNKNOWN_CALLEE_MEANS } from '../not-crossed-calls';
import { escapeHtml } from './escape-html';
import { counted, groupedDigits } from '../counted';

/**
 * A file counted in interprocedural mode: its hottest paths across calls (at most `limit`), each drawn as a
 * call tree: the steps nested by call depth, each linked to its line in the source beside it; in the
 * context scheme the context prefix is marked apart from the active suffix.
 */
export function callTreesSection(file: ProfiledFile, limit: number): string {
  const report = interproceduralReport(file);
  if (!report) return '';
  const paths = report.paths.slice(0, limit).map((path) => {
    // A context prefix that opens no call is only the restart (as in the text report).
    const opens = contextOpensCalls(path);
    const [context, active] = foldedParts(path);
    const steps = [
      ...context.map((step) => ({ ...step, context: opens })),
      ...active.map((step) => ({ ...step, context: false })),
    ];
    return `<li class="call-path"><h3>path ${path.number} ×${path.count} <small>${escapeHtml(path.functions.join(' → '))}</small></h3>${tree(steps, 0, steps.length, minDepth(steps))}</li>`;
  });
  const more = report.paths.length > limit ? `<p>… and ${report.paths.length - limit} more</p>` : '';
  return `<section class="calls"><h2>Paths across calls <small>${report.scheme} scheme</small></h2>
<p>${counted(report.executedPaths, 'interprocedural path')} executed of N = ${groupedDigits(report.pathCount)}, ${report.paths.filter(crossesCalls).length} through more than one function; ${counted(report.crossedSites, 'call site')} crossed, ${report.cutSites} cut.</p>${notCrossed(report.notCrossed)}
<p>A call whose callee is not known statically is a step where the path made it: ${escapeHtml(UNKNOWN_CALLEE_MEANS)}; one in italics perhaps was not made (an exception left its code).</p>
${report.scheme === 'context' ? "<p>Greyed steps are a path's context: how its active part was reached (its calls still open; counted as part of the path).</p>" : ''}
<ul class="call-paths">${paths.join('\n')}</ul>${more}</section>`;
}

/** The calls of statically known callees that paths do not cross: a list, one item per callee and reason. */
function notCrossed(calls: readonly NotCrossedCall[]): string {
  if (calls.length === 0) return '';
  const items = notCrossedByCallee(calls).map(
    (g) => `<li>${escapeHtml(`${g.callee} called in ${notCrossedWhere(g)}: ${g.why}`)}</li>`,
  );
  return `<p>${counted(calls.length, 'call')} not crossed (${escapeHtml(NOT_CROSSED_MEANS)}):</p><ul class="not-crossed">${items.join('')}</ul>`;
}

type Step = CallPathStep & { readonly context: boolean };

/** The steps `[from, to)` at `depth` as a list; deeper runs nest under the step before them. */
function tree(steps: readonly Step[], from: number, to: number, depth: number): string {
  const items: string[] = [];
  for (let i = from; i < to;) {
    if (steps[i].depth > depth) {
      let j = i;
      while (j < to && steps[j].depth > depth) j++;
      items.push(`<li>${tree(steps, i, j, depth + 1)}</li>`);
      i = j;
      continue;
    }
    const s = steps[i];
    const where = s.line > 0 ? `<a href="#L${s.line}">L${s.line}</a> ` : '';
    // The function is named where the path enters it or comes back to it, not on each of its steps.
    const named = i === 0 || steps[i - 1].function !== s.function || steps[i - 1].depth !== s.depth;
    const fn = named ? `<span class="fn">${escapeHtml(s.function)}</span> ` : '';
    items.push(
      `<li class="step ${s.kind}${s.certain === false ? ' perhaps' : ''}${s.context ? ' context' : ''}">${fn}${where}${escapeHtml(s.text)}</li>`,
    );
    i++;
  }
  return `<ul class="call-tree">${items.join('')}</ul>`;
}

function minDepth(steps: readonly Step[]): number {
  return steps.reduce((min, s) => Math.min(min, s.depth), Infinity);
}
