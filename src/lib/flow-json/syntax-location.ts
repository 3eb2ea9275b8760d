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

/** The first syntax error in `source`, or null when the text is valid JSON. */
export function locateSyntaxError(source: string): SyntaxLocation | null {
  let i = 0;
  const fail = (expected: string): never => {
    const found = i >= source.length ? 'the end of the file' : JSON.stringify(source[i]);
    throw new Broken({ offset: i, found, expected });
  };
  const skipSpace = () => {
    while (i < source.length && ' \t\n\r'.includes(source[i] as string)) i++;
  };
  const expect = (char: string, expected: string) => {
    skipSpace();
    if (source[i] !== char) fail(expected);
    i++;
  };
  const string = () => {
    i++; // opening quote
    while (i < source.length && source[i] !== '"') {
      const c = source.charCodeAt(i);
      if (c < 0x20) fail('a closing quote (strings cannot contain raw line breaks or control characters)');
      if (source[i] === '\\') {
        i++;
        if (source[i] === 'u' && /^[0-9a-fA-F]{4}$/.test(source.slice(i + 1, i + 5))) i += 4;
        else if (!'"\\/bfnrt'.includes(source[i] ?? 'x')) fail('a valid escape such as \\n, \\" or \\u0041');
      }
      i++;
    }
    if (i >= source.length) fail('a closing quote');
    i++;
  };
  const value = (): void => {
    skipSpace();
    const c = source[i];
    if (c === '{') object();
    else if (c === '[') array();
    else if (c === '"') string();
    else scalar();
  };
  const scalar = () => {
    for (const pattern of [NUMBER, LITERAL]) {
      pattern.lastIndex = i;
      if (pattern.test(source)) {
        i = pattern.lastIndex;
        return;
      }
    }
    fail('a value (object, array, string, number, true, false or null)');
  };
  const object = () => {
    i++;
    skipSpace();
    if (source[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      skipSpace();
      if (source[i] !== '"') fail('a property name in double quotes');
      string();
      expect(':', 'a colon after the property name');
      value();
      skipSpace();
      if (source[i] === '}') {
        i++;
        return;
      }
      expect(',', 'a comma or a closing brace');
    }
  };
  const array = () => {
    i++;
    skipSpace();
    if (source[i] === ']') {
      i++;
      return;
    }
    for (;;) {
      value();
      skipSpace();
      if (source[i] === ']') {
        i++;
        return;
      }
      expect(',', 'a comma or a closing bracket');
    }
  };
  try {
    value();
    skipSpace();
    if (i < source.length) fail('the end of the file after the top-level value');
    return null;
  } catch (error) {
    if (error instanceof Broken) return error.location;
    throw error;
  }
}
