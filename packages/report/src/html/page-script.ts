/**
 * The file page's script: the source's code no run reached and its conditions with an outcome no run took are
 * marked to the column on load; selecting a path (click, Enter, a link to it, `n`/`p` for the next and
 * previous path no run took) highlights, to the column, the code it runs and where it decides (the CSS Custom
 * Highlight API; where a browser lacks it, whole lines), numbers its lines and highlights its edges in the
 * function's graph, and puts the path in the address (`#FILE-FUNCTION-PATH`), so a link opens the page on it.
 * A checkbox shows the implicit-exception paths no run took. Plain browser JavaScript, inlined.
 */
export const pageScript = `
const highlights = typeof CSS !== 'undefined' && CSS.highlights && typeof Highlight === 'function';
/** The text position at column \`column\` of line \`n\`'s code. */
function point(n, column) {
  const code = document.querySelector('#L' + n + ' .code');
  if (!code) return null;
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  let left = column, last = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (left <= node.length) return { node, offset: left };
    left -= node.length;
    last = node;
  }
  return last ? { node: last, offset: last.length } : { node: code, offset: 0 };
}
/**
 * An extent's text, a range per line (one across lines would take the line numbers between), the lines after
 * the first from their code on (not their indentation).
 */
function rangesOf([line, column, endLine, endColumn]) {
  const ranges = [];
  for (let n = line; n <= endLine; n++) {
    const indent = n === line ? column : (document.querySelector('#L' + n + ' .code')?.textContent.search(/\\S|$/) ?? 0);
    const start = point(n, indent), end = point(n, n === endLine ? endColumn : Infinity);
    if (!start || !end) continue;
    const range = new Range();
    range.setStart(start.node, start.offset);
    range.setEnd(end.node, end.offset);
    if (!range.collapsed) ranges.push(range);
  }
  return ranges;
}
/** Highlights \`extents\` as \`name\` (a later \`priority\` paints over an earlier one). */
function paint(name, extents, priority) {
  const highlight = new Highlight(...extents.flatMap(rangesOf));
  highlight.priority = priority;
  CSS.highlights.set(name, highlight);
}
const source = document.querySelector('.source');
if (highlights) {
  document.body.classList.add('precise');
  if (source?.dataset.missed) paint('pp-missed', JSON.parse(source.dataset.missed), 0);
  if (source?.dataset.undecided) paint('pp-undecided', JSON.parse(source.dataset.undecided), 0);
}
function select(item, scroll) {
  document.querySelectorAll('.path[aria-selected="true"]').forEach((p) => p.setAttribute('aria-selected', 'false'));
  document.querySelectorAll('.line.hl, .line.decision').forEach((l) => l.classList.remove('hl', 'decision'));
  document.querySelectorAll('.edge.on').forEach((e) => e.classList.remove('on'));
  item.setAttribute('aria-selected', 'true');
  for (const n of JSON.parse(item.dataset.lines)) document.getElementById('L' + n)?.classList.add('hl');
  for (const n of JSON.parse(item.dataset.decisions)) document.getElementById('L' + n)?.classList.add('decision');
  if (highlights) {
    CSS.highlights.delete('pp-taken');
    CSS.highlights.delete('pp-untaken');
    paint('pp-path', JSON.parse(item.dataset.code), 1);
    paint(item.classList.contains('unexecuted') ? 'pp-untaken' : 'pp-taken', JSON.parse(item.dataset.ranges), 2);
  }
  const graph = document.getElementById('graph-' + item.dataset.fn);
  for (const e of JSON.parse(item.dataset.edges)) graph?.querySelector('[data-edge~="' + e + '"]')?.classList.add('on');
  history.replaceState(null, '', '#' + encodeURIComponent(item.id));
  document.getElementById('L' + JSON.parse(item.dataset.lines)[0])?.scrollIntoView({ block: 'nearest' });
  if (scroll) item.scrollIntoView({ block: 'nearest' });
}
document.querySelectorAll('.path').forEach((item) => {
  item.tabIndex = 0;
  item.addEventListener('click', (event) => { if (!event.target.closest('a')) select(item, false); });
  item.addEventListener('keydown', (event) => { if (event.key === 'Enter') select(item, false); });
});
document.getElementById('show-implicit')?.addEventListener('change', (event) => {
  document.body.classList.toggle('show-implicit', event.target.checked);
});
document.addEventListener('keydown', (event) => {
  if (event.key !== 'n' && event.key !== 'p') return;
  if (event.target.closest?.('input, textarea') || event.ctrlKey || event.metaKey || event.altKey) return;
  const untaken = [...document.querySelectorAll('.path.unexecuted')].filter((p) => p.offsetParent !== null);
  if (untaken.length === 0) return;
  const current = document.querySelector('.path[aria-selected="true"]');
  const all = [...document.querySelectorAll('.path')];
  const at = current ? all.indexOf(current) : -1;
  const next = event.key === 'n'
    ? untaken.find((p) => all.indexOf(p) > at) ?? untaken[0]
    : [...untaken].reverse().find((p) => all.indexOf(p) < at) ?? untaken[untaken.length - 1];
  select(next, true);
  next.focus({ preventScroll: true });
});
function openHash() {
  const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
  if (target?.classList.contains('path')) {
    if (target.classList.contains('implicit')) {
      document.body.classList.add('show-implicit');
      const box = document.getElementById('show-implicit');
      if (box) box.checked = true;
    }
    select(target, true);
  }
}
addEventListener('hashchange', openHash);
openHash();
`;

/**
 * The index's script: a click (or Enter) on a column's header sorts the files by it, again in the other
 * direction; the search box keeps the files whose name holds its text; the checkbox (if any) those with untaken
 * paths.
 */
export const indexScript = `
const body = document.querySelector('table.files tbody');
const headers = [...document.querySelectorAll('table.files th')];
headers.forEach((th, column) => {
  const sort = () => {
    const ascending = th.getAttribute('aria-sort') !== 'ascending';
    headers.forEach((h) => h.setAttribute('aria-sort', 'none'));
    th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
    const key = (row) => row.cells[column].dataset.sort;
    const rows = [...body.rows].sort((a, b) => {
      const x = key(a), y = key(b);
      const order = isNaN(x) || isNaN(y) ? x.localeCompare(y) : Number(x) - Number(y);
      return ascending ? order : -order;
    });
    body.append(...rows);
  };
  th.addEventListener('click', sort);
  th.addEventListener('keydown', (event) => { if (event.key === 'Enter') sort(); });
});
function filter() {
  const text = document.getElementById('filter').value.toLowerCase();
  const untaken = document.getElementById('untaken-only')?.checked;
  for (const row of body.rows) {
    const shown = row.cells[0].textContent.toLowerCase().includes(text) && (!untaken || Number(row.cells[3].dataset.sort) > 0);
    row.hidden = !shown;
  }
}
document.getElementById('filter').addEventListener('input', filter);
// An index of interprocedural files alone has no untaken paths to keep.
document.getElementById('untaken-only')?.addEventListener('change', filter);
`;
