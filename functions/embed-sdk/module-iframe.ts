/**
 * The iframe the SDK puts on the partner's page, with no more power than the module needs
 * (measured: without allow-scripts or allow-same-origin no bridge event arrives; see docs/embedding.md):
 * scripts (its bridge), its own origin (its session cookie and same-origin form posts),
 * forms, and popups that leave the sandbox (a tracking link opens the carrier's site in a
 * new tab as an ordinary page). No top navigation, downloads, modals or pointer lock; no
 * delegated permissions; no Referer carrying the partner page's address.
 */
const MODULE_SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox';
/** Features whose default allowlist is `*` (every other powerful feature is already off in a cross-origin frame). */
const MODULE_ALLOW = "fullscreen 'none'; picture-in-picture 'none'; sync-xhr 'none'";

export function createModuleIframe(title: string, fixedHeight: number | undefined): HTMLIFrameElement {
  const iframe = document.createElement('iframe');
  iframe.title = title;
  iframe.setAttribute('sandbox', MODULE_SANDBOX);
  iframe.setAttribute('allow', MODULE_ALLOW);
  iframe.referrerPolicy = 'no-referrer';
  iframe.style.cssText = `display:block;width:100%;border:0;height:${fixedHeight ?? 150}px`;
  return iframe;
}
