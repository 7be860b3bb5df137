import type { PartnerId } from '../partners/partner';

/** Contract: `{embed_host}/embedded/<partner_id>?session_key=<SESSION_KEY>`. */
export const iframeEmbedUrl = (embedBaseUrl: string, partnerId: PartnerId, sessionKey: string): string =>
  `${embedBaseUrl.replace(/\/+$/, '')}/embedded/${encodeURIComponent(partnerId)}?session_key=${sessionKey}`;
