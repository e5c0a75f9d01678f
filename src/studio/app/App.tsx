import { useEffect, useState } from 'preact/hooks';
import { ChatPage } from './ChatPage.js';
import { MemoryPage } from './MemoryPage.js';
import { SessionsPage } from './SessionsPage.js';
import { SettingsPage } from './SettingsPage.js';
import { UsagePage } from './UsagePage.js';
import { WorkPage } from './WorkPage.js';
import { resume, signIn, signOut, takeTokenFromAddress, type SignedIn } from './signIn.js';
import { listSyndicates, type SyndicateSummary } from './syndicates.js';

// The studio's shell: signing in, the page links, and the page the address names (#/chat…).

const PAGES = [
  { path: 'chat', title: 'Chat' },
  { path: 'sessions', title: 'Sessions' },
  { path: 'work', title: 'Work' },
  { path: 'usage', title: 'Usage' },
  { path: 'memory', title: 'Memory' },
  { path: 'settings', title: 'Settings' },
] as const;

type PagePath = (typeof PAGES)[number]['path'];

function pageOf(hash: string): PagePath {
  const path = hash.replace(/^#\/?/, '').split('/')[0];
  return PAGES.find((page) => page.path === path)?.path ?? 'chat';
}

/** What the address names within its page: `#/chat/<session id>` continues that session. */
function argumentOf(hash: string): string | undefined {
  const rest = hash.replace(/^#\/?/, '').split('/').slice(1).join('/');
  return rest === '' ? undefined : decodeURIComponent(rest);
}

function SignInForm({ onSignedIn, error }: { onSignedIn(signed: SignedIn): void; error: string | undefined }) {
  const [token, setToken] = useState('');
  const [failure, setFailure] = useState(error);
  return (
    <form
      class="sign-in"
      onSubmit={(event) => {
        event.preventDefault();
        signIn(token.trim()).then(onSignedIn, (failed: Error) => setFailure(failed.message));
      }}
    >
      <h1>Syndicate studio</h1>
      <p>Open the sign-in link the server printed, or paste a sign-in token or an API key.</p>
      <input type="password" aria-label="Sign-in token or API key" value={token} onInput={(event) => setToken((event.target as HTMLInputElement).value)} />
      <button type="submit" disabled={!token.trim()}>
        Sign in
      </button>
      {failure && (
        <p class="failure" role="alert">
          {failure}
        </p>
      )}
    </form>
  );
}

export function App() {
  const [signed, setSigned] = useState<SignedIn | undefined>();
  const [checking, setChecking] = useState(true);
  const [signInError, setSignInError] = useState<string>();
  const [page, setPage] = useState(pageOf(window.location.hash));
  const [argument, setArgument] = useState(argumentOf(window.location.hash));
  const [syndicates, setSyndicates] = useState<SyndicateSummary[]>();
  const [loadError, setLoadError] = useState<string>();

  useEffect(() => {
    const token = takeTokenFromAddress();
    (token === undefined ? resume() : signIn(token))
      .then(setSigned, (error: Error) => setSignInError(error.message))
      .finally(() => setChecking(false));
    const onHash = () => {
      setPage(pageOf(window.location.hash));
      setArgument(argumentOf(window.location.hash));
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  // Listed again on each page: a file edited on disk since may have reloaded, or failed to.
  useEffect(() => {
    if (signed) listSyndicates().then(setSyndicates, (error: Error) => setLoadError(error.message));
  }, [signed, page]);

  if (checking) return <p class="muted">Signing in…</p>;
  if (!signed) return <SignInForm onSignedIn={setSigned} error={signInError} />;
  return (
    <div class="shell">
      <nav>
        <span class="brand">Syndicate</span>
        {PAGES.map((entry) => (
          <a href={`#/${entry.path}`} class={entry.path === page ? 'active' : ''} key={entry.path}>
            {entry.title}
          </a>
        ))}
        <span class="spacer" />
        <span class="muted">{signed.user.name}</span>
        <button type="button" onClick={() => void signOut().then(() => setSigned(undefined))}>
          Sign out
        </button>
      </nav>
      <main>
        {loadError && <p class="failure">The syndicates could not be listed: {loadError}</p>}
        {syndicates && page === 'chat' && <ChatPage syndicates={syndicates} resumeId={argument} />}
        {page === 'sessions' && <SessionsPage />}
        {syndicates && page === 'work' && <WorkPage syndicates={syndicates} />}
        {page === 'usage' && <UsagePage />}
        {page === 'memory' && <MemoryPage />}
        {syndicates && page === 'settings' && <SettingsPage syndicates={syndicates} />}
      </main>
    </div>
  );
}
