import type { ApprovalService } from '../../domain/approvals/approval-service';
import type { OrganizationStatements } from '../../domain/billing/organization-statement';
import type { PartnerInvoices } from '../../domain/billing/partner-invoices';
import type { CatalogRepository } from '../../domain/catalog/catalog-repository';
import type { Clock } from '../../domain/clock';
import type { PricedCart } from '../../domain/orders/cart-service';
import { roleOf } from '../../domain/organizations/organization';
import type { CartService } from '../../domain/orders/cart-service';
import type { OrderGuideService } from '../../domain/orders/order-guide';
import type { OrderService } from '../../domain/orders/order-service';
import type { OrderScope } from '../../domain/orders/order-scope';
import type { EmbeddedModuleView, EmbeddedSessions } from '../../domain/sessions/embedded-sessions';
import type { SpendReports } from '../../domain/spending/spend-reports';
import { readSessionCookie, readTimeZoneCookie } from '../session-cookie';
import { canonicalTimeZone, STATE_TIME_ZONES } from '../../domain/time-zones';
import type { EmbedRequest } from '../embed-pipeline';
import type { EmbedHostDependencies } from '../embed-pipeline';
import { assertFormToken, assertSameOrigin, formToken } from './form-token';
import { cartUnits } from './cart/page';
import type { ModuleFrame } from './layout';
import { readForm } from './module-form';
import { type ModulePaths, modulePaths } from './module-paths';

/** What the module's pages and actions use; the embed function's composition provides it. */
export interface ModuleDependencies extends EmbedHostDependencies {
  readonly config: EmbedHostDependencies['config'] & { readonly EMBED_BASE_URL: string };
  readonly embeddedSessions: Pick<EmbeddedSessions, 'resume'>;
  readonly catalog: Pick<CatalogRepository, 'listActive' | 'get'>;
  readonly cartService: Pick<CartService, 'add' | 'addLines' | 'changeQuantity' | 'remove' | 'view'>;
  readonly orderService: Pick<
    OrderService,
    'placeOrder' | 'quoteEach' | 'get' | 'listForOrganization' | 'searchOrganization' | 'monthSpend'
  >;
  readonly orderGuide: Pick<OrderGuideService, 'view' | 'add' | 'changeQuantity' | 'remove' | 'addToCart'>;
  readonly approvalService: Pick<
    ApprovalService,
    | 'submit'
    | 'approve'
    | 'reject'
    | 'withdraw'
    | 'resubmit'
    | 'get'
    | 'listForOrganization'
    | 'countPending'
    | 'standing'
  >;
  /** How long requests have waited. */
  readonly clock: Clock;
  readonly invoices: Pick<PartnerInvoices, 'forOrder' | 'ofOrganization' | 'search'>;
  /** What the organization owes: the Invoices page's total due. */
  readonly statements: Pick<OrganizationStatements, 'statement'>;
  readonly spendReports: Pick<SpendReports, 'organization' | 'monthOf' | 'assertMaySee' | 'history' | 'rows'>;
}

export type ModuleRequest = EmbedRequest<ModuleDependencies>;

/** A signed-in user of the module: who, where their pages live, and their form token. */
export interface ModuleSession {
  readonly view: EmbeddedModuleView;
  readonly paths: ModulePaths;
  readonly token: string;
  /** Orders the user may see and place: their own organization's, of this partner. */
  readonly scope: OrderScope;
  /** The partner's frame-ancestors, which the page hands the module bridge. */
  readonly frameAncestors: readonly string[];
  /** The zone the user chose by being there (the browser's) or the partner set (the organization's), if any. */
  readonly preferredTimeZone?: string;
  /** The zone pages show times in: the preferred one, else the default shipping location's state's, else UTC. */
  readonly timeZone: string;
}

/**
 * Which zone the module shows times in: 1. the browser's (the embed SDK tells it);
 * 2. the organization's `timeZone` from setup; 3. the primary zone of the state of the
 * default (else first) shipping location; 4. UTC. An order's page uses its own
 * destination's state for 3.
 */
function timeZonesOf(
  event: ModuleRequest['event'],
  view: EmbeddedModuleView,
): Pick<ModuleSession, 'preferredTimeZone' | 'timeZone'> {
  const preferred =
    readTimeZoneCookie(event) ??
    (view.organization.timeZone ? canonicalTimeZone(view.organization.timeZone) : undefined);
  const location = view.locations.find((l) => l.isDefault && l.isActive) ?? view.locations[0];
  const fallback = location ? STATE_TIME_ZONES[location.address.province] : 'UTC';
  return { ...(preferred ? { preferredTimeZone: preferred } : {}), timeZone: preferred ?? fallback };
}

/** The live session behind the cookie (else the 401 page, as for the module shell). */
export async function moduleSession({ event, partnerId, deps, frameAncestors }: ModuleRequest): Promise<ModuleSession> {
  const cookie = readSessionCookie(event);
  const view = await deps.embeddedSessions.resume(partnerId, cookie);
  return {
    view,
    paths: modulePaths(partnerId),
    // resume refused anything but a live session's well-formed secret.
    token: formToken(cookie as string),
    scope: { partnerId, organizationId: view.organization.id },
    frameAncestors,
    ...timeZonesOf(event, view),
  };
}

/**
 * A state-changing form post of the module, verified before anything is read or written:
 * 1. it must come from our own pages (Sec-Fetch-Site / Origin), else 403;
 * 2. the session must be live, else the 401 page;
 * 3. it must carry the session's form token, else 403.
 */
export async function verifiedFormPost(
  request: ModuleRequest,
): Promise<{ session: ModuleSession; form: ReadonlyMap<string, string> }> {
  assertSameOrigin(request.event, request.deps.config.EMBED_BASE_URL);
  const session = await moduleSession(request);
  const form = readForm(request.event);
  assertFormToken(form.get('csrf'), readSessionCookie(request.event) as string);
  return { session, form };
}

/** The page frame: the session plus the cart count the header shows (and, for approvers, the requests waiting). */
export async function moduleFrame(deps: ModuleDependencies, session: ModuleSession): Promise<ModuleFrame> {
  return frameWithCart(deps, session, deps.cartService.view(session.view.profile.id));
}

/** The frame for a page that reads (and prices) the cart itself. */
export async function frameWithCart(
  deps: ModuleDependencies,
  session: ModuleSession,
  cart: PricedCart | Promise<PricedCart>,
): Promise<ModuleFrame> {
  const [units, waiting] = await Promise.all([Promise.resolve(cart).then(cartUnits), approvalsWaiting(deps, session)]);
  return { ...session, cartUnits: units, ...(waiting === undefined ? {} : { approvalsWaiting: waiting }) };
}

/** An approver's header shows how many of the organization's requests wait; others have no Approvals link. */
const approvalsWaiting = (deps: ModuleDependencies, session: ModuleSession): Promise<number | undefined> =>
  roleOf(session.view.profile) === 'approver'
    ? deps.approvalService.countPending(session.view.organization.id)
    : Promise.resolve(undefined);
