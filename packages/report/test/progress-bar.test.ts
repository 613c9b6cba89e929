import { ProgressBar } from '../src/progress-bar';

/** A terminal (or not) that records what is written, and a clock the test moves. */
function setup(isTTY: boolean) {
  const written: string[] = [];
  let time = 0;
  const bar = new ProgressBar('decoding', { isTTY, write: (text: string) => written.push(text) }, () => time);
  return { bar, written, advance: (ms: number) => (time += ms) };
}

describe('progress bar', () => {
  test('silent during the first second, then drawn on the terminal, then cleared', () => {
    const { bar, written, advance } = setup(true);
    bar.update(1, 4);
    expect(written).toEqual([]);
    advance(1500);
    bar.update(2, 4);
    bar.finish();
    expect(written).toEqual([`\rdecoding [${'#'.repeat(15)}${'.'.repeat(15)}] 2/4`, '\r\u001b[2K']);
  });

  test('never drawn when stderr is not a terminal', () => {
    const { bar, written, advance } = setup(false);
    advance(5000);
    bar.update(3, 4);
    bar.finish();
    expect(written).toEqual([]);
  });
});
