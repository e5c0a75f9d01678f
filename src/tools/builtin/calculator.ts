import { z } from 'zod';
import { defineTool } from '../../core/tool.js';

const inputSchema = z.object({
  expression: z.string().min(1).max(500).describe('Arithmetic expression, e.g. "(12.5 + 7) * 3 / 2". Supports + - * / % ^ and parentheses.'),
});

// A small recursive-descent parser: no eval, so a model cannot run code through this tool.
function evaluate(expression: string): number {
  const tokens = expression.match(/\d+(?:\.\d+)?(?:e[+-]?\d+)?|[-+*/%^()]|\S/gi) ?? [];
  let pos = 0;
  const peek = (): string | undefined => tokens[pos];
  const take = (): string | undefined => tokens[pos++];

  function primary(): number {
    const token = take();
    if (token === undefined) throw new Error('expression ends too early');
    if (token === '(') {
      const value = sum();
      if (take() !== ')') throw new Error('missing closing parenthesis');
      return value;
    }
    if (token === '-') return -primary();
    if (token === '+') return primary();
    const value = Number(token);
    if (Number.isNaN(value)) throw new Error(`unexpected '${token}'`);
    return value;
  }
  function power(): number {
    const base = primary();
    if (peek() === '^') {
      take();
      return base ** power();
    }
    return base;
  }
  function product(): number {
    let value = power();
    for (let op = peek(); op === '*' || op === '/' || op === '%'; op = peek()) {
      take();
      const right = power();
      value = op === '*' ? value * right : op === '/' ? value / right : value % right;
    }
    return value;
  }
  function sum(): number {
    let value = product();
    for (let op = peek(); op === '+' || op === '-'; op = peek()) {
      take();
      const right = product();
      value = op === '+' ? value + right : value - right;
    }
    return value;
  }

  const result = sum();
  if (pos < tokens.length) throw new Error(`unexpected '${tokens[pos]}'`);
  if (!Number.isFinite(result)) throw new Error('result is not a finite number (division by zero?)');
  return result;
}

export const calculator = defineTool({
  name: 'calculator',
  description: 'Evaluates an arithmetic expression exactly and returns the number.',
  inputSchema,
  execute: ({ expression }) => ({ expression, result: evaluate(expression) }),
});
