// The restricted evaluator behind metadata's post_process_expr (e.g. `value => value.toUpperCase()`,
// `JSON.parse`). The text is parsed by jsep into a tree and the tree is walked here with an
// allow-list: nothing is ever handed to eval or new Function, no prototype or constructor is ever
// reachable, and a step budget ends every evaluation (there are no loops, but map/filter and long
// strings still cost work).
import jsep from 'jsep';
import jsepArrow from '@jsep-plugin/arrow';

jsep.plugins.register(jsepArrow);
// The plugin makes `=>` right-associative, and jsep then lets any right-associative operator after
// it take the arrow as its left operand: `v => v ** 3` became `(v => v) ** 3`. Left-associative,
// `=>` binds loosest as in JavaScript; only a curried arrow (`a => b => a`) changes, into an arrow
// whose parameter is an arrow, which makeArrow refuses (the evaluator never returned a function).
jsep.addBinaryOp('=>', 0.1);

/** The one error this module throws: a refused or failing expression, with a reason. */
export class ExpressionError extends Error {
  override name = 'ExpressionError';
}

/** The longest expression text accepted (a post-process is a one-liner). */
const EXPRESSION_MAX_LENGTH = 2_000;
/** Steps one evaluation may take: one per tree node visited, plus one per 1,000 characters or items a method reads. */
export const EXPRESSION_STEP_BUDGET = 10_000;
/** How deep calls and nested nodes may go. */
const MAX_DEPTH = 200;
/** No string the evaluator builds may grow past this. */
const MAX_STRING = 1_000_000;

