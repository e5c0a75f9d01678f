// Small helpers shared by the benchmarks: percentiles and a uniform printed line.

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

export function summarize(samples: readonly number[]): { median: number; p99: number; mean: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, x) => sum + x, 0) / Math.max(1, sorted.length);
  return { median: percentile(sorted, 50), p99: percentile(sorted, 99), mean };
}

export function report(name: string, figures: Record<string, string | number>): void {
  const cells = Object.entries(figures).map(([key, value]) => `${key}=${typeof value === 'number' ? round(value) : value}`);
  console.log(`${name.padEnd(28)} ${cells.join('  ')}`);
}

function round(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

export function mib(bytes: number): number {
  return bytes / 1024 / 1024;
}
