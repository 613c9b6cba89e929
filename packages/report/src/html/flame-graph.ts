import { contextTests, type ContextNode, type ContextTree } from '../context-tree';
import { frameLocation, functionPathsOf } from '../contexts-report';
import { counted } from '../counted';
import { decodeDecisions } from '../decisions';
import { testLines } from '../path-tests';
import type { ProfiledFile } from '../profiled-file';
import { escapeHtml } from './escape-html';
import { pathId } from './file-page';

const WIDTH = 1160;
const ROW = 22;

/** One frame of the flame graph as the page's script reads it. */
interface FlameFrame {
  readonly name: string;
  readonly location: string;
  /** `L18`, or `L20:48` beside another call from line 20 (`ContextNode.callPlace`). */
  readonly callPlace: string | null;
  readonly calls: number;
  readonly total: number;
  /** The frames from the root to this one. */
  readonly context: string[];
  /** The paths its function took in this context, each linking to the path on its file's page. */
  readonly paths: { id: number; count: number; description: string; href: string | null }[];
  /** The tests that entered this context, as `show --tests` names them; null when the run named none. */
  readonly tests: string[] | null;
}

/**
 * The calling-context tree as an icicle (a flame graph growing downwards): each context a bar under the one
 * that called it, as wide as the calls in it and below it. Selecting a bar (click or Enter) shows the context,
 * its exact counts, the tests that entered it (when the run named them) and, in path mode, the paths its function
 * took in that context, each a link to the path on its file's page (`pageOf` names the page of a file).
 */
export function flameGraphBody(
  tree: ContextTree,
  files: readonly ProfiledFile[],
  pageOf: (key: string) => string,
): string {
  const byKey = new Map(files.map((f) => [f.key, f]));
  const frames: FlameFrame[] = [];
  const bars: string[] = [];
  let depth = 0;
  const all = tree.roots.reduce((sum, n) => sum + n.total, 0) || 1;
  const layout = (nodes: readonly ContextNode[], x: number, level: number, above: string[]): void => {
    depth = Math.max(depth, level + 1);
    let at = x;
    for (const node of nodes) {
      const width = (node.total / all) * WIDTH;
      const name = node.frame.kind === 'cut' ? '[cut]' : node.frame.name;
      const location = frameLocation(byKey, node.frame);
      const context = [...above, name];
      const index =
        frames.push({
          name,
          location,
          callPlace: node.callPlace,
          calls: node.calls,
          total: node.total,
          context,
          paths: framePaths(byKey, node, pageOf),
          tests: frameTests(node),
        }) - 1;
      if (width >= 0.5) {
        const label =
          width > 40
            ? `<text x="${(at + 3).toFixed(1)}" y="${level * ROW + 15}">${escapeHtml(fit(name, width))}</text>`
            : '';
        const cls = node.frame.kind === 'cut' ? 'bar cut' : `bar f${fileColour(location)}`;
        bars.push(
          `<g class="${cls}" data-frame="${index}" tabindex="0" role="button" aria-pressed="false"><title>${escapeHtml(`${context.join(' → ')}\n${node.calls} calls here, ${node.total} in all`)}</title><rect x="${at.toFixed(1)}" y="${level * ROW}" width="${Math.max(width - 1, 0.5).toFixed(1)}" height="${ROW - 2}"></rect>${label}</g>`,
        );
      }
      layout(node.children, at, level + 1, context);
      at += width;
    }
  };
  layout(tree.roots, 0, 0, []);
  const cut = tree.cutCalls
    ? ` ${tree.cutCalls} calls are in contexts cut short ([cut]: the program made more encoding stacks than pathprof keeps).`
    : '';
  // What selecting a bar shows beside its counts: only what the run counted.
  const shown = [
    'its exact counts',
    ...(tree.roots.some((n) => n.tests) ? ['the tests that entered it'] : []),
    ...(frames.some((f) => f.paths.length) ? ['the paths its function took there'] : []),
  ];
  const listed = shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}` : shown[0];
  return `<h1>Calling contexts</h1>