/** Names never readable, even when a JSON object has them as its own keys. */
const FORBIDDEN_NAMES = new Set(['__proto__', 'constructor', 'prototype', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);

type Node = jsep.Expression;

interface Context {
  steps: number;
  readonly budget: number;
}

/** A function the expression may call: an allowed global, or an arrow written in the expression. */
class Callable {
  constructor(
    readonly label: string,
    readonly invoke: (args: unknown[], context: Context, depth: number) => unknown,
  ) {}
}

/** JSON and Math: namespaces whose allowed members are Callables. */
class Namespace {
  constructor(
    readonly label: string,
    readonly members: ReadonlyMap<string, Callable>,
  ) {}
}

function spend(context: Context, cost: number) {
  context.steps += cost;
  if (context.steps > context.budget) throw new ExpressionError('Expression exceeded its step budget');
}

/** Work a native method does on a long string or array, charged to the budget before it runs. */
const sizeCost = (size: number) => 1 + Math.floor(size / 1_000);

function isPrimitive(value: unknown): value is string | number | boolean | null | undefined {
  return value === null || value === undefined || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function checkString(value: string): string {
  if (value.length > MAX_STRING) throw new ExpressionError('Expression built a string that is too long');
  return value;
}

function stringArg(args: unknown[], index: number, method: string): string {
  const arg = args[index];
  if (typeof arg !== 'string') throw new ExpressionError(`${method} expects a string argument`);
  return arg;
}

function optionalInt(args: unknown[], index: number, method: string): number | undefined {
  const arg = args[index];
  if (arg === undefined) return undefined;
  if (typeof arg !== 'number' || !Number.isFinite(arg)) throw new ExpressionError(`${method} expects a number argument`);
  return Math.trunc(arg);
}

function callback(args: unknown[], method: string): Callable {
  const arg = args[0];
  if (!(arg instanceof Callable)) throw new ExpressionError(`${method} expects an arrow function`);
  return arg;
}

const GLOBALS = new Map<string, Callable | Namespace>([
  ['JSON', new Namespace('JSON', new Map([['parse', new Callable('JSON.parse', (args, context) => {
    const text = stringArg(args, 0, 'JSON.parse');
    spend(context, sizeCost(text.length));
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new ExpressionError(`JSON.parse failed: ${error instanceof Error ? error.message : 'invalid JSON'}`);
    }
  })]]))],
  ['Math', new Namespace('Math', new Map(
    (['round', 'floor', 'ceil', 'abs', 'min', 'max'] as const).map((name) => [name, new Callable(`Math.${name}`, (args) => {
      if (!args.every((arg) => typeof arg === 'number')) throw new ExpressionError(`Math.${name} expects numbers`);
      const numbers = args;
      if (name === 'min') return Math.min(...numbers);
      if (name === 'max') return Math.max(...numbers);
      return Math[name](numbers[0] ?? Number.NaN);
    })]),
  ))],
  ['Number', new Callable('Number', (args) => {
    const arg = args[0];
    if (!isPrimitive(arg)) throw new ExpressionError('Number expects a string, number or boolean');
    return Number(arg);
  })],
  ['String', new Callable('String', (args) => {
    const arg = args[0];
    if (!isPrimitive(arg)) throw new ExpressionError('String expects a string, number or boolean');
    return String(arg);
  })],
  ['parseFloat', new Callable('parseFloat', (args) => parseFloat(primitiveText(args[0], 'parseFloat')))],
  ['parseInt', new Callable('parseInt', (args) => {
    const radix = optionalInt(args, 1, 'parseInt');
    return parseInt(primitiveText(args[0], 'parseInt'), radix);
  })],
]);

function primitiveText(value: unknown, label: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new ExpressionError(`${label} expects a string or number`);
}

/** Allowed string methods, each implemented here on its own terms (string arguments only). */
function callStringMethod(target: string, method: string, args: unknown[], context: Context): unknown {
  spend(context, sizeCost(target.length));
  switch (method) {
    case 'toUpperCase': return target.toUpperCase();
    case 'toLowerCase': return target.toLowerCase();
    case 'trim': return target.trim();
    case 'trimStart': return target.trimStart();
    case 'trimEnd': return target.trimEnd();
    case 'toString': return target;
    case 'slice': return target.slice(optionalInt(args, 0, method), optionalInt(args, 1, method));
    case 'substring': return target.substring(optionalInt(args, 0, method) ?? 0, optionalInt(args, 1, method));
    case 'charAt': return target.charAt(optionalInt(args, 0, method) ?? 0);
    case 'at': return target.at(optionalInt(args, 0, method) ?? 0);
    case 'includes': return target.includes(stringArg(args, 0, method));
    case 'startsWith': return target.startsWith(stringArg(args, 0, method));
    case 'endsWith': return target.endsWith(stringArg(args, 0, method));
    case 'indexOf': return target.indexOf(stringArg(args, 0, method));
    // string arguments only: no pattern objects, no replacer functions, and '$' patterns are literal
    case 'replace': return checkString(target.replace(stringArg(args, 0, method), () => stringArg(args, 1, method)));
    case 'replaceAll': return checkString(target.replaceAll(stringArg(args, 0, method), () => stringArg(args, 1, method)));
    case 'split': {
      const limit = optionalInt(args, 1, method);
      return target.split(stringArg(args, 0, method), limit === undefined ? undefined : Math.max(0, limit));
    }
    default: throw new ExpressionError(`The string method '${method}' is not allowed`);
  }
}

function callNumberMethod(target: number, method: string, args: unknown[]): unknown {
  switch (method) {
    case 'toFixed': {
      const digits = optionalInt(args, 0, method) ?? 0;
      if (digits < 0 || digits > 20) throw new ExpressionError('toFixed expects 0 to 20 digits');
      return target.toFixed(digits);
    }
    case 'toString': return String(target);
    default: throw new ExpressionError(`The number method '${method}' is not allowed`);
  }
}

function callArrayMethod(target: readonly unknown[], method: string, args: unknown[], context: Context, depth: number): unknown {
  spend(context, sizeCost(target.length));
  switch (method) {
    case 'join': {
      const separator = args[0] === undefined ? ',' : stringArg(args, 0, method);
      if (!target.every(isPrimitive)) throw new ExpressionError('join expects an array of strings or numbers');
      return checkString(target.join(separator));
    }
    case 'slice': return target.slice(optionalInt(args, 0, method), optionalInt(args, 1, method));
    case 'at': return target.at(optionalInt(args, 0, method) ?? 0);
    case 'includes': return target.includes(args[0]);
    case 'indexOf': return target.indexOf(args[0]);
    case 'map': {
      const fn = callback(args, method);
      return target.map((item) => fn.invoke([item], context, depth + 1));
    }
    case 'filter': {
      const fn = callback(args, method);
      return target.filter((item) => Boolean(fn.invoke([item], context, depth + 1)));
    }
    default: throw new ExpressionError(`The array method '${method}' is not allowed`);
  }
}

/** The name a non-computed member or method has, or the value a computed one evaluates to. */
function memberKey(node: jsep.MemberExpression, env: ReadonlyMap<string, unknown>, context: Context, depth: number): string | number {
  if (!node.computed) {
    if (node.property.type !== 'Identifier') throw new ExpressionError('Unsupported member access');
    return (node.property as jsep.Identifier).name;
  }
  const key = evaluate(node.property, env, context, depth + 1);
  if (typeof key === 'string') return key;
  if (typeof key === 'number' && Number.isInteger(key)) return key;
  throw new ExpressionError('A computed member must be a string or an integer');
}

/** Reading a property: own data only, never a forbidden or inherited name. */
function readMember(target: unknown, key: string | number): unknown {
  const name = String(key);
  if (FORBIDDEN_NAMES.has(name)) throw new ExpressionError(`'${name}' may not be read`);
  if (target instanceof Namespace) {
    const member = target.members.get(name);
    if (!member) throw new ExpressionError(`${target.label}.${name} is not allowed`);
    return member;
  }
  if (typeof target === 'string' || Array.isArray(target)) {
    if (name === 'length') return target.length;
    if (typeof key === 'number' || /^(0|[1-9]\d*)$/.test(name)) {
      const index = Number(name);
      return index < target.length ? (target as ArrayLike<unknown>)[index] : undefined;
    }
    throw new ExpressionError(`'${name}' may not be read here (call an allowed method instead)`);
  }
  if (isPlainObject(target)) {
    if (Object.hasOwn(target, name)) return target[name];
    // an inherited name (toString, hasOwnProperty, …) is refused rather than read as missing
    if (name in target) throw new ExpressionError(`'${name}' is not the data's own property`);
    return undefined;
  }
  throw new ExpressionError(`Cannot read '${name}' of ${target === null ? 'null' : typeof target}`);
}

function callMethod(node: jsep.MemberExpression, args: unknown[], env: ReadonlyMap<string, unknown>, context: Context, depth: number): unknown {
  const target = evaluate(node.object, env, context, depth + 1);
  const key = memberKey(node, env, context, depth);
  const name = String(key);
  if (FORBIDDEN_NAMES.has(name)) throw new ExpressionError(`'${name}' may not be called`);
  if (typeof target === 'string') return callStringMethod(target, name, args, context);
  if (typeof target === 'number') return callNumberMethod(target, name, args);
  if (Array.isArray(target)) return callArrayMethod(target, name, args, context, depth);
  // a namespace's member (JSON.parse) or a callable held in plain data is called like any function
  const member = readMember(target, key);
  if (member instanceof Callable) return member.invoke(args, context, depth + 1);
  throw new ExpressionError(`'${name}' is not a function`);
}

function arithmetic(operator: string, left: unknown, right: unknown): unknown {
  const bothPrimitive = isPrimitive(left) && isPrimitive(right);
  if (operator === '===') return left === right;
  if (operator === '!==') return left !== right;
  // Everything else coerces; only primitives may be coerced, so no valueOf/toString is ever looked up.
  if (!bothPrimitive) throw new ExpressionError(`'${operator}' needs strings, numbers or booleans`);
  const a = left;
  const b = right;
  switch (operator) {
    case '==': return a == b;
    case '!=': return a != b;
    case '<': return (a as number) < (b as number);
    case '>': return (a as number) > (b as number);
    case '<=': return (a as number) <= (b as number);
    case '>=': return (a as number) >= (b as number);
    case '+': {
      const sum = (a as number) + (b as number);
      return typeof sum === 'string' ? checkString(sum) : sum;
    }
    case '-': return (a as number) - (b as number);
    case '*': return (a as number) * (b as number);
    case '/': return (a as number) / (b as number);
    case '%': return (a as number) % (b as number);
    case '**': return (a as number) ** (b as number);
    default: throw new ExpressionError(`The operator '${operator}' is not allowed`);
  }
}

function makeArrow(node: jsep.Expression, env: ReadonlyMap<string, unknown>): Callable {
  const params = (node.params as Node[] | null | undefined) ?? [];
  const names = params.map((param) => {
    if (param.type === 'ArrowFunctionExpression') throw new ExpressionError('An arrow function cannot return another arrow function');
    if (param.type !== 'Identifier') throw new ExpressionError('Arrow parameters must be plain names');
    return (param as jsep.Identifier).name;
  });
  const body = node.body as Node;
  return new Callable('arrow function', (args, context, depth) => {
    if (depth > MAX_DEPTH) throw new ExpressionError('Expression nests too deeply');
    const scope = new Map(env);
    names.forEach((name, index) => scope.set(name, args[index]));
    return evaluate(body, scope, context, depth + 1);
  });
}

function evaluate(node: Node, env: ReadonlyMap<string, unknown>, context: Context, depth: number): unknown {
  spend(context, 1);
  if (depth > MAX_DEPTH) throw new ExpressionError('Expression nests too deeply');
  switch (node.type) {
    case 'Literal': {
      const value = (node as jsep.Literal).value;
      // jsep reads /…/ only with its regex plugin (not registered); refuse anything non-primitive anyway
      if (!isPrimitive(value)) throw new ExpressionError('Unsupported literal');
      return value;
    }
    case 'Identifier': {
      const name = (node as jsep.Identifier).name;
      if (env.has(name)) return env.get(name);
      if (name === 'undefined') return undefined;
      const global = GLOBALS.get(name);
      if (global) return global;
      throw new ExpressionError(`Unknown name '${name}'`);
    }
    case 'ArrayExpression': {
      const elements = (node as jsep.ArrayExpression).elements;
      return elements.map((element) => (element ? evaluate(element, env, context, depth + 1) : undefined));
    }
    case 'MemberExpression': {
      const member = node as jsep.MemberExpression;
      const target = evaluate(member.object, env, context, depth + 1);
      return readMember(target, memberKey(member, env, context, depth));
    }
    case 'CallExpression': {
      const call = node as jsep.CallExpression;
      const args = call.arguments.map((arg) => evaluate(arg, env, context, depth + 1));
      if (call.callee.type === 'MemberExpression') return callMethod(call.callee as jsep.MemberExpression, args, env, context, depth);
      const callee = evaluate(call.callee, env, context, depth + 1);
      if (!(callee instanceof Callable)) throw new ExpressionError('Only allowed functions may be called');
      return callee.invoke(args, context, depth + 1);
    }
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      const argument = evaluate(unary.argument, env, context, depth + 1);
      if (unary.operator === '!') return !argument;
      if (!isPrimitive(argument)) throw new ExpressionError(`'${unary.operator}' needs a string, number or boolean`);
      if (unary.operator === '-') return -(argument as number);
      if (unary.operator === '+') return +(argument as number);
      throw new ExpressionError(`The operator '${unary.operator}' is not allowed`);
    }
    case 'BinaryExpression': {
      const binary = node as jsep.BinaryExpression;
      const { operator } = binary;
      if (operator === '&&' || operator === '||' || operator === '??') {
        const left = evaluate(binary.left, env, context, depth + 1);
        if (operator === '&&') return left ? evaluate(binary.right, env, context, depth + 1) : left;
        if (operator === '||') return left ? left : evaluate(binary.right, env, context, depth + 1);
        return left ?? evaluate(binary.right, env, context, depth + 1);
      }
      const left = evaluate(binary.left, env, context, depth + 1);
      const right = evaluate(binary.right, env, context, depth + 1);
      return arithmetic(operator, left, right);
    }
    case 'ConditionalExpression': {
      const conditional = node as jsep.ConditionalExpression;
      return evaluate(conditional.test, env, context, depth + 1)
        ? evaluate(conditional.consequent, env, context, depth + 1)
        : evaluate(conditional.alternate, env, context, depth + 1);
    }
    case 'ArrowFunctionExpression':
      return makeArrow(node, env);
    default:
      throw new ExpressionError(`Unsupported expression (${node.type})`);
  }
}

