/**
 * Measures source files and the functions in them, for test/unit/code-size.test.ts. The installed
 * TypeScript compiler is the native one (no JavaScript parser API), so this reads the code with a small
 * tokenizer that knows enough of the language to skip comments, strings, template literals and regular
 * expressions, and to find function bodies:
 * - `=> {` or `=> (` opens an arrow function's body;
 * - `name(...) {` (a declaration or method, `function (...)`, generics) opens a body, as does the same
 *   with a return type between `)` and `{`; control statements (`if (...) {` and the like) do not.
 * A function's size is its body's lines, from the line of its opening bracket to the line of its closing one.
 */

export interface Token {
  text: string;
  line: number;
}

export interface FunctionSize {
  /** The line (1-based) where the body opens. */
  line: number;
  lines: number;
}

const CONTROL = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'return', 'typeof', 'await']);
const PUNCTUATION = ['=>', '...', '?.', '(', ')', '{', '}', '[', ']', '<', '>', ':', ';', ',', '|', '&', '='];
/** After these a `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = /^(?:[(,=:[!&|?{};+\-*%<>~^]|=>|return|typeof|case|await)$/;

class Scanner {
  readonly tokens: Token[] = [];
  private i = 0;
  private line = 1;
  /** Open `{` (false) and template `${` (true), so a `}` knows whether it resumes a template literal. */
  private readonly braces: boolean[] = [];
  private readonly src: string;

  constructor(src: string) {
    this.src = src;
  }

  run(): Token[] {
    while (this.i < this.src.length) this.step();
    return this.tokens;
  }

  private push(text: string): void {
    this.tokens.push({ text, line: this.line });
  }

  /** Advances over `n` characters, counting the lines they end. */
  private skip(n: number): void {
    for (let k = 0; k < n && this.i < this.src.length; k++, this.i++) {
      if (this.src[this.i] === '\n') this.line++;
    }
  }

  private skipTo(end: string): void {
    const at = this.src.indexOf(end, this.i);
    this.skip((at < 0 ? this.src.length : at + end.length) - this.i);
  }

  private step(): void {
    const c = this.src[this.i] ?? '';
    const next = this.src[this.i + 1];
    if (/\s/.test(c)) this.skip(1);
    else if (c === '/' && next === '/') this.skipTo('\n');
    else if (c === '/' && next === '*') this.skipTo('*/');
    else if (c === '"' || c === "'") this.quoted(c);
    else if (c === '`') this.template();
    else if (c === '/' && BEFORE_REGEX.test(this.tokens.at(-1)?.text ?? ';')) this.regex();
    else if (c === '}' && this.braces.at(-1) === true) {
      this.braces.pop();
      this.template();
    } else this.code(c);
  }

  /** A word or a punctuation token of code. */
  private code(c: string): void {
    if (c === '{') this.braces.push(false);
    if (c === '}') this.braces.pop();
    const word = /^[\p{L}\p{N}_$#]+/u.exec(this.src.slice(this.i, this.i + 200))?.[0];
    const text = word ?? PUNCTUATION.find((p) => this.src.startsWith(p, this.i)) ?? c;
    this.push(text);
    this.skip(text.length);
  }

  private quoted(quote: string): void {
    this.push('"');
    this.skip(1);
    while (this.i < this.src.length && this.src[this.i] !== quote)
      this.skip(this.src[this.i] === '\\' ? 2 : 1);
    this.skip(1);
  }

  private regex(): void {
    this.push('/re/');
    this.skip(1);
    let inClass = false;
    while (this.i < this.src.length) {
      const c = this.src[this.i];
      if (c === '\\') this.skip(2);
      else if (c === '\n' || (c === '/' && !inClass)) break;
      else {
        if (c === '[') inClass = true;
        if (c === ']') inClass = false;
        this.skip(1);
      }
    }
    this.skip(1);
  }

  /** Reads template text from a backtick or a closing `}` of `${`, until the end or the next `${`. */
  private template(): void {
    this.skip(1);
    while (this.i < this.src.length) {
      const c = this.src[this.i];
      if (c === '\\') this.skip(2);
      else if (c === '`') {
        this.skip(1);
        this.push('"');
        return;
      } else if (c === '$' && this.src[this.i + 1] === '{') {
        this.skip(2);
        this.braces.push(true);
        return;
      } else this.skip(1);
    }
  }
}

export function tokenize(src: string): Token[] {
  return new Scanner(src).run();
}

const OPENERS: Record<string, string> = { '(': ')', '{': '}', '[': ']' };

/** The index of the token closing the bracket opened at `open`. */
function closing(tokens: readonly Token[], open: number): number {
  const stack: string[] = [];
  for (let k = open; k < tokens.length; k++) {
    const text = tokens[k]?.text ?? '';
    // Own keys only: a token such as `toString` must not find Object.prototype's.
    const close = Object.hasOwn(OPENERS, text) ? OPENERS[text] : undefined;
    if (close) stack.push(close);
    else if (text === stack.at(-1)) {
      stack.pop();
      if (stack.length === 0) return k;
    }
  }
  return tokens.length - 1;
}

/** Tokens after which a `{` in a return type is an object type, not the function's body. */
const TYPE_CONTINUES = new Set([':', '|', '&', '<', ',', '(', '[', '=>', 'keyof']);
const NOT_A_TYPE = new Set([';', ')', '}', ']', '=', '?', '?.']);

/** After `)`: the index of the function body's `{` when a return type (or nothing) leads to one. */
function bodyAfterParams(tokens: readonly Token[], close: number): number | null {
  let k = close + 1;
  if (tokens[k]?.text === '{') return k;
  if (tokens[k]?.text !== ':') return null;
  let angles = 0;
  for (k++; k < tokens.length; k++) {
    const text = tokens[k]?.text ?? '';
    const previous = tokens[k - 1]?.text ?? '';
    if (text === '{' && (angles > 0 || TYPE_CONTINUES.has(previous))) k = closing(tokens, k);
    else if (text === '{') return k;
    else if (text === '(' || text === '[') k = closing(tokens, k);
    else if (text === '<') angles++;
    else if (text === '>') angles--;
    else if (text === '=>' && angles === 0) return null;
    else if (angles === 0 && (NOT_A_TYPE.has(text) || (text === ',' && angles === 0))) return null;
  }
  return null;
}

/** Where each function body opens, as token indexes. */
function bodies(tokens: readonly Token[]): Set<number> {
  const found = new Set<number>();
  tokens.forEach((token, k) => {
    const next = tokens[k + 1]?.text;
    if (token.text === '=>' && (next === '{' || next === '(')) found.add(k + 1);
    if (token.text !== '(') return;
    const before = tokens[k - 1]?.text ?? '';
    const named = /^[\p{L}_$#][\p{L}\p{N}_$#]*$/u.test(before) && !CONTROL.has(before);
    if (!named && before !== '>') return;
    const body = bodyAfterParams(tokens, closing(tokens, k));
    if (body !== null) found.add(body);
  });
  return found;
}

export function functionSizes(src: string): FunctionSize[] {
  const tokens = tokenize(src);
  return [...bodies(tokens)]
    .sort((a, b) => a - b)
    .map((open) => {
      const line = tokens[open]?.line ?? 0;
      return { line, lines: (tokens[closing(tokens, open)]?.line ?? line) - line + 1 };
    });
}

export function lineCount(src: string): number {
  return src.split('\n').length - (src.endsWith('\n') ? 1 : 0);
}
