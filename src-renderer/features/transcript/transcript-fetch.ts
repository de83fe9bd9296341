import { useCallback, useEffect, useState } from 'react';
import { fetchTranscript } from '../../ipc/actions';

/**
 * Fetches a session's transcript while `needed` (shown, and not held by the window). A failed fetch
 * is not tried again by itself (the main process said no; asking in a loop would not change that):
 * its reason comes back as `error`, and `retry` asks again.
 */
export function useTranscriptFetch(
  sessionId: string,
  needed: boolean,
): { error: string | null; retry: () => void } {
  const [failure, setFailure] = useState<{ sessionId: string; message: string } | null>(null);
  const [tries, setTries] = useState(0);
  useEffect(() => {
    if (!needed) return;
    let current = true;
    void fetchTranscript(sessionId).then((message) => {
      if (current) setFailure(message === null ? null : { sessionId, message });
    });
    return () => {
      current = false;
    };
  }, [sessionId, needed, tries]);
  const retry = useCallback(() => {
    setFailure(null);
    setTries((n) => n + 1);
  }, []);
  // A failure belongs to the session it was for; a transcript since loaded clears it.
  const error = needed && failure?.sessionId === sessionId ? failure.message : null;
  return { error, retry };
}
