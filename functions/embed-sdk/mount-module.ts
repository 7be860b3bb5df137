import type { EmbedEvent, LoadErrorReason } from './embed-events';
import { createModuleIframe } from './module-iframe';
import { envelope, type ModuleMessage, readModuleMessage } from './protocol';

export interface MountOptions {
  /** Asks the partner's backend (which holds the API key and calls the handshake) for a fresh `iframe_embed_url`. */
  fetchEmbedUrl: () => Promise<string>;
  onEvent?: (event: EmbedEvent) => void;
  /** How long a load may take before `load.error` `timeout` (default 10 000 ms). */
  loadTimeoutMs?: number;
  /** A fixed height in CSS pixels instead of following the module's content. */
  height?: number;
  /** The iframe's accessible name (default "Supplies module"). */
  title?: string;
}

export interface EmbeddedModule {
  /** A new link from `fetchEmbedUrl`, loaded into the same iframe. */
  reload(): void;
  /** Removes the iframe and stops listening; no event follows. */
  unmount(): void;
}

/** Automatic renewals after `session.expired`: at most this many in a minute, then `load.error`. */
const RENEWALS_PER_MINUTE = 3;
const PATH = /^\/embedded\/([0-9a-f-]{36})$/;

/** The partner id of one of our embed links, or undefined for anything else. */
function embedLinkPartner(url: unknown, embedOrigin: string): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    const parsed = new URL(url);
    return parsed.origin === embedOrigin && parsed.searchParams.has('session_key')
      ? PATH.exec(parsed.pathname)?.[1]
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The link with the browser's IANA zone added as `tz`, so the module shows times in it
 * (the embed host keeps it in a cookie when it redeems the link). Without a zone, or
 * without this script at all, the module falls back to the organization's zone.
 */
function withBrowserTimeZone(url: string): string {
  let zone: string | undefined;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    zone = undefined;
  }
  if (!zone) return url;
  const parsed = new URL(url);
  parsed.searchParams.set('tz', zone);
  return parsed.toString();
}

export function mountModule(container: HTMLElement, options: MountOptions, embedOrigin: string): EmbeddedModule {
  const iframe = createModuleIframe(options.title ?? 'Supplies module', options.height);
  const timeoutMs = options.loadTimeoutMs ?? 10_000;
  const renewals: number[] = [];
  const seenOrders = new Set<string>();
  let itemCount: number | undefined;
  // Each load gets a number; anything a stale load finishes late is dropped.
  let load = 0;
  let ready = false;
  let failed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const emit = (event: EmbedEvent) => {
    try {
      options.onEvent?.(event);
    } catch (error) {
      // The partner's handler failing must not stop the module; the error still reaches the console.
      setTimeout(() => {
        throw error;
      });
    }
  };
  const fail = (current: number, reason: LoadErrorReason) => {
    if (current !== load || ready || failed) return;
    failed = true;
    clearTimeout(timer);
    emit({ type: 'load.error', data: { reason } });
  };

  /** Tells a load the page's origin is not allowed apart from one that is merely slow: the blocked frame itself says nothing. */
  const checkFrameOrigin = async (current: number, partnerId: string) => {
    if (location.origin === embedOrigin) return;
    try {
      const answer = await fetch(`${embedOrigin}/embedded/${partnerId}/frame-check`, {
        credentials: 'omit',
        cache: 'no-store',
      });
      const body = (await answer.json()) as { allowed?: unknown };
      if (body.allowed === false) fail(current, 'frame-blocked');
    } catch {
      // Unknown: the timeout decides.
    }
  };

  const start = async () => {
    const current = ++load;
    ready = false;
    failed = false;
    clearTimeout(timer);
    timer = setTimeout(() => fail(current, 'timeout'), timeoutMs);
    let url: unknown;
    try {
      url = await options.fetchEmbedUrl();
    } catch {
      fail(current, 'fetch-failed');
      return;
    }
    if (current !== load) return;
    const partnerId = embedLinkPartner(url, embedOrigin);
    if (!partnerId) {
      fail(current, 'link-unusable');
      return;
    }
    void checkFrameOrigin(current, partnerId);
    iframe.src = withBrowserTimeZone(url as string);
  };

  const renew = () => {
    const now = Date.now();
    while (renewals.length && (renewals[0] as number) <= now - 60_000) renewals.shift();
    if (renewals.length >= RENEWALS_PER_MINUTE) {
      failed = false;
      ready = false;
      fail(load, 'link-unusable');
      return;
    }
    renewals.push(now);
    void start();
  };

  const handle = (message: ModuleMessage) => {
    switch (message.type) {
      case 'page': {
        const { page, item_count, order } = message.data;
        if (!ready) {
          ready = true;
          clearTimeout(timer);
          emit({ type: 'ready', data: { page } });
        } else {
          emit({ type: 'navigate', data: { page } });
        }
        if (item_count !== itemCount) {
          itemCount = item_count;
          emit({ type: 'cart.updated', data: { item_count } });
        }
        if (order && !seenOrders.has(order.order_id)) {
          seenOrders.add(order.order_id);
          emit({ type: 'order.created', data: { order_id: order.order_id, total: order.total } });
        }
        return;
      }
      case 'resize':
        if (options.height === undefined) iframe.style.height = `${message.data.height}px`;
        emit({ type: 'resize', data: { height: message.data.height } });
        return;
      case 'session.ended':
        emit({ type: 'session.expired', data: {} });
        renew();
        return;
      case 'link.unusable':
        fail(load, 'link-unusable');
        return;
      case 'signed_out':
        emit({ type: 'signed_out', data: {} });
        return;
    }
  };

  const onMessage = (event: MessageEvent) => {
    if (event.origin !== embedOrigin || event.source !== iframe.contentWindow) return;
    const message = readModuleMessage(event.data);
    if (message) handle(message);
  };
  // Every page the iframe loads gets a hello; its bridge answers only after one.
  const onLoad = () => iframe.contentWindow?.postMessage(envelope('hello', {}), embedOrigin);

  window.addEventListener('message', onMessage);
  iframe.addEventListener('load', onLoad);
  container.appendChild(iframe);
  void start();

  return {
    reload: () => void start(),
    unmount: () => {
      load += 1;
      clearTimeout(timer);
      window.removeEventListener('message', onMessage);
      iframe.removeEventListener('load', onLoad);
      iframe.remove();
    },
  };
}
