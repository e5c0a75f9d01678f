import { useEffect, useState } from 'preact/hooks';
import { encodeId, getJson, sendJson } from './api.js';
import { when } from './format.js';
import { LinkGraph } from './LinkGraph.js';
import { Markdown } from './Markdown.js';

// A silo's documents: the bundles' trees, a document rendered (marked, then DOMPurify), edited
// as a new revision, its history with each revision's diff, and rollback to a revision.

interface TreeNode {
  name: string;
  path: string;
  kind: 'folder' | 'document';
  title: string | null;
  children: TreeNode[];
}

interface Revision {
  id: number;
  action: 'write' | 'delete';
  actor: string;
  reason: string;
  at: number;
  added: number;
  removed: number;
}

interface Opened {
  bundle: string;
  path: string;
}

function Tree({ bundle, nodes, onOpen }: { bundle: string; nodes: TreeNode[]; onOpen(opened: Opened): void }) {
  return (
    <ul class="list">
      {nodes.map((node) =>
        node.kind === 'folder' ? (
          <li key={node.path}>
            {node.name}/
            <Tree bundle={bundle} nodes={node.children} onOpen={onOpen} />
          </li>
        ) : (
          <li key={node.path} data-document={`${bundle}/${node.path}`} onClick={() => onOpen({ bundle, path: node.path })}>
            {node.title ?? node.name} <span class="muted">{node.path}</span>
          </li>
        ),
      )}
    </ul>
  );
}

function DocumentView({ syndicate, opened, onChanged }: { syndicate: string; opened: Opened; onChanged(): void }) {
  const base = `/memory/${encodeId(syndicate)}/documents/${encodeId(opened.bundle)}/${encodeId(opened.path)}`;
  const [content, setContent] = useState<string>();
  const [draft, setDraft] = useState<string>();
  const [revisions, setRevisions] = useState<Revision[]>([]);
  const [diff, setDiff] = useState<string>();
  const [error, setError] = useState<string>();
  const load = () => {
    getJson<{ content: string }>(base).then((answer) => setContent(answer.content), (failure: Error) => setError(failure.message));
    getJson<{ revisions: Revision[] }>(`${base}/revisions`).then((answer) => setRevisions(answer.revisions), (failure: Error) => setError(failure.message));
  };
  useEffect(() => {
    setDraft(undefined);
    setDiff(undefined);
    load();
  }, [base]);
  const change = (work: Promise<unknown>) =>
    work.then(
      () => {
        setDraft(undefined);
        load();
        onChanged();
      },
      (failure: Error) => setError(failure.message),
    );
  return (
    <div class="card document">
      <header class="toolbar">
        <h3>
          {opened.bundle}/{opened.path}
        </h3>
        {draft === undefined && content !== undefined && (
          <button type="button" onClick={() => setDraft(content)}>
            Edit
          </button>
        )}
      </header>
      {error && <p class="failure">{error}</p>}
      {draft !== undefined ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            change(sendJson('PUT', base, { content: draft, reason: 'edited in the studio' }));
          }}
        >
          <textarea class="editor" aria-label="Document" value={draft} onInput={(event) => setDraft((event.target as HTMLTextAreaElement).value)} />
          <button type="submit">Save revision</button>{' '}
          <button type="button" onClick={() => setDraft(undefined)}>
            Discard
          </button>
        </form>
      ) : (
        content !== undefined && <Markdown text={content} />
      )}
      <h4>History</h4>
      <table class="history">
        <tbody>
          {revisions.map((revision) => (
            <tr key={revision.id} data-revision={revision.id}>
              <td>#{revision.id}</td>
              <td>
                {revision.action} by {revision.actor}: {revision.reason}
              </td>
              <td class="muted">{when(revision.at)}</td>
              <td>
                +{revision.added} −{revision.removed}
              </td>
              <td>
                <button type="button" onClick={() => getJson<{ revision: { diff: string } }>(`/memory/${encodeId(syndicate)}/revisions/${revision.id}`).then((answer) => setDiff(answer.revision.diff), (failure: Error) => setError(failure.message))}>
                  Diff
                </button>{' '}
                <button type="button" onClick={() => change(sendJson('POST', `${base}/rollback`, { revision: revision.id, reason: 'rolled back in the studio' }))}>
                  Roll back to this
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {diff !== undefined && (
        <pre class="diff">
          {diff.split('\n').map((line, index) => (
            <div key={index} class={line.startsWith('+') ? 'diff-add' : line.startsWith('-') ? 'diff-del' : ''}>
              {line}
            </div>
          ))}
        </pre>
      )}
    </div>
  );
}

export function DocumentsPanel({ syndicate }: { syndicate: string }) {
  const [bundles, setBundles] = useState<Array<{ name: string; tree: TreeNode[] }>>();
  const [opened, setOpened] = useState<Opened>();
  const [error, setError] = useState<string>();
  // Bumped by every edit, so the link graph shows the links the edit made or removed.
  const [edits, setEdits] = useState(0);
  useEffect(() => {
    setOpened(undefined);
    getJson<{ bundles: Array<{ name: string; tree: TreeNode[] }> }>(`/memory/${encodeId(syndicate)}/documents`).then((answer) => setBundles(answer.bundles), (failure: Error) => setError(failure.message));
  }, [syndicate]);
  return (
    <div class="split">
      <section class="card">
        <h3>Documents</h3>
        {error && <p class="failure">{error}</p>}
        {bundles?.length === 0 && <p class="muted">No documents in this silo yet.</p>}
        {bundles?.map((bundle) => (
          <div key={bundle.name}>
            <strong>{bundle.name}</strong>
            <Tree bundle={bundle.name} nodes={bundle.tree} onOpen={setOpened} />
          </div>
        ))}
        <h3>Links</h3>
        <LinkGraph syndicate={syndicate} version={edits} />
      </section>
      {opened && <DocumentView syndicate={syndicate} opened={opened} onChanged={() => setEdits((count) => count + 1)} />}
    </div>
  );
}
