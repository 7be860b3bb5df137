/** What `onEvent` receives: one object per thing that happened in the embedded module. */
export type LoadErrorReason = 'timeout' | 'frame-blocked' | 'link-unusable' | 'fetch-failed';

export type EmbedEvent =
  | { readonly type: 'ready'; readonly data: { readonly page: string } }
  | { readonly type: 'resize'; readonly data: { readonly height: number } }
  | { readonly type: 'navigate'; readonly data: { readonly page: string } }
  | { readonly type: 'cart.updated'; readonly data: { readonly item_count: number } }
  | { readonly type: 'order.created'; readonly data: { readonly order_id: string; readonly total: number } }
  | { readonly type: 'session.expired'; readonly data: Record<string, never> }
  | { readonly type: 'signed_out'; readonly data: Record<string, never> }
  | { readonly type: 'load.error'; readonly data: { readonly reason: LoadErrorReason } };

export type EmbedEventType = EmbedEvent['type'];
