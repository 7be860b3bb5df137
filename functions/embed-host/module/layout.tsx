/**
 * The frame every page of the procurement module shares: a skip link, a header with the
 * organization, the navigation (Catalog, Orders, Cart with its count; Approvals and Spending for approvers) and the signed-in
 * user, and one `main` landmark. Inline CSS; the scripts are the module bridge (see
 * bridge-markup.tsx) and the pages' own (module-pages-entry.ts), and every page works without them. Pages are JSX, so every value
 * from data is escaped by the renderer (html-page.tsx).
 */
import type { ComponentChildren, VNode } from 'preact';
import type { Cents } from '../../domain/money';
import { formatUsd } from '../../domain/money';
import type { EmbeddedModuleView } from '../../domain/sessions/embedded-sessions';
import type { BridgeState } from '../bridge-markup';
import { HtmlDocument } from '../host-pages';
import { css, renderHtmlPage, type StaticCss } from '../html-page';
import { formatZonedDateTime } from './zoned-date-time';
import type { ModulePaths } from './module-paths';

export const Usd = ({ cents }: { cents: Cents }): VNode => <>{formatUsd(cents)}</>;

/** "Nov 28, 2026, 5:00 PM CST": a stored (UTC) time in the buyer's zone (module-session.ts decides which), the zone named. */
export const When = ({ iso, zone }: { iso: string; zone: string }): VNode => (
  <time datetime={iso}>{formatZonedDateTime(new Date(iso), zone)}</time>
);

/** The first 8 characters of an order id: what a person reads and says; pages link the whole id. */
export const shortOrderId = (orderId: string): string => orderId.slice(0, 8);

