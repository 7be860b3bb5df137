/**
 * What a page of the embed host carries for the module bridge: the data attributes on
 * `<html>` it reads (the partner's allowed frame origins and what the page shows) and the
 * one script tag that loads it from our own origin (the CSP allows `script-src 'self'`,
 * no inline script). The page works the same without script.
 */
import type { Cents } from '../domain/money';
import { BRIDGE_ATTRIBUTES, type EndedState } from '../embed-sdk/protocol';
import { escapeHtml } from './host-pages';
import { frameAncestorSources } from './frame-ancestor-sources';

export const BRIDGE_SCRIPT_PATH = '/embedded/assets/bridge-v1.js';

export interface BridgeState {
  /** The partner's frame-ancestors (as the CSP has them): the only origins the bridge answers. */
  readonly frameAncestors: readonly string[];
  readonly page?: string;
  readonly itemCount?: number;
  /** The order this page confirms as just placed. */
  readonly order?: { readonly id: string; readonly totalCents: Cents };
  readonly ended?: EndedState;
}

const attribute = (name: string, value: string | number): string => ` ${name}="${escapeHtml(String(value))}"`;

export function bridgeAttributes(state: BridgeState): string {
  return [
    attribute(BRIDGE_ATTRIBUTES.origins, frameAncestorSources(state.frameAncestors).join(' ')),
    state.page ? attribute(BRIDGE_ATTRIBUTES.page, state.page) : '',
    state.itemCount !== undefined ? attribute(BRIDGE_ATTRIBUTES.itemCount, state.itemCount) : '',
    state.order ? attribute(BRIDGE_ATTRIBUTES.orderId, state.order.id) + attribute(BRIDGE_ATTRIBUTES.orderTotal, state.order.totalCents / 100) : '',
    state.ended ? attribute(BRIDGE_ATTRIBUTES.ended, state.ended) : '',
  ].join('');
}

export const BRIDGE_SCRIPT_TAG = `<script type="module" src="${BRIDGE_SCRIPT_PATH}"></script>`;
