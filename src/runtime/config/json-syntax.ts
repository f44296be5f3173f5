/**
 * Locates the first syntax error in a JSON text. `JSON.parse` in Node 20 often reports no position
 * ("Unexpected token '}'"), so this small strict scanner finds the offset for a line/column message.
 */

export interface JsonSyntaxProblem {
  offset: number;
  line: number;
  column: number;
  problem: string;
}

class ScanError extends Error {
  constructor(
    readonly offset: number,
    readonly problem: string,
  ) {
    super(problem);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class Scanner {
  private at = 0;
  constructor(private readonly text: string) {}

  scanDocument(): void {
    this.skipSpace();
    if (this.at >= this.text.length) throw new ScanError(this.at, 'the file is empty; write {} for an empty config');
    this.value(0);
    this.skipSpace();
    if (this.at < this.text.length) throw new ScanError(this.at, 'unexpected text after the end of the JSON value');
  }

  private skipSpace(): void {
    while (this.at < this.text.length && ' \t\r\n'.includes(this.text.charAt(this.at))) this.at++;
  }

  private fail(expected: string): never {
    const found = this.at >= this.text.length ? 'the end of the file' : JSON.stringify(this.text.charAt(this.at));
    throw new ScanError(this.at, `expected ${expected} but found ${found}`);
  }

  private value(depth: number): void {
    if (depth > 512) throw new ScanError(this.at, 'nesting is too deep');
    this.skipSpace();
    const ch = this.text.charAt(this.at);
    if (ch === '{') return this.object(depth);
    if (ch === '[') return this.array(depth);
    if (ch === '"') return this.string();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return;
      }
    }
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (match && match[0].length > 0) {
      this.at += match[0].length;
      return;
    }
    this.fail('a value (string, number, object, array, true, false or null)');
  }

  private object(depth: number): void {
    this.at++;
    this.skipSpace();
    if (this.text.charAt(this.at) === '}') {
      this.at++;
      return;
    }
    for (;;) {
      this.skipSpace();
      if (this.text.charAt(this.at) !== '"') this.fail('a property name in double quotes');
      this.string();
      this.skipSpace();
      if (this.text.charAt(this.at) !== ':') this.fail('":" after the property name');
      this.at++;
      this.value(depth + 1);
      this.skipSpace();
      const ch = this.text.charAt(this.at);
      if (ch === '}') {
        this.at++;
        return;
      }
      if (ch !== ',') this.fail('"," or "}"');
      this.at++;
      this.skipSpace();
      if (this.text.charAt(this.at) === '}') this.fail('a property name (trailing commas are not allowed)');
    }
  }

  private array(depth: number): void {
    this.at++;
    this.skipSpace();
    if (this.text.charAt(this.at) === ']') {
      this.at++;
      return;
    }
    for (;;) {
      this.value(depth + 1);
      this.skipSpace();
      const ch = this.text.charAt(this.at);
      if (ch === ']') {
        this.at++;
        return;
      }
      if (ch !== ',') this.fail('"," or "]"');
      this.at++;
      this.skipSpace();
      if (this.text.charAt(this.at) === ']') this.fail('a value (trailing commas are not allowed)');
    }
  }

  private string(): void {
    this.at++;
    while (this.at < this.text.length) {
      const ch = this.text.charAt(this.at);
      if (ch === '"') {
        this.at++;
        return;
      }
      if (ch === '\\') {
        const next = this.text.charAt(this.at + 1);
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.at + 2, this.at + 6))) {
            throw new ScanError(this.at, 'invalid \\u escape (needs 4 hex digits)');
          }
          this.at += 6;
          continue;
        }
        if (!'"\\/bfnrt'.includes(next) || next === '') throw new ScanError(this.at, 'invalid escape in string');
        this.at += 2;
        continue;
      }
      if (ch < ' ') throw new ScanError(this.at, 'line break or control character inside a string');
      this.at++;
    }
    throw new ScanError(this.at, 'unterminated string');
  }
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return { line, column };
}

/** The first syntax problem of `text`, or undefined when it is valid JSON. */
export function findJsonSyntaxProblem(text: string): JsonSyntaxProblem | undefined {
  try {
    new Scanner(text).scanDocument();
    return undefined;
  } catch (error) {
    if (!(error instanceof ScanError)) throw error;
    return { offset: error.offset, problem: error.problem, ...lineAndColumn(text, error.offset) };
  }
}
