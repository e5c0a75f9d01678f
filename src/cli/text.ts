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
