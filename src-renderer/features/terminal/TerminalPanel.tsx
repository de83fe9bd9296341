import { useEffect, useRef, useState } from 'react';
import { FitAddon } from '@xterm/addon-fit';
import { Terminal, type ITheme } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { getClient } from '../../ipc/client';
import { showToast, useStore } from '../../stores/store';
import { AckBatcher } from './ack-batcher';
import { cspSafeStyles } from './csp-safe-styles';

function themeFromCss(): ITheme {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string) => css.getPropertyValue(name).trim();
  return {
    background: v('--code-bg'),
    foreground: v('--text'),
    cursor: v('--accent'),
    selectionBackground: '#5b8ff955',
  };
}

/**
 * Whether WebGL runs on a real GPU. A software rasteriser (SwiftShader, llvmpipe) draws a terminal
 * several times slower than the DOM renderer (measured: 2.8 against 10 MB/s), so it does not count.
 */
function hardwareWebgl(): boolean {
  try {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return false;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '';
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return !/swiftshader|llvmpipe|softpipe|software/i.test(renderer);
  } catch {
    return false;
  }
}

const INPUT_CHUNK = 256 * 1024;
/** What may be typed before the shell is attached, kept to send once it is. */
const EARLY_INPUT_MAX = 64 * 1024;

type Status = { kind: 'starting' } | { kind: 'running' } | { kind: 'exited'; code: number };

/**
 * A session's terminal: xterm.js on the user's own shell in the project folder (run by the main
 * process, outside the agent sandbox). The main process keeps screen and scrollback, so switching tabs
 * or reloading redraws it; output is acknowledged once drawn, which is what lets the main process
 * pause a flood. Ctrl+Shift+C copies the selection, Ctrl+Shift+V pastes.
 */
