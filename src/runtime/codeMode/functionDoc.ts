import type { JSONSchema7, JSONSchema7Definition } from '@ai-sdk/provider';
import type { ToolFunction } from './toolFunctions.js';

// A tool function's documentation, generated from its input schema as a TypeScript declaration:
// the notation models read best for a function's shape.

const MAX_DEPTH = 6;

function comment(text: string | undefined, indent: string): string {
  if (!text) return '';
  const lines = text.trim().split('\n');
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} * ${line}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

function propertyKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}

function objectType(schema: JSONSchema7, indent: string, depth: number): string {
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length === 0) return schema.additionalProperties ? 'Record<string, unknown>' : '{}';
  const required = new Set(schema.required ?? []);
  const inner = `${indent}  `;
  const lines = properties.map(([key, property]) => {
    const described = typeof property === 'object' ? property.description : undefined;
    return `${comment(described, inner)}${inner}${propertyKey(key)}${required.has(key) ? '' : '?'}: ${typeOf(property, inner, depth + 1)};`;
  });
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function typeOf(definition: JSONSchema7Definition, indent: string, depth: number): string {
  if (typeof definition === 'boolean') return definition ? 'unknown' : 'never';
  const schema = definition;
  if (depth > MAX_DEPTH) return 'unknown';
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return union.map((member) => typeOf(member, indent, depth + 1)).join(' | ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return schema.properties ? objectType(schema, indent, depth) : 'unknown';
  return types
    .map((type) => {
      switch (type) {
        case 'string':
          return 'string';
        case 'number':
        case 'integer':
          return 'number';
        case 'boolean':
          return 'boolean';
        case 'null':
          return 'null';
        case 'array': {
          const items = Array.isArray(schema.items) ? undefined : schema.items;
          const item = items === undefined ? 'unknown' : typeOf(items, indent, depth + 1);
          return /[ |{]/.test(item) ? `Array<${item}>` : `${item}[]`;
        }
        case 'object':
          return objectType(schema, indent, depth);
      }
    })
    .join(' | ');
}

/** The declaration a script can call the function by, with its description as a doc comment. */
export function functionDoc(fn: ToolFunction): string {
  const returns = fn.agent ? 'Promise<string>' : 'Promise<unknown>';
  const note = fn.agent ? `${fn.description}\nConsults the agent ${fn.toolName}; resolves to its answer.` : fn.description;
  return `${comment(note, '')}async function ${fn.name}(input: ${typeOf(fn.inputSchema, '', 0)}): ${returns}`;
}

/** One line: the function's name and the first sentence of its description. */
export function functionSummary(fn: ToolFunction): string {
  const first = fn.description.split(/(?<=\.)\s|\n/)[0]?.trim() ?? '';
  return first ? `${fn.name}: ${first}` : fn.name;
}
