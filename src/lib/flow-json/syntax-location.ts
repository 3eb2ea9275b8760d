// Finds where a JSON text first breaks. V8's JSON.parse messages do not always carry a position
// ("Unexpected token '}', … is not valid JSON"), and the user needs a line and column to fix the file.

export interface SyntaxLocation {
  offset: number;
  /** What was found there, e.g. `"}"` or "the end of the file". */
  found: string;
  /** What JSON allows there. */
  expected: string;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;

class Broken extends Error {
  readonly location: SyntaxLocation;
  constructor(location: SyntaxLocation) {
    super('broken JSON');
    this.location = location;
  }
}

/** A strict JSON reader that stops at the first error, with where and what it expected. */
class JsonScanner {
  i = 0;
  readonly source: string;

  constructor(source: string) {
    this.source = source;
  }

  fail(expected: string): never {
    const found = this.i >= this.source.length ? 'the end of the file' : JSON.stringify(this.source[this.i]);
    throw new Broken({ offset: this.i, found, expected });
  }
  skipSpace() {
    while (this.i < this.source.length && ' \t\n\r'.includes(this.source[this.i] as string)) this.i++;
  }
  expect(char: string, expected: string) {
    this.skipSpace();
    if (this.source[this.i] !== char) this.fail(expected);
    this.i++;
  }
  string() {
    this.i++; // opening quote
    while (this.i < this.source.length && this.source[this.i] !== '"') {
      const c = this.source.charCodeAt(this.i);
      if (c < 0x20)
        this.fail('a closing quote (strings cannot contain raw line breaks or control characters)');
      if (this.source[this.i] === '\\') {
        this.i++;
        if (this.source[this.i] === 'u' && /^[0-9a-fA-F]{4}$/.test(this.source.slice(this.i + 1, this.i + 5)))
          this.i += 4;
        else if (!'"\\/bfnrt'.includes(this.source[this.i] ?? 'x'))
          this.fail('a valid escape such as \\n, \\" or \\u0041');
      }
      this.i++;
    }
    if (this.i >= this.source.length) this.fail('a closing quote');
    this.i++;
  }
  value(): void {
    this.skipSpace();
    const c = this.source[this.i];
    if (c === '{') this.object();
    else if (c === '[') this.array();
    else if (c === '"') this.string();
    else this.scalar();
  }
  scalar() {
    for (const pattern of [NUMBER, LITERAL]) {
      pattern.lastIndex = this.i;
      if (pattern.test(this.source)) {
        this.i = pattern.lastIndex;
        return;
      }
    }
    this.fail('a value (object, array, string, number, true, false or null)');
  }
  object() {
    this.i++;
    this.skipSpace();
    if (this.source[this.i] === '}') {
      this.i++;
      return;
    }
    for (;;) {
      this.skipSpace();
      if (this.source[this.i] !== '"') this.fail('a property name in double quotes');
      this.string();
      this.expect(':', 'a colon after the property name');
      this.value();
      this.skipSpace();
      if (this.source[this.i] === '}') {
        this.i++;
        return;
      }
      this.expect(',', 'a comma or a closing brace');
    }
  }
  array() {
    this.i++;
    this.skipSpace();
    if (this.source[this.i] === ']') {
      this.i++;
      return;
    }
    for (;;) {
      this.value();
      this.skipSpace();
      if (this.source[this.i] === ']') {
        this.i++;
        return;
      }
      this.expect(',', 'a comma or a closing bracket');
    }
  }
}

/** The first syntax error in `source`, or null when the text is valid JSON. */
export function locateSyntaxError(source: string): SyntaxLocation | null {
  const scanner = new JsonScanner(source);
  try {
    scanner.value();
    scanner.skipSpace();
    if (scanner.i < source.length) scanner.fail('the end of the file after the top-level value');
    return null;
  } catch (error) {
    if (error instanceof Broken) return error.location;
    throw error;
  }
}