export const STYLE = css`
:root{color-scheme:light;--ink:#17212b;--muted:#5a6675;--line:#e2e6eb;--bg:#f5f6f8;--accent:#0b6e61;--accent-ink:#075247;--soft:#e7f3f0;--warn:#8a4b00;--warn-bg:#fff4e0;--bad:#a3251b;--bad-bg:#fdecea}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue","DejaVu Sans",sans-serif;color:var(--ink);background:var(--bg)}
a{color:var(--accent-ink)}
:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
.skip{position:absolute;left:12px;top:-60px;background:#fff;padding:8px 14px;border-radius:8px;z-index:9;box-shadow:0 2px 8px #0002}
.skip:focus{top:8px}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap}
.top{background:#fff;border-bottom:1px solid var(--line)}
.bar{max-width:1080px;margin:0 auto;padding:10px 20px;display:flex;flex-wrap:wrap;align-items:center;gap:8px 18px}
.brand{margin-right:auto;min-width:0;line-height:1.25}
.brand b{display:block;font-size:17px}
.brand span{font-size:12px;color:var(--muted);text-transform:uppercase;letter-spacing:.06em;font-weight:600}
.nav{display:flex;flex-wrap:wrap;gap:2px;list-style:none;margin:0;padding:0}
.nav a{display:inline-flex;align-items:center;gap:6px;padding:7px 11px;border-radius:8px;text-decoration:none;color:var(--ink);font-weight:550}
.nav a:hover{background:var(--bg)}
.nav a[aria-current=page]{background:var(--soft);color:var(--accent-ink)}
.count{background:var(--accent);color:#fff;border-radius:999px;font-size:12px;line-height:20px;min-width:20px;padding:0 6px;text-align:center}
.user{display:flex;align-items:center;gap:10px;font-size:13px;color:var(--muted);min-width:0}
.user>span{min-width:0;overflow-wrap:break-word}
.user strong{color:var(--ink);font-weight:550}
.user form{margin:0}
main{max-width:1080px;margin:0 auto;padding:22px 20px 40px}
h1{font-size:23px;line-height:1.25;margin:0 0 4px}
h2{font-size:16px;margin:0 0 12px}
.lede{color:var(--muted);margin:0 0 18px}
.meta{color:var(--muted);font-size:13px}
.note{color:var(--muted);font-size:13px;margin:12px 0 0}
button,.button{font:inherit;font-weight:550;border-radius:8px;padding:8px 14px;cursor:pointer;border:1px solid var(--line);background:#fff;color:var(--ink);text-decoration:none;display:inline-block;text-align:center}
button:hover,.button:hover{border-color:#b8c0ca}
.primary{background:var(--accent);border-color:var(--accent);color:#fff}
.primary:hover{background:var(--accent-ink);border-color:var(--accent-ink)}
.quiet{border-color:transparent;background:none;color:var(--muted);padding:6px 8px}
.quiet:hover{color:var(--bad)}
.big{width:100%;padding:12px 16px;font-size:16px}
input,select{font:inherit;border:1px solid #c9d0d8;border-radius:8px;padding:8px 10px;background:#fff;color:var(--ink)}
.panel{background:#fff;border:1px solid var(--line);border-radius:12px;padding:18px}
.flash{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;background:var(--soft);border:1px solid #bfe0d8;border-radius:10px;padding:10px 14px;margin:0 0 16px}
.problem{max-width:560px;margin:40px auto}
.problem p{color:var(--muted)}
.actions{display:flex;flex-wrap:wrap;gap:10px;margin-top:18px}
.badge{display:inline-block;font-size:12px;font-weight:600;border-radius:999px;padding:1px 9px;background:var(--bg);color:var(--muted);border:1px solid var(--line)}
.s-pending{background:var(--warn-bg);color:var(--warn);border-color:#f3d9a6}
.s-confirmed{background:#e8effd;color:#1d4ed8;border-color:#c7d7fb}
.s-shipped{background:#efe9fd;color:#5b34c4;border-color:#dccffa}
.s-delivered{background:var(--soft);color:var(--accent-ink);border-color:#bfe0d8}
.s-cancelled,.s-refunded{background:var(--bad-bg);color:var(--bad);border-color:#f5c6c1}
.sums{margin:0;display:grid;grid-template-columns:1fr auto;gap:6px 16px}
.sums dt{color:var(--muted)}
.sums dd{margin:0;text-align:right;font-variant-numeric:tabular-nums}
.sums .total{font-weight:700;color:var(--ink);font-size:17px;border-top:1px solid var(--line);padding-top:10px;margin-top:4px}
.two{display:grid;gap:18px;grid-template-columns:minmax(0,1fr) 300px;align-items:start}
@media (max-width:760px){.two{grid-template-columns:1fr}}
@media (max-width:520px){.bar{padding:8px 12px}main{padding:16px 12px 32px}.bar>nav{order:3;flex-basis:100%}.user .email,.user br{display:none}.nav a{padding:6px 8px}}
`;

/** The module pages' own script (script-routes.ts), from our own origin as the CSP wants; every page works without it. */
const MODULE_PAGES_SCRIPT_PATH = '/embedded/assets/module-v1.js';

export type Section =
  'catalog' | 'guide' | 'cart' | 'orders' | 'invoices' | 'checkout' | 'approvals' | 'spending' | 'none';

export interface ModuleFrame {
  readonly view: EmbeddedModuleView;
  readonly paths: ModulePaths;
  /** Units in the cart, for the header's Cart link. */
  readonly cartUnits: number;
  /** For approvers only: the organization's requests waiting for a decision, for the header's Approvals link. */
  readonly approvalsWaiting?: number;
  /** The session's form token, put in every form that changes something. */
  readonly token: string;
  /** The partner's frame-ancestors, for the module bridge. */
  readonly frameAncestors: readonly string[];
  /** The browser's or the organization's zone, when known (module-session.ts). */
  readonly preferredTimeZone?: string;
  /** The zone times are shown in. */
  readonly timeZone: string;
}

/** The hidden field every state-changing form carries. */
export const TokenField = ({ token }: { token: string }): VNode => <input type="hidden" name="csrf" value={token} />;

const NavLink = ({
  href,
  current,
  name,
  children,
}: {
  href: string;
  current: boolean;
  name?: string;
  children: ComponentChildren;
}): VNode => (
  <li>
    <a href={href} aria-current={current ? 'page' : undefined} aria-label={name}>
      {children}
    </a>
  </li>
);

