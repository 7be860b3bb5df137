import { embeddedModulePath } from '../../domain/sessions/iframe-embed-url';

/**
 * Every address of the procurement module, under `/embedded/{partnerId}`: the routes in
 * the route table (functions/routes.ts) and the links and form actions of the pages come from here, so a page
 * can never point somewhere no route serves.
 */
export interface ModulePaths {
  readonly home: string;
  readonly cart: string;
  readonly cartItems: string;
  readonly checkout: string;
  readonly orders: string;
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
  approvalAction(requestId: string, action: 'approve' | 'reject' | 'withdraw'): string;
  cartItem(productId: string): string;
  /** A product's page; `added` says the page follows an add to the cart. */
  product(productId: string, query?: { readonly added?: boolean }): string;
  order(orderId: string): string;
  buyAgain(orderId: string): string;
  /** The orders list with a status filter and/or page kept. */
  orderList(query: { readonly status?: string | undefined; readonly after?: string | undefined }): string;
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
  const home = embeddedModulePath(partnerId);
  return {
    home,
    cart: `${home}/cart`,
    cartItems: `${home}/cart/items`,
    checkout: `${home}/checkout`,
    orders: `${home}/orders`,
    logout: `${home}/logout`,
    orderGuide: `${home}/order-guide`,
    orderGuideItems: `${home}/order-guide/items`,
    approvals: `${home}/approvals`,
    approval: (requestId, query = {}) =>
      withQuery(`${home}/approvals/${encodeURIComponent(requestId)}`, {
        submitted: query.submitted ? '1' : undefined,
        done: query.done,
      }),
    approvalAction: (requestId, action) => `${home}/approvals/${encodeURIComponent(requestId)}/${action}`,
    buyAgain: (orderId) => `${home}/orders/${encodeURIComponent(orderId)}/buy-again`,
    orderList: (query) => withQuery(`${home}/orders`, query),
    cartAfterAdding: (added, skipped) =>
      withQuery(`${home}/cart`, { added: String(added), skipped: skipped.join(',') }),
    cartItem: (productId) => `${home}/cart/items/${encodeURIComponent(productId)}`,
    product: (productId, query = {}) =>
      `${home}/products/${encodeURIComponent(productId)}${query.added ? '?added=1' : ''}`,
    order: (orderId) => `${home}/orders/${encodeURIComponent(orderId)}`,
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
