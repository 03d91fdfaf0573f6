// `stratum pointcloud --hardness EXPR`: arithmetic of x, y, z read by a small parser of its own and
// turned into a function, never handed to JavaScript. With `new Function`, a filter over the text
// still let arrow functions through (recursion for ever; a property written onto Math.abs).
//
//   ternary  := or ('?' ternary ':' ternary)?
//   or       := and ('||' and)*            and := compare ('&&' compare)*
//   compare  := sum (('<' | '<=' | '>' | '>=' | '==' | '===' | '!=' | '!==') sum)*
//   sum      := product (('+' | '-') product)*       product := unary (('*' | '/' | '%') unary)*
//   unary    := ('-' | '+' | '!') unary | power      power := primary ('**' unary)?
//   primary  := number | name | name '(' ternary (',' ternary)* ')' | '(' ternary ')'
//
// Names: x, y, z, Infinity, NaN and Math's constants (PI, E, …); calls: Math's functions (min, sin, …).

export type Hardness = (x: number, y: number, z: number) => number;
type Node = (x: number, y: number, z: number) => number;

export class ExpressionError extends Error {}

const TOKEN = /\s*(?:(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|([A-Za-z_]\w*)|(===|!==|==|!=|<=|>=|&&|\|\||\*\*|[-+*/%<>!?:(),]))/y;

/** The constants and functions of Math by name (own properties only: no prototype names). */
const MATH = Math as unknown as Record<string, unknown>;
const CONSTANTS = new Map<string, number>([
  ['Infinity', Infinity],
  ['NaN', NaN],
  ...Object.getOwnPropertyNames(Math)
    .filter((n) => typeof MATH[n] === 'number')
    .map((n) => [n, MATH[n] as number] as [string, number]),
]);
const FUNCTIONS = new Map<string, (...a: number[]) => number>(
  Object.getOwnPropertyNames(Math)
    .filter((n) => typeof MATH[n] === 'function')
    .map((n) => [n, MATH[n] as (...a: number[]) => number]),
);

/** The longest expression taken: enough for any formula, not a program. */
const MAX_LENGTH = 2000;

export function parseHardness(text: string): Hardness {
  if (text.length > MAX_LENGTH) throw new ExpressionError(`longer than ${MAX_LENGTH} characters`);
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) {
      if (/^\s*$/.test(text.slice(at))) break;
      throw new ExpressionError(`cannot read "${text.slice(at).trim().slice(0, 20)}": only numbers, x, y, z, Math's names, operators, ?: and parentheses`);
    }
    tokens.push(m[1] ?? m[2] ?? m[3]!);
  }
  let i = 0;
  const peek = () => tokens[i];
  const take = (t: string) => {
    if (tokens[i] !== t) throw new ExpressionError(tokens[i] === undefined ? `"${t}" expected at the end` : `"${t}" expected, not "${tokens[i]}"`);
    i++;
  };
  const binary = (next: () => Node, ops: Record<string, (a: number, b: number) => number>) => (): Node => {
    let left = next();
    while (peek() !== undefined && Object.hasOwn(ops, peek()!)) {
      const op = ops[tokens[i++]!]!;
      const l = left;
      const r = next();
      left = (x, y, z) => op(l(x, y, z), r(x, y, z));
    }
    return left;
  };
  const truth = (v: boolean) => (v ? 1 : 0);
  const ternary = (): Node => {
    const cond = or();
    if (peek() !== '?') return cond;
    i++;
    const a = ternary();
    take(':');
    const b = ternary();
    return (x, y, z) => (cond(x, y, z) ? a(x, y, z) : b(x, y, z));
  };
  const primary = (): Node => {
    const t = tokens[i++];
    if (t === undefined) throw new ExpressionError('the expression ends too soon');
    if (t === '(') {
      const inner = ternary();
      take(')');
      return inner;
    }
    if (/^[\d.]/.test(t)) {
      const v = Number(t);
      return () => v;
    }
    if (t === 'x') return (x) => x;
    if (t === 'y') return (_x, y) => y;
    if (t === 'z') return (_x, _y, z) => z;
    const fn = FUNCTIONS.get(t);
    if (fn) {
      take('(');
      const args: Node[] = [];
      if (peek() !== ')') {
        args.push(ternary());
        while (peek() === ',') {
          i++;
          args.push(ternary());
        }
      }
      take(')');
      return (x, y, z) => fn(...args.map((a) => a(x, y, z)));
    }
    const c = CONSTANTS.get(t);
    if (c !== undefined) return () => c;
    throw new ExpressionError(`unknown name "${t}" (x, y, z and Math's functions and constants: min, max, sin, abs, PI, …)`);
  };
  const power = (): Node => {
    const base = primary();
    if (peek() !== '**') return base;
    i++;
    const exp = unary();
    return (x, y, z) => base(x, y, z) ** exp(x, y, z);
  };
  const unary = (): Node => {
    const t = peek();
    if (t === '-' || t === '+' || t === '!') {
      i++;
      const inner = unary();
      if (t === '-') return (x, y, z) => -inner(x, y, z);
      if (t === '!') return (x, y, z) => (inner(x, y, z) ? 0 : 1);
      return inner;
    }
    return power();
  };
  const product = binary(unary, { '*': (a, b) => a * b, '/': (a, b) => a / b, '%': (a, b) => a % b });
  const sum = binary(product, { '+': (a, b) => a + b, '-': (a, b) => a - b });
  const compare = binary(sum, {
    '<': (a, b) => truth(a < b),
    '<=': (a, b) => truth(a <= b),
    '>': (a, b) => truth(a > b),
    '>=': (a, b) => truth(a >= b),
    '==': (a, b) => truth(a === b),
    '===': (a, b) => truth(a === b),
    '!=': (a, b) => truth(a !== b),
    '!==': (a, b) => truth(a !== b),
  });
  const and = binary(compare, { '&&': (a, b) => (a ? b : a) });
  const or = binary(and, { '||': (a, b) => (a ? a : b) });
  const root = ternary();
  if (i < tokens.length) throw new ExpressionError(`unexpected "${tokens[i]}"`);
  return root;
}
