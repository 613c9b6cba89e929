import { formatPercent } from './coverage-figures';

/**
 * Colour for terminals that show it: never when `NO_COLOR` is set (https://no-color.org), always when
 * `FORCE_COLOR` is set to anything but `0`, otherwise only when the stream is a terminal.
 */
export class TerminalStyle {
  readonly enabled: boolean;

  constructor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env) {
    if (env.NO_COLOR) this.enabled = false;
    else if (env.FORCE_COLOR !== undefined) this.enabled = env.FORCE_COLOR !== '0';
    else this.enabled = stream.isTTY === true;
  }

  bold = (text: string) => this.wrap(1, 22, text);
  dim = (text: string) => this.wrap(2, 22, text);
  red = (text: string) => this.wrap(31, 39, text);
  green = (text: string) => this.wrap(32, 39, text);
  yellow = (text: string) => this.wrap(33, 39, text);

  /**
   * A coverage percentage coloured like jest's table: green from 80 %, yellow from 50 %, red below; `n/a`
   * (nothing to divide by) uncoloured.
   */
  coverage(percent: number | null, text = formatPercent(percent)): string {
    if (percent === null) return text;
    return percent >= 80 ? this.green(text) : percent >= 50 ? this.yellow(text) : this.red(text);
  }

  private wrap(open: number, close: number, text: string): string {
    return this.enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  }
}
