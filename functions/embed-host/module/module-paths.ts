import { routePath } from '../../route-names';

/**
 * Every address of the procurement module, under `/embedded/{partnerId}`: each is a route
 * of the route table (functions/routes.ts) found by its name, so the links and form actions
 * of the pages can never point somewhere no route serves.
 */
export interface ModulePaths {
  readonly home: string;
  readonly cart: string;
  readonly cartItems: string;
  readonly checkout: string;
  readonly orders: string;
  /** The organization's invoices. */
  readonly invoices: string;
  readonly logout: string;
  readonly orderGuide: string;
  readonly orderGuideItems: string;
  /** The approval requests' page; a POST here submits the cart for approval. */
  readonly approvals: string;
  /** One approval request's page; `submitted` or `decided` says what just happened to it. */
  approval(
    requestId: string,
    query?: { readonly submitted?: boolean; readonly done?: 'approved' | 'rejected' | 'withdrawn' },
  ): string;
  /** Where a request's Approve, Reject or Withdraw form posts. */
  approvalAction(requestId: string, action: 'approve' | 'reject' | 'withdraw' | 'resubmit'): string;
  cartItem(productId: string): string;
  /** A product's page; `added` says the page follows an add to the cart. */
  product(productId: string, query?: { readonly added?: boolean }): string;
  order(orderId: string): string;
  buyAgain(orderId: string): string;
  /** The orders list with a status filter and/or page kept. */
  orderList(query: {
    readonly status?: string | undefined;
    readonly after?: string | undefined;
    readonly q?: string | undefined;
    readonly from?: string | undefined;
    readonly to?: string | undefined;
  }): string;
  /** The approvers' Spending page, of `month` (`YYYY-MM`) when given, else this month. */
  spending(month?: string): string;
  /** The month's order lines as CSV. */
  spendingCsv(month: string): string;
  /** The invoices list with a status filter and/or page kept. */
  invoiceList(query: { readonly status?: string | undefined; readonly after?: string | undefined }): string;
  /** The cart saying what a Buy again or an order-guide add did. */
  cartAfterAdding(added: number, skipped: readonly string[]): string;
  /** The catalog with a category and/or search kept, and optionally the query `added`. */
  catalog(query: CatalogQuery): string;
}

export interface CatalogQuery {
  readonly category?: string | undefined;
  readonly q?: string | undefined;
  readonly sort?: string | undefined;
  /** 1-based; page 1 is left out of the address. */
  readonly page?: number | undefined;
  /** The product just added: the page says so. */
  readonly added?: string | undefined;
}

export function modulePaths(partnerId: string): ModulePaths {
  const home = routePath('module-open', { partnerId });
  return {
    home,
    cart: routePath('module-cart', { partnerId }),
    cartItems: routePath('module-cart-add', { partnerId }),
    checkout: routePath('module-checkout', { partnerId }),
    orders: routePath('module-orders', { partnerId }),
    invoices: routePath('module-invoices', { partnerId }),
    logout: routePath('module-logout', { partnerId }),
    orderGuide: routePath('module-order-guide', { partnerId }),
    orderGuideItems: routePath('module-order-guide-add', { partnerId }),
    approvals: routePath('module-approvals', { partnerId }),
    approval: (requestId, query = {}) =>
      withQuery(routePath('module-approval', { partnerId, requestId }), {
        submitted: query.submitted ? '1' : undefined,
        done: query.done,
      }),
    approvalAction: (requestId, action) => routePath(`module-approval-${action}`, { partnerId, requestId }),
    buyAgain: (orderId) => routePath('module-buy-again', { partnerId, orderId }),
    orderList: (query) => withQuery(routePath('module-orders', { partnerId }), query),
    spending: (month) => withQuery(routePath('module-spending', { partnerId }), { month }),
    spendingCsv: (month) => withQuery(routePath('module-spending-csv', { partnerId }), { month }),
    invoiceList: (query) => withQuery(routePath('module-invoices', { partnerId }), query),
    cartAfterAdding: (added, skipped) =>
      withQuery(routePath('module-cart', { partnerId }), { added: String(added), skipped: skipped.join(',') }),
    cartItem: (productId) => routePath('module-cart-line', { partnerId, productId }),
    product: (productId, query = {}) =>
      `${routePath('module-product', { partnerId, productId })}${query.added ? '?added=1' : ''}`,
    order: (orderId) => routePath('module-order', { partnerId, orderId }),
    catalog: (query) => {
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(query)) {
        // The default sort and the first page are the catalog's plain address.
        if (value && !(name === 'sort' && value === 'name') && !(name === 'page' && value === 1))
          search.set(name, String(value));
      }
      const text = search.toString();
      return text ? `${home}?${text}` : home;
    },
  };
}

function withQuery(path: string, query: Readonly<Record<string, string | undefined>>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) search.set(name, value);
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
