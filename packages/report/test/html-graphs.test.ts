import { FOLDED, graphSvg, MOST } from '../src/html/graph-svg';
import { highlightedLines } from '../src/html/syntax-highlight';
import { profileInProcess, switchOf } from './support/in-process';
import { built } from './support/runs';

(built ? describe : describe.skip)('html: graphs and source', () => {
  test('a small graph is drawn open, a large one folded away', () => {
    const file = profileInProcess([switchOf('small', 3), switchOf('large', 30)].join(''), 'graphs.js');
    const svg = (name: string) => {
      const fn = file.functions.find((f) => f.meta.name === name)!;
      return { blocks: fn.meta.blockCount, html: graphSvg(fn, file.source, name) };
    };
    const small = svg('small');
    expect(small.blocks).toBeLessThanOrEqual(FOLDED);
    expect(small.html).toMatch(/^<svg class="graph"/);
    // Every edge is drawn with an arrowhead, each block with its first line as its label and code as its title.
    expect(
      small.html.match(
        /<path class="edge[^"]*" data-edge="\d+" d="M[\d. ,L]+"[^>]* marker-end="url\(#small-arrow\)">/g,
      ),
    ).toHaveLength(file.functions.find((f) => f.meta.name === 'small')!.meta.edges.length / 3);
    expect(small.html).toContain('<title>case 1: return 2;</title>');
    const large = svg('large');
    expect(large.blocks).toBeGreaterThan(FOLDED);
    expect(large.blocks).toBeLessThanOrEqual(MOST);
    expect(large.html).toMatch(/^<details class="graph-fold"><summary>Graph of \d+ blocks<\/summary><svg /);
    // A graph of more than MOST blocks is collapsed: fixtures-report's chromium test draws a 300-case switch.
  });

  test("syntax highlighting follows Babel's tokens, across lines, escaped", () => {
    const lines = highlightedLines('const a = `x\n${b}<y>`; // c\n/* d\ne */ 1n;\n', 'a.ts')!;
    expect(lines).toEqual([
      '<span class="tk">const</span> a = <span class="ts">`</span><span class="ts">x</span>',
      '${b}<span class="ts">&#60;y&#62;</span><span class="ts">`</span>; <span class="tc">// c</span>',
      '<span class="tc">/* d</span>',
      '<span class="tc">e */</span> <span class="tn">1n</span>;',
      '',
    ]);
    expect(highlightedLines('if (', 'a.js')).toBeNull();
  });
});
