import { useEffect, useState } from 'preact/hooks';
import { encodeId, getJson } from './api.js';

// A silo's document link graph (GET /memory/:syndicate/graph): the documents on a circle, a line
// per link, and the same links as a list to read. A link to a document that does not exist shows
// dashed: the target named in the link, not a document yet.

interface GraphNode {
  key: string;
  title: string | null;
}

interface GraphEdge {
  from: string;
  to: string;
  label: string;
}

const SIZE = 320;
const RADIUS = 120;

function positions(nodes: GraphNode[]): Map<string, { x: number; y: number }> {
  return new Map(nodes.map((node, index) => {
    const angle = (2 * Math.PI * index) / nodes.length - Math.PI / 2;
    return [node.key, { x: SIZE / 2 + RADIUS * Math.cos(angle), y: SIZE / 2 + RADIUS * Math.sin(angle) }];
  }));
}

export function LinkGraph({ syndicate, version }: { syndicate: string; version: number }) {
  const [graph, setGraph] = useState<{ nodes: GraphNode[]; edges: GraphEdge[] }>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    getJson<{ nodes: GraphNode[]; edges: GraphEdge[] }>(`/memory/${encodeId(syndicate)}/graph`).then(setGraph, (failure: Error) => setError(failure.message));
  }, [syndicate, version]);
  if (error) return <p class="failure">The link graph could not be read: {error}</p>;
  if (!graph) return null;
  if (graph.edges.length === 0) return <p class="muted">No document links to another yet ([label](other.md) or [[bundle/slug]]).</p>;
  const at = positions(graph.nodes);
  const missing = new Set(graph.nodes.filter((node) => node.title === null).map((node) => node.key));
  return (
    <div class="link-graph">
      <svg viewBox={`0 0 ${SIZE} ${SIZE}`} width={SIZE} height={SIZE} role="img" aria-label="Link graph">
        {graph.edges.map((edge) => {
          const from = at.get(edge.from)!;
          const to = at.get(edge.to)!;
          return <line key={`${edge.from}>${edge.to}`} x1={from.x} y1={from.y} x2={to.x} y2={to.y} class={missing.has(edge.to) ? 'missing' : ''} />;
        })}
        {graph.nodes.map((node) => {
          const { x, y } = at.get(node.key)!;
          return (
            <g key={node.key} data-node={node.key} class={missing.has(node.key) ? 'missing' : ''}>
              <circle cx={x} cy={y} r={6} />
              <text x={x} y={y - 10} text-anchor="middle">
                {node.title ?? node.key}
              </text>
            </g>
          );
        })}
      </svg>
      <ul class="links">
        {graph.edges.map((edge) => (
          <li key={`${edge.from}>${edge.to}`} data-link={`${edge.from} -> ${edge.to}`}>
            {edge.from} → {edge.to} {edge.label && <span class="muted">({edge.label})</span>} {missing.has(edge.to) && <span class="badge">missing</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
