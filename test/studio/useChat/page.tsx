/** @jsxImportSource react */
import { useChat, type UIMessage } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

// A page as an app built on the AI SDK writes it: React 19 and useChat from @ai-sdk/react, talking
// to a syndicate's chat route with an API key. Bundled and driven by useChat.test.ts; every part is
// rendered with data attributes the test reads, and the log below the chat keeps what the hook went
// through (each status, each data-delegation update as onData received it), since renders coalesce.

// Only what the page shows of src/server/turns/formats/uiMessageStream.ts's parts.
interface Delegation {
  agent: string;
  kind: string;
  status: string;
}

// UIMessage as @ai-sdk/react exports it: the hook pins an exact ai 6 release, which can be a copy of
// its own beside the project's, and its data-part types are read from its copy's.
type ChatMessage = UIMessage<{ status: string }, { delegation: Delegation; route: { route: string } }>;

const address = new URLSearchParams(window.location.search);
const syndicate = address.get('syndicate')!;
const chatId = address.get('chat')!;
const apiKey = address.get('key')!;

const transport = new DefaultChatTransport<ChatMessage>({ api: `/api/v1/syndicates/${encodeURIComponent(syndicate)}/chat`, headers: { authorization: `Bearer ${apiKey}` } });

function Part({ part }: { part: ChatMessage['parts'][number] }) {
  switch (part.type) {
    case 'text':
      return <p data-part="text">{part.text}</p>;
    case 'dynamic-tool':
      return (
        <li data-part="tool" data-tool={part.toolName} data-state={part.state}>
          tool {part.toolName}: {part.state}
        </li>
      );
    case 'data-delegation':
      return (
        <li data-part="delegation" data-agent={part.data.agent} data-kind={part.data.kind} data-status={part.data.status}>
          delegation to {part.data.agent} ({part.data.kind}): {part.data.status}
        </li>
      );
    default:
      return null;
  }
}

function Chat() {
  const [draft, setDraft] = useState('');
  const [log, setLog] = useState<string[]>([]);
  const { messages, sendMessage, status, error } = useChat<ChatMessage>({
    id: chatId,
    transport,
    onData: (part) => {
      if (part.type === 'data-delegation') setLog((lines) => [...lines, `delegation ${part.data.agent} ${part.data.status}`]);
    },
  });
  useEffect(() => setLog((lines) => [...lines, `status ${status}`]), [status]);
  return (
    <main data-status={status}>
      <ol>
        {messages.map((message) => (
          <li key={message.id} data-role={message.role} data-turn-status={message.metadata?.status}>
            <ul>
              {message.parts.map((part, index) => (
                <Part part={part} key={index} />
              ))}
            </ul>
          </li>
        ))}
      </ol>
      {error && <p role="alert">{error.message}</p>}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void sendMessage({ text: draft });
          setDraft('');
        }}
      >
        <input aria-label="Message" value={draft} onChange={(event) => setDraft(event.target.value)} />
        <button type="submit" disabled={status !== 'ready' || draft === ''}>
          Send
        </button>
      </form>
      <ol aria-label="Log">
        {log.map((line, index) => (
          <li key={index}>{line}</li>
        ))}
      </ol>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<Chat />);
