// A span tree as indented names, children sorted by name: the shape of a trace without the
// timing ties that make sibling order at millisecond resolution flaky.

export interface SpanNode {
  name: string;
  spanId: string;
  parentSpanId: string | undefined;
}

export function renderTree(spans: readonly SpanNode[]): string[] {
  const ids = new Set(spans.map((span) => span.spanId));
  const children = new Map<string | undefined, SpanNode[]>();
  for (const span of spans) {
    const parent = span.parentSpanId && ids.has(span.parentSpanId) ? span.parentSpanId : undefined;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const lines: string[] = [];
  const walk = (parent: string | undefined, indent: string): void => {
    const level = [...(children.get(parent) ?? [])].sort((a, b) => a.name.localeCompare(b.name));
    for (const span of level) {
      lines.push(`${indent}${span.name}`);
      walk(span.spanId, `${indent}  `);
    }
  };
  walk(undefined, '');
  return lines;
}

/** The tree of a delegating turn: Moderator consults Advocate, then Skeptic, who uses the calculator. */
export const COUNCIL_TREE = [
  'invoke_agent Moderator',
  '  chat scripted',
  '  chat scripted',
  '  chat scripted',
  '  invoke_agent Advocate',
  '    chat scripted',
  '  invoke_agent Skeptic',
  '    chat scripted',
  '    chat scripted',
  '    execute_tool calculator',
];
