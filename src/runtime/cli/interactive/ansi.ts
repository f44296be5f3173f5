/** Plain ANSI styling for the interactive session; every style is the identity when color is off. */
export interface Style {
  readonly enabled: boolean;
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

/** Color only on a terminal, and never when NO_COLOR is set to a non-empty value (https://no-color.org). */
export function colorWanted(env: NodeJS.ProcessEnv, isTTY: boolean | undefined): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY === true;
}

const wrap = (open: number, close: number) => (s: string) => (s ? `\u001b[${open}m${s}\u001b[${close}m` : s);
const plain = (s: string) => s;

export function createStyle(enabled: boolean): Style {
  return {
    enabled,
    bold: enabled ? wrap(1, 22) : plain,
    dim: enabled ? wrap(2, 22) : plain,
    red: enabled ? wrap(31, 39) : plain,
    green: enabled ? wrap(32, 39) : plain,
    yellow: enabled ? wrap(33, 39) : plain,
    cyan: enabled ? wrap(36, 39) : plain,
  };
}