/** The Cart link shows "Cart" and a count badge; it is named "Cart, 3 items" (a badge alone reads as a bare number). */
const cartName = (units: number): string => `Cart, ${units} ${units === 1 ? 'item' : 'items'}`;

/** What a page tells the SDK through the bridge beyond its section: `order` on the confirmation of a placed order. */
export type PageReport = Pick<BridgeState, 'page' | 'order'>;

/** A page of the module; `styles` adds the page's own rules to the shared ones. */
export function modulePage(
  frame: ModuleFrame,
  section: Section,
  title: string,
  content: VNode,
  styles: readonly StaticCss[] = [],
  report: PageReport = { page: section },
): string {
  const { view, paths, cartUnits, token } = frame;
  return renderHtmlPage(
    <HtmlDocument
      title={`${title} · ${view.organization.name}`}
      styles={[STYLE, ...styles]}
      bridge={{ ...report, frameAncestors: frame.frameAncestors, itemCount: cartUnits }}
    >
      <a class="skip" href="#content">
        Skip to content
      </a>
      <header class="top">
        <div class="bar">
          <div class="brand">
            <span>Supplies</span>
            <b>{view.organization.name}</b>
          </div>
          <nav aria-label="Module">
            <ul class="nav">
              <NavLink href={paths.home} current={section === 'catalog'}>
                Catalog
              </NavLink>
              <NavLink href={paths.orderGuide} current={section === 'guide'}>
                Order guide
              </NavLink>
              <NavLink href={paths.orders} current={section === 'orders'}>
                Orders
              </NavLink>
              <NavLink href={paths.invoices} current={section === 'invoices'}>
                Invoices
              </NavLink>
              {frame.approvalsWaiting !== undefined && (
                <NavLink href={paths.approvals} current={section === 'approvals'}>
                  Approvals{' '}
                  <span class="count" aria-hidden="true">
                    {frame.approvalsWaiting}
                  </span>
                  <span class="sr"> ({frame.approvalsWaiting} waiting)</span>
                </NavLink>
              )}
              {/* Only approvers have the waiting count, and only they see what everyone spent. */}
              {frame.approvalsWaiting !== undefined && (
                <NavLink href={paths.spending()} current={section === 'spending'}>
                  Spending
                </NavLink>
              )}
              <NavLink
                href={paths.cart}
                current={section === 'cart' || section === 'checkout'}
                name={cartName(cartUnits)}
              >
                Cart{' '}
                <span class="count" aria-hidden="true">
                  {cartUnits}
                </span>
              </NavLink>
            </ul>
          </nav>
          <div class="user">
            <span>
              <strong data-testid="user-name">
                {view.profile.firstName} {view.profile.lastName}
              </strong>
              <br />
              <span class="email" data-testid="user-email">
                {view.profile.email}
              </span>
            </span>
            <form method="post" action={paths.logout}>
              <TokenField token={token} />
              <button type="submit" class="quiet">
                Sign out
              </button>
            </form>
          </div>
        </div>
      </header>
      <main id="content" tabindex={-1}>
        {content}
      </main>
      <script type="module" src={MODULE_PAGES_SCRIPT_PATH} />
    </HtmlDocument>,
  );
}

export interface ProblemLink {
  readonly href: string;
  readonly label: string;
  readonly primary?: boolean;
}

/** A failure or empty state as a page of its own: a heading, what happened, where to go next. */
export const ProblemContent = ({
  title,
  message,
  links,
}: {
  title: string;
  message: string;
  links: readonly ProblemLink[];
}): VNode => (
  <div class="panel problem" role="alert">
    <h1>{title}</h1>
    <p>{message}</p>
    {links.length > 0 && (
      <div class="actions">
        {links.map((l) => (
          <a class={l.primary ? 'button primary' : 'button'} href={l.href}>
            {l.label}
          </a>
        ))}
      </div>
    )}
  </div>
);