/** A compiled post-process: applies the expression to one value. Throws only ExpressionError. */
export type CompiledExpression = (value: unknown) => unknown;

/**
 * Parses an expression once. The result is a function of the value: an arrow is called with it,
 * an allowed function (e.g. `JSON.parse`) is applied to it, and any other expression is evaluated
 * with the value bound to `value`.
 */
export function compileExpression(text: string, budget: number = EXPRESSION_STEP_BUDGET): CompiledExpression {
  if (typeof text !== 'string' || text.trim() === '') throw new ExpressionError('The expression is empty');
  if (text.length > EXPRESSION_MAX_LENGTH) throw new ExpressionError(`The expression is longer than ${EXPRESSION_MAX_LENGTH} characters`);
  let tree: Node;
  try {
    tree = jsep(text);
  } catch (error) {
    throw new ExpressionError(`The expression does not parse: ${error instanceof Error ? error.message : 'syntax error'}`);
  }
  return (value: unknown) => {
    const context: Context = { steps: 0, budget };
    try {
      let result = evaluate(tree, new Map([['value', value]]), context, 0);
      if (result instanceof Callable) result = result.invoke([value], context, 1);
      if (result instanceof Callable || result instanceof Namespace) throw new ExpressionError('The expression does not produce a value');
      return result;
    } catch (error) {
      if (error instanceof ExpressionError) throw error;
      // a stack overflow or an engine error inside an allowed method: still the evaluator's own error
      throw new ExpressionError(`The expression failed: ${error instanceof Error ? error.message : 'unknown error'}`);
    }
  };
}