<p>${counted(tree.calls, 'call')} in ${counted(tree.contexts, 'calling context')}: each bar is a context, under the context that called it, as wide as the calls in it and below it. Select one for ${listed}.${cut}</p>
<svg class="flame" width="${WIDTH}" height="${depth * ROW}" viewBox="0 0 ${WIDTH} ${depth * ROW}">${bars.join('')}</svg>
<div id="context-detail" aria-live="polite"><p>No context selected.</p></div>
<script type="application/json" id="context-frames">${escapeScript(JSON.stringify(frames))}</script>`;
}

function frameTests(node: ContextNode): string[] | null {
  const known = contextTests(node);
  return known && testLines(known);
}

function framePaths(
  files: ReadonlyMap<string, ProfiledFile>,
  node: ContextNode,
  pageOf: (key: string) => string,
): FlameFrame['paths'] {
  const owner = functionPathsOf(files, node.frame);
  if (!owner || node.paths.size === 0) return [];
  const index = owner.file.functions.indexOf(owner.fn);
  return [...node.paths]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([id, count]) => ({
      id,
      count,
      description: decodeDecisions(owner.fn, id, owner.file.source).description,
      href: `${pageOf(owner.file.key)}#${encodeURIComponent(pathId(owner.file, index, id))}`,
    }));
}

/** The start of a name that fits in `width` pixels (about 6.5 per character), with an ellipsis if cut. */
function fit(name: string, width: number): string {
  const room = Math.floor((width - 6) / 6.5);
  return name.length <= room ? name : `${name.slice(0, Math.max(room - 1, 1))}…`;
}

/** One of six colours per file, so a file's frames look alike. */
function fileColour(location: string): number {
  const file = location.replace(/:\d+$/, '');
  let h = 0;
  for (const c of file) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h % 6;
}

/** JSON inside a `<script>`: `</` would end it. */
function escapeScript(json: string): string {
  return json.replace(/</g, '\\u003c');
}

/** The flame graph page's script: selecting a bar shows its context, counts and paths. */
export const flameScript = `
const frames = JSON.parse(document.getElementById('context-frames').textContent);
const detail = document.getElementById('context-detail');
const text = (tag, value, className) => {
  const el = document.createElement(tag);
  el.textContent = value;
  if (className) el.className = className;
  return el;
};
document.querySelectorAll('.bar').forEach((bar) => {
  const select = () => {
    document.querySelectorAll('.bar[aria-pressed="true"]').forEach((b) => b.setAttribute('aria-pressed', 'false'));
    bar.setAttribute('aria-pressed', 'true');
    const f = frames[Number(bar.dataset.frame)];
    detail.replaceChildren();
    detail.append(text('h2', f.name + ' ', null));
    detail.firstChild.append(text('small', f.location + (f.callPlace === null ? '' : ', called at ' + f.callPlace), null));
    detail.append(text('p', f.context.join(' → '), 'context'));
    detail.append(text('p', f.calls + ' calls in this context, ' + f.total + ' in it and below it', 'counts'));
    if (f.tests) detail.append(text('p', 'Entered by: ' + (f.tests.join('; ') || 'no test'), 'tests'));
    if (f.paths.length) {
      const list = document.createElement('ul');
      list.className = 'context-paths';
      for (const p of f.paths) {
        const item = document.createElement('li');
        const label = 'path ' + p.id + ' (×' + p.count + '): ' + p.description;
        if (p.href) {
          const link = text('a', label, null);
          link.href = p.href;
          item.append(link);
        } else item.textContent = label;
        list.append(item);
      }
      detail.append(text('p', 'Paths taken in this context:', null), list);
    }
  };
  bar.addEventListener('click', select);
  bar.addEventListener('keydown', (event) => { if (event.key === 'Enter') select(); });
});
`;
