import { DELEGATE_KIND_NAMES } from '../../core/events.js';
import { ROOT, type AgentNode, type TurnTree } from '../tree/delegationTree.js';
import { duration, json, tokens, usd } from './format.js';

// The live delegation tree: one row per agent run (status, kind, models, tokens, cost, time),
// opened for what it was asked, the tools it called with their arguments and results, and what it said.

const KIND_LABEL: Record<AgentNode['kind'], string> = { orchestrator: 'orchestrator', ...DELEGATE_KIND_NAMES };

function NodeRow({ tree, node }: { tree: TurnTree; node: AgentNode }) {
  const elapsed = (node.endedAt ?? Date.now()) - node.startedAt;
  return (
    <li class="node" data-agent={node.agent} data-status={node.status}>
      <details open={node.id === ROOT || node.status === 'running'}>
        <summary>
          <span class={`status status-${node.status}`} title={node.status}>{node.status}</span>
          <strong>{node.agent}</strong>
          <span class="badge">{KIND_LABEL[node.kind]}</span>
          {node.models.length > 0 && <span class="muted">{node.models.join(', ')}</span>}
          <span class="figures">
            {tokens(node.tokens.input)} in · {tokens(node.tokens.output)} out · {usd(node.costUsd)} · {duration(elapsed)}
          </span>
        </summary>
        {node.id !== ROOT && node.request && <p class="request">Asked: {node.request}</p>}
        {node.toolCalls.map((call) => (
          <div class="tool" data-tool={call.tool} data-status={call.status} key={call.callId}>
            <div>
              <span class={`status status-${call.status}`}>{call.status}</span> <code>{call.tool}</code>
            </div>
            <pre>{json(call.input)}</pre>
            {call.output !== undefined && <pre class="result">{json(call.output)}</pre>}
          </div>
        ))}
        {node.thinking.map((text, index) => (
          <p class="thinking" key={`t${index}`}>{text}</p>
        ))}
        {node.id !== ROOT && node.output !== undefined && <pre class="result">{node.output}</pre>}
        {node.streaming && <p class="streaming">{node.streaming}</p>}
        {node.children.length > 0 && (
          <ul>
            {node.children.map((id) => (
              <NodeRow tree={tree} node={tree.nodes[id]!} key={id} />
            ))}
          </ul>
        )}
      </details>
    </li>
  );
}

export function TreeView({ tree }: { tree: TurnTree }) {
  return (
    <section class="tree" aria-label="Delegation tree">
      {tree.route && (
        <p class="route">
          Route: <strong>{tree.route.route}</strong> ({tree.route.source}): {tree.route.reason}
        </p>
      )}
      <ul>
        <NodeRow tree={tree} node={tree.nodes[ROOT]!} />
      </ul>
      {tree.warnings.map((warning, index) => (
        <p class="warning" key={index}>{warning}</p>
      ))}
    </section>
  );
}
