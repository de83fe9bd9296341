import { useEffect, useState } from 'react';
import type { RequestChannel, RequestInput, RequestOutput } from '@shared/ipc/contract';
import { getClient } from '../../ipc/client';

/** The channels whose whole input is the project: `{ projectId }`. */
type ProjectChannel = {
  [C in RequestChannel]: RequestInput<C> extends { projectId: string }
    ? { projectId: string } extends RequestInput<C>
      ? C
      : never
    : never;
}[RequestChannel];

/**
 * A view of the open project read from the main process, and read again whenever the window regains
 * focus: settings files and a managed policy change outside the app. Null until the first answer;
 * a failed read keeps the last one.
 */
export function useProjectQuery<C extends ProjectChannel>(
  channel: C,
  projectId: string | null,
): RequestOutput<C> | null {
  const [view, setView] = useState<RequestOutput<C> | null>(null);
  useEffect(() => {
    if (projectId === null) return;
    let live = true;
    const load = () => {
      getClient()
        .invoke(channel, { projectId } as RequestInput<C>)
        .then(
          (v) => {
            if (live) setView(v);
          },
          () => undefined,
        );
    };
    load();
    window.addEventListener('focus', load);
    return () => {
      live = false;
      window.removeEventListener('focus', load);
    };
  }, [channel, projectId]);
  return view;
}
