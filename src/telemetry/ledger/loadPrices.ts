import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { SHIPPED_PRICES, type PriceTable } from './prices.js';

const modelPriceSchema = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cachedInput: z.number().nonnegative().optional(),
});

/** The shipped table's shape; every field optional, so a file can hold just the prices it changes. */
const overrideSchema = z.strictObject({
  asOf: z.string().optional(),
  note: z.string().optional(),
  providers: z.record(z.string(), z.record(z.string(), z.union([z.literal('local'), modelPriceSchema]))).optional(),
});

/** A whole table, as GET /api/v1/usage/prices answers it. */
export const priceTableSchema = z.object({
  asOf: z.string(),
  providers: z.record(z.string(), z.record(z.string(), z.union([z.literal('local'), modelPriceSchema]))),
});

export type PriceOverride = z.infer<typeof overrideSchema>;

const OBJECT_BRANCH = 1;

function describeIssues(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): string[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    // A price is 'local' or an object; zod's own message for the union is just "Invalid input", so
    // say what is wrong with it as an object, which is what anyone writing numbers meant.
    if (issue.code === 'invalid_union' && issue.errors[OBJECT_BRANCH]) {
      return [`  ${path.map(String).join('.')}: expected "local" or { input, output, cachedInput? } in USD per million tokens`, ...describeIssues(issue.errors[OBJECT_BRANCH], path)];
    }
    const where = path.length > 0 ? path.map(String).join('.') : '(top level)';
    return [`  ${where}: ${issue.message}`];
  });
}

/** Reads and checks a price file; throws an Error naming the file and every problem. */
function readPriceOverride(path: string): PriceOverride {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read price file ${path}: ${(error as Error).message}`, { cause: error });
  }
  const result = overrideSchema.safeParse(data);
  if (!result.success) throw new Error(`invalid price file ${path}:\n${describeIssues(result.error.issues).join('\n')}`);
  return result.data;
}

/** `base` with the override's models laid over it, model by model; models it does not name keep their price. */
export function mergePrices(base: PriceTable, override: PriceOverride): PriceTable {
  const providers = { ...base.providers };
  for (const [provider, models] of Object.entries(override.providers ?? {})) {
    providers[provider] = { ...providers[provider], ...models };
  }
  return { asOf: override.asOf ?? base.asOf, providers };
}

/** The shipped prices, with the file at `overridePath` (when given) merged over them. */
export function loadPrices(overridePath: string | undefined): PriceTable {
  return overridePath === undefined ? SHIPPED_PRICES : mergePrices(SHIPPED_PRICES, readPriceOverride(overridePath));
}