export function TerminalPanel({ sessionId }: { sessionId: string }) {
  const host = useRef<HTMLDivElement>(null);
  const gpu = useStore((s) => s.settings?.terminalGpu ?? true);
  const [status, setStatus] = useState<Status>({ kind: 'starting' });
  const [generation, setGeneration] = useState(0);
  const terminalIdRef = useRef<string | null>(null);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const client = getClient();
    const styles = cspSafeStyles(el.ownerDocument);
    const term = new Terminal({
      // Its style elements become adopted stylesheets: the page's CSP blocks inline styles.
      documentOverride: styles.document,
      fontFamily: getComputedStyle(document.documentElement).getPropertyValue('--mono'),
      fontSize: 13,
      scrollback: 5000,
      cursorBlink: true,
      theme: themeFromCss(),
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    styles.during(() => term.open(el));
    let disposed = false;
    if (gpu && hardwareWebgl()) {
      // WebGL where a GPU draws it; the DOM renderer otherwise (and after a lost context).
      void import('@xterm/addon-webgl')
        .then(({ WebglAddon }) => {
          if (disposed) return;
          const webgl = new WebglAddon();
          webgl.onContextLoss(() => webgl.dispose());
          term.loadAddon(webgl);
          el.dataset['renderer'] = 'webgl';
        })
        .catch(() => undefined);
    }
    el.dataset['renderer'] = 'dom';
    fit.fit();

    let terminalId: string | null = null;
    let snapshotOffset = Number.POSITIVE_INFINITY;
    // Output that arrives before the snapshot: kept, then drawn if the snapshot does not cover it.
    const early: { terminalId: string; data: string; offset: number }[] = [];
    const acks = new AckBatcher((chars) => {
      if (terminalId) void client.invoke('terminal.ack', { terminalId, chars }).catch(() => undefined);
    });
    /**
     * Draws the part of a chunk beyond the snapshot and acknowledges the whole chunk (what the
     * snapshot covered counts as drawn), once drawn.
     */
    const draw = (e: { data: string; offset: number }) => {
      const start = e.offset - e.data.length;
      const fresh =
        start >= snapshotOffset
          ? e.data
          : e.offset > snapshotOffset
            ? e.data.slice(snapshotOffset - start)
            : '';
      if (fresh === '') acks.add(e.data.length);
      else term.write(fresh, () => acks.add(e.data.length));
    };
    const offData = client.on('terminal.data', (e) => {
      if (terminalId === null) early.push(e);
      else if (e.terminalId === terminalId) draw(e);
    });
    const offExit = client.on('terminal.exit', (e) => {
      if (e.terminalId === terminalId) setStatus({ kind: 'exited', code: e.exitCode });
    });
    const send = (invoke: () => Promise<unknown>) => void invoke().catch(() => undefined);
    const input = (id: string, data: string) => {
      // A large paste goes in pieces: one request may carry at most a megabyte.
      for (let i = 0; i < data.length; i += INPUT_CHUNK)
        send(() => client.invoke('terminal.input', { terminalId: id, data: data.slice(i, i + INPUT_CHUNK) }));
    };
    // Keys typed before the shell is attached (the panel is open and focused at once) are kept and
    // sent, in order, once it is: dropping them lost the start of the first command. Bounded, as a
    // paste into a terminal that never opens must not grow without end.
    let typedEarly = '';
    term.onData((data) => {
      if (terminalId) input(terminalId, data);
      else typedEarly = (typedEarly + data).slice(0, EARLY_INPUT_MAX);
    });
    term.onResize(({ cols, rows }) => {
      if (terminalId)
        send(() => client.invoke('terminal.resize', { terminalId: terminalId as string, cols, rows }));
    });
    term.attachCustomKeyEventHandler((e) => {
      if (e.type !== 'keydown' || !e.ctrlKey || !e.shiftKey) return true;
      if (e.code === 'KeyC' && term.hasSelection()) {
        void navigator.clipboard.writeText(term.getSelection()).catch(() => undefined);
        return false;
      }
      if (e.code === 'KeyV') {
        void navigator.clipboard
          .readText()
          .then((text) => term.paste(text))
          .catch(() => undefined);
        return false;
      }
      return true;
    });
    const resize = new ResizeObserver(() => {
      if (el.clientWidth > 0 && el.clientHeight > 0) fit.fit();
    });
    resize.observe(el);

    client
      .invoke('terminal.open', { sessionId, cols: term.cols, rows: term.rows })
      .then((info) => {
        if (disposed) {
          void client.invoke('terminal.detach', { terminalId: info.terminalId }).catch(() => undefined);
          return;
        }
        terminalId = info.terminalId;
        terminalIdRef.current = info.terminalId;
        snapshotOffset = info.offset;
        term.write(info.snapshot);
        for (const e of early.splice(0)) if (e.terminalId === info.terminalId) draw(e);
        if (typedEarly !== '') input(info.terminalId, typedEarly);
        typedEarly = '';
        setStatus(info.exitCode === null ? { kind: 'running' } : { kind: 'exited', code: info.exitCode });
        term.focus();
      })
      .catch((error: unknown) => {
        showToast(`Opening the terminal: ${error instanceof Error ? error.message : String(error)}`);
        useStore.getState().setTerminalOpen(sessionId, false);
      });

    return () => {
      disposed = true;
      resize.disconnect();
      offData();
      offExit();
      acks.dispose();
      if (terminalId) void client.invoke('terminal.detach', { terminalId }).catch(() => undefined);
      term.dispose();
      styles.dispose();
    };
  }, [sessionId, gpu, generation]);

  const closeTerminal = () => {
    const id = terminalIdRef.current;
    if (id)
      void getClient()
        .invoke('terminal.close', { terminalId: id })
        .catch(() => undefined);
    useStore.getState().setTerminalOpen(sessionId, false);
  };

  return (
    <section className="terminal-panel" aria-label="Terminal">
      <div className="terminal-bar">
        <span className="muted">
          {status.kind === 'exited'
            ? `Shell exited (code ${status.code})`
            : 'Your shell, outside the sandbox'}
        </span>
        <span className="spacer" />
        {status.kind === 'exited' ? (
          <button
            type="button"
            className="small"
            onClick={() => {
              const id = terminalIdRef.current;
              const restart = () => {
                terminalIdRef.current = null;
                setStatus({ kind: 'starting' });
                setGeneration((g) => g + 1);
              };
              if (id) void getClient().invoke('terminal.close', { terminalId: id }).finally(restart);
              else restart();
            }}
          >
            Restart
          </button>
        ) : null}
        <button
          type="button"
          className="small"
          onClick={() => useStore.getState().setTerminalOpen(sessionId, false)}
          title="Hide (Ctrl+`); the shell keeps running"
        >
          Hide
        </button>
        <button type="button" className="small" onClick={closeTerminal} title="End the shell">
          Close
        </button>
      </div>
      <div ref={host} className="terminal-host" data-testid="terminal" />
    </section>
  );
}
