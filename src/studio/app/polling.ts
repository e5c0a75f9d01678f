import { useEffect } from 'preact/hooks';

// Unattended work changes while nobody clicks (a task fires, a piece ends): its panels read again
// on this beat while shown.

const REFRESH_MS = 3_000;

/** Calls `load` now and every few seconds until the component unmounts or `key` changes. */
export function useRefreshing(load: () => void, key: unknown = undefined): void {
  useEffect(() => {
    load();
    const timer = setInterval(load, REFRESH_MS);
    return () => clearInterval(timer);
  }, [key]);
}
