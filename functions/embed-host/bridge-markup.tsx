/**
 * What a page of the embed host carries for the module bridge: the data attributes on
 * `<html>` it reads (the partner's allowed frame origins and what the page shows) and the
 * one script tag that loads it from our own origin (the CSP allows `script-src 'self'`,
 * no inline script). The page works the same without script.
 */
import type { VNode } from 'preact';
import type { Cents } from '../domain/money';
import { BRIDGE_ATTRIBUTES, type EndedState } from '../embed-sdk/protocol';
import { frameAncestorSources } from './frame-ancestor-sources';

const BRIDGE_SCRIPT_PATH = '/embedded/assets/bridge-v1.js';

export interface BridgeState {
  /** The partner's frame-ancestors (as the CSP has them): the only origins the bridge answers. */
  readonly frameAncestors: readonly string[];
  readonly page?: string;
  readonly itemCount?: number;
  /** The order this page confirms as just placed. */
  readonly order?: { readonly id: string; readonly totalCents: Cents };
  readonly ended?: EndedState;
}

/** The attributes for `<html>`, in the bridge's names; the renderer escapes their values. */
export function bridgeAttributes(state: BridgeState): Readonly<Record<string, string>> {
  return {
    [BRIDGE_ATTRIBUTES.origins]: frameAncestorSources(state.frameAncestors).join(' '),
    ...(state.page ? { [BRIDGE_ATTRIBUTES.page]: state.page } : {}),
    ...(state.itemCount !== undefined ? { [BRIDGE_ATTRIBUTES.itemCount]: String(state.itemCount) } : {}),
    ...(state.order
      ? {
          [BRIDGE_ATTRIBUTES.orderId]: state.order.id,
          [BRIDGE_ATTRIBUTES.orderTotal]: String(state.order.totalCents / 100),
        }
      : {}),
    ...(state.ended ? { [BRIDGE_ATTRIBUTES.ended]: state.ended } : {}),
  };
}

export const BridgeScript = (): VNode => <script type="module" src={BRIDGE_SCRIPT_PATH} />;
