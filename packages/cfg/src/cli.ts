import { readFileSync } from 'node:fs';
import { buildInstrumentedCfgs, parseSource } from './build';
import { CfgError } from './cfg-error';
import { formatArrows } from './format-arrows';
import { formatDot } from './format-dot';

const usage = 'usage: pathprof-cfg [--dot] FILE [FUNCTION]';

/** `pathprof-cfg FILE [FUNCTION]`: prints the graph of every function in FILE (or those named FUNCTION). */
export function main(args: string[]): void {
  const dot = args.includes('--dot');
  const [file, only] = args.filter((a) => a !== '--dot');
  if (!file) {
    console.error(usage);
    process.exitCode = 2;
    return;
  }
  let code: string;
  try {
    code = readFileSync(file, 'utf8');
  } catch (error) {
    console.error(`pathprof-cfg: cannot read ${file}: ${(error as Error).message}`);
    process.exitCode = 2;
    return;
  }
  try {
    const graphs = buildInstrumentedCfgs(parseSource(code, file).program, file).filter(
      (g) => !only || g.name === only,
    );
    if (only && graphs.length === 0) {
      console.error(`pathprof-cfg: ${file} has no function named ${only}`);
      process.exitCode = 1;
      return;
    }
    for (const g of graphs) {
      const where = g.range ? `${file}:${g.range.start.line}` : file;
      if (dot) console.log(formatDot(g));
      else
        console.log(
          `# ${g.name} (${g.kind}, ${where}): ${g.blockCount} blocks, ${g.edgeCount} edges\n${formatArrows(g)}\n`,
        );
    }
  } catch (error) {
    // Babel's syntax errors say where but not which file; the graph builder's errors already name it.
    const message = (error as Error).message;
    console.error(`pathprof-cfg: ${error instanceof CfgError ? message : `${file}: ${message}`}`);
    process.exitCode = 1;
  }
}
