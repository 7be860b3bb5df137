import { describe, expect, it } from 'vitest';
import type { Product, ProductId } from '../../functions/domain/catalog/product';
import { ProductUnavailable, ValidationFailed } from '../../functions/domain/errors';
import { MAX_CART_LINES } from '../../functions/domain/orders/cart';
import type { ProfileId } from '../../functions/domain/organizations/organization';
import { anOrderingWorld } from '../support/order-fixtures';

const issuesOf = async (action: Promise<unknown>) => {
  const error = await action.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ValidationFailed);
  return (error as ValidationFailed).issues.map(({ code, path }) => ({ code, path }));
};

const someProducts = (count: number): Product[] =>
  Array.from({ length: count }, (_, index) => ({
    productId: `BULK-${index}` as ProductId,
    name: `Bulk item ${index}`,
    description: 'A product for limit tests.',
    category: 'Office Supplies',
    priceCents: 100,
    unit: 'each',
    active: true,
    image: `${'0'.repeat(64)}.svg`,
  }));

describe('cart', () => {
  it('adds active products, adding up quantities of the same product', async () => {
    const { cartService, profile, clock } = await anOrderingWorld();
    await cartService.add(profile.id, 'GLV-NIT-M-100', 2);
    clock.advance(1000);
    await cartService.add(profile.id, 'SPR-DIS-24OZ');
    await cartService.add(profile.id, 'GLV-NIT-M-100', 3);
    const cart = await cartService.view(profile.id);
    expect(cart.lines.map((line) => [line.product.productId, line.quantity, line.lineTotalCents])).toEqual([
      ['GLV-NIT-M-100', 5, 6245],
      ['SPR-DIS-24OZ', 1, 845],
    ]);
    expect(cart.subtotalCents).toBe(7090);
    expect(cart.untaxed).toEqual({ subtotalCents: 7090, shippingCents: 995 });
  });

  it('refuses products that are inactive or unknown', async () => {
    const { cartService, profile } = await anOrderingWorld();
    await expect(cartService.add(profile.id, 'ABT-TIP-3W-250')).rejects.toThrow(ProductUnavailable);
    await expect(cartService.add(profile.id, 'NO-SUCH-SKU')).rejects.toThrow(ProductUnavailable);
    await expect(cartService.add(profile.id, 'not a sku')).rejects.toThrow(ProductUnavailable);
    await expect(cartService.changeQuantity(profile.id, 'ABT-TIP-3W-250', 2)).rejects.toThrow(ProductUnavailable);
    expect((await cartService.view(profile.id)).lines).toEqual([]);
  });

  it('keeps each line between 1 and 999', async () => {
    const { cartService, profile } = await anOrderingWorld();
    expect(await issuesOf(cartService.add(profile.id, 'GLV-NIT-M-100', 0))).toEqual([
      { code: 'TOO_SMALL', path: ['quantity'] },
    ]);
    expect(await issuesOf(cartService.add(profile.id, 'GLV-NIT-M-100', 1000))).toEqual([
      { code: 'TOO_BIG', path: ['quantity'] },
    ]);
    expect(await issuesOf(cartService.add(profile.id, 'GLV-NIT-M-100', 1.5))).toEqual([
      { code: 'INVALID_TYPE', path: ['quantity'] },
    ]);
    expect(await issuesOf(cartService.add(profile.id, 'GLV-NIT-M-100', '2'))).toEqual([
      { code: 'INVALID_TYPE', path: ['quantity'] },
    ]);
    await cartService.add(profile.id, 'GLV-NIT-M-100', 999);
    expect(await issuesOf(cartService.add(profile.id, 'GLV-NIT-M-100', 1))).toEqual([
      { code: 'TOO_BIG', path: ['quantity'] },
    ]);
    expect(await issuesOf(cartService.changeQuantity(profile.id, 'GLV-NIT-M-100', 1000))).toEqual([
      { code: 'TOO_BIG', path: ['quantity'] },
    ]);
    expect(await issuesOf(cartService.changeQuantity(profile.id, 'GLV-NIT-M-100', -1))).toEqual([
      { code: 'TOO_SMALL', path: ['quantity'] },
    ]);
    expect((await cartService.view(profile.id)).lines[0]?.quantity).toBe(999);
  });

  it('holds at most 50 different products, and still lets their quantities change', async () => {
    const { cartService, catalog, profile } = await anOrderingWorld();
    const products = someProducts(MAX_CART_LINES + 1);
    await catalog.upsertMany(products);
    for (const product of products.slice(0, MAX_CART_LINES)) await cartService.add(profile.id, product.productId);
    expect(await issuesOf(cartService.add(profile.id, products[MAX_CART_LINES]!.productId))).toEqual([
      { code: 'TOO_MANY_ITEMS', path: ['items'] },
    ]);
    expect(await issuesOf(cartService.changeQuantity(profile.id, products[MAX_CART_LINES]!.productId, 1))).toEqual([
      { code: 'TOO_MANY_ITEMS', path: ['items'] },
    ]);
    await cartService.add(profile.id, products[0]!.productId, 4);
    await cartService.changeQuantity(profile.id, products[1]!.productId, 7);
    const cart = await cartService.view(profile.id);
    expect(cart.lines).toHaveLength(MAX_CART_LINES);
    expect(cart.lines.slice(0, 2).map((line) => line.quantity)).toEqual([5, 7]);
  });

  it('changes a quantity, removes a line at 0, and removes or clears on request', async () => {
    const { cartService, profile } = await anOrderingWorld();
    await cartService.add(profile.id, 'GLV-NIT-M-100', 2);
    await cartService.add(profile.id, 'SPR-DIS-24OZ', 2);
    await cartService.add(profile.id, 'PPR-LTR-5000', 1);
    await cartService.changeQuantity(profile.id, 'GLV-NIT-M-100', 10);
    await cartService.changeQuantity(profile.id, 'SPR-DIS-24OZ', 0);
    expect((await cartService.view(profile.id)).lines.map((line) => [line.product.productId, line.quantity])).toEqual([
      ['GLV-NIT-M-100', 10],
      ['PPR-LTR-5000', 1],
    ]);
    await cartService.remove(profile.id, 'PPR-LTR-5000');
    await cartService.remove(profile.id, 'NOT-IN-CART');
    expect((await cartService.view(profile.id)).lines).toHaveLength(1);
    await cartService.clear(profile.id);
    expect((await cartService.view(profile.id)).lines).toEqual([]);
  });

  it('prices at the current catalog price and sets aside products no longer sold', async () => {
    const { cartService, catalog, profile } = await anOrderingWorld();
    await cartService.add(profile.id, 'GLV-NIT-M-100', 2);
    await cartService.add(profile.id, 'SPR-DIS-24OZ', 1);
    const gloves = (await catalog.get(['GLV-NIT-M-100' as ProductId])).get('GLV-NIT-M-100' as ProductId)!;
    const spray = (await catalog.get(['SPR-DIS-24OZ' as ProductId])).get('SPR-DIS-24OZ' as ProductId)!;
    await catalog.upsertMany([
      { ...gloves, priceCents: 1099 },
      { ...spray, active: false },
    ]);

    const cart = await cartService.view(profile.id);
    expect(cart.lines.map((line) => [line.product.productId, line.lineTotalCents])).toEqual([['GLV-NIT-M-100', 2198]]);
    expect(cart.unavailable).toMatchObject([{ productId: 'SPR-DIS-24OZ', quantity: 1, product: { active: false } }]);
    expect(cart.untaxed).toEqual({ subtotalCents: 2198, shippingCents: 995 });
  });

  it('is per profile', async () => {
    const { cartService, profile } = await anOrderingWorld();
    const colleague = 'f2a6c1de-0000-4000-8000-000000000001' as ProfileId;
    await cartService.add(profile.id, 'GLV-NIT-M-100');
    expect((await cartService.view(colleague)).lines).toEqual([]);
  });
});
