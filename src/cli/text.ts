/** Collapses whitespace so a preview fits on one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A value as a person reads it: strings as they are, anything else as compact JSON. */
function displayValue(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

export function preview(value: unknown, max: number): string {
  return truncate(oneLine(displayValue(value)), max);
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Local time as YYYY-MM-DD HH:MM. */
export function formatTime(at: number): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** An instant in UTC to the second (scheduled work: a task may fire every few seconds, its cron read in a zone of its own). */
export function formatInstant(at: number): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Left-aligned columns, two spaces apart; the first row is the header. */
export function formatTable(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n');
}
