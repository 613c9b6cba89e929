/**
 * The file page's script: selecting a path (click or Enter) highlights the lines its blocks cover, marks the
 * lines where it decides, and highlights its edges in the function's graph. Plain browser JavaScript, inlined.
 */
export const pageScript = `
document.querySelectorAll('.path').forEach((item) => {
  item.tabIndex = 0;
  const select = () => {
    document.querySelectorAll('.path[aria-selected="true"]').forEach((p) => p.setAttribute('aria-selected', 'false'));
    document.querySelectorAll('.line.hl, .line.decision').forEach((l) => l.classList.remove('hl', 'decision'));
    document.querySelectorAll('.edge.on').forEach((e) => e.classList.remove('on'));
    item.setAttribute('aria-selected', 'true');
    for (const n of JSON.parse(item.dataset.lines)) document.getElementById('L' + n)?.classList.add('hl');
    for (const n of JSON.parse(item.dataset.decisions)) document.getElementById('L' + n)?.classList.add('decision');
    const graph = document.getElementById('graph-' + item.dataset.fn);
    for (const e of JSON.parse(item.dataset.edges)) graph?.querySelector('[data-edge="' + e + '"]')?.classList.add('on');
    document.getElementById('L' + JSON.parse(item.dataset.lines)[0])?.scrollIntoView({ block: 'nearest' });
  };
  item.addEventListener('click', select);
  item.addEventListener('keydown', (event) => { if (event.key === 'Enter') select(); });
});
`;
