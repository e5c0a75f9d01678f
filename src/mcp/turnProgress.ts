import { delegateKindNote, type TurnEvent } from '../core/events.js';

// What an MCP caller hears while a turn runs: the steps a person would want on a progress line
// (routes, delegations, tool calls, retries, warnings). Text deltas are left out: the answer
// arrives whole in the result, and a notification per token would flood the stream.

/** One progress line for `event`, or undefined when the event is not worth a notification. */
export function progressMessage(event: TurnEvent): string | undefined {
  switch (event.type) {
    case 'route':
      return `Routed to ${event.route}${delegateKindNote(event.kind)} — ${event.reason}`;
    case 'delegation-start':
      return `→ ${event.agent} consults ${event.to}${delegateKindNote(event.kind)}`;
    case 'delegation-end':
      return event.isError ? `← ${event.to} failed` : `← ${event.to} answered`;
    case 'tool-call':
      return `${event.agent} calls ${event.tool}`;
    case 'tool-result':
      return event.isError ? `${event.tool} failed` : `${event.tool} returned`;
    case 'status':
      return event.message;
    case 'warning':
      return `warning: ${event.message}`;
    default:
      return undefined;
  }
}
