import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ProductId } from '../../functions/domain/catalog/product';
import {
  ConcurrentModification,
  EmptyCart,
  Forbidden,
  InvalidOrderTransition,
  OrderNotFound,
  ProductUnavailable,
  ShippingLocationUnavailable,
  ValidationFailed,
} from '../../functions/domain/errors';
import { OrderService } from '../../functions/domain/orders/order-service';
import type { OrganizationId } from '../../functions/domain/organizations/organization';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { anOrderingWorld, anOrganization } from '../support/order-fixtures';

describe('placing an order', () => {
  it('snapshots the cart, the default location, the buyer and the prices, and empties the cart', async () => {
    const world = await anOrderingWorld();
    const { cartService, orderService, orders, profile, organization, defaultLocation, partner, clock } = world;
    await cartService.add(profile.id, 'GLV-NIT-M-100', 10);
    await cartService.add(profile.id, 'PPR-LTR-5000', 1);

    const order = await orderService.placeOrder({ partner, profile, organization });

    expect(order).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      partnerId: partner.id,
      organizationId: organization.organization.id,
      internalOrgId: organization.organization.internalOrgId,
      profileId: profile.id,
      internalUserId: profile.internalUserId,
      userEmail: 'ada@smile-dental.test',
      // The month its user's counter holds it in, in the organization's zone (Portland's).
      spendMonth: '2036-11',
      items: [
        {
          productId: 'GLV-NIT-M-100',
          name: 'Nitrile Exam Gloves, Powder-Free, Medium',
          unit: 'box of 100',
          unitPriceCents: 1249,
          quantity: 10,
        },
        {
          productId: 'PPR-LTR-5000',
          name: 'Copy Paper, Letter, 20 lb',
          unit: 'case of 10 reams',
          unitPriceCents: 4999,
          quantity: 1,
        },
      ],
      shippingAddress: {
        locationId: defaultLocation.id,
        locationName: 'Smile Dental Portland',
        line1: '100 Main St',
        line2: 'Suite 200',
        city: 'Portland',
        state: 'Oregon',
        zip: '97201',
      },
      // 124.90 + 49.99 = 174.89: Oregon has no sales tax, and over $150 ships free.
      subtotalCents: 17_489,
      taxCents: 0,
      shippingCents: 0,
      totalCents: 17_489,
      salesTax: { calculationId: expect.stringMatching(/^taxcalc_/), exempt: false },
      paymentMethod: 'invoice',
      status: 'pending',
      createdAt: clock.now().toISOString(),
      updatedAt: clock.now().toISOString(),
      sequence: 1,
      statusHistory: [{ status: 'pending', sequence: 1, at: clock.now().toISOString() }],
    });
    expect(await orders.get(order.id)).toEqual(order);
    expect(orders.events.map((event) => event.event)).toEqual(['order.created']);
    expect((await cartService.view(profile.id)).lines).toEqual([]);
  });

  it('ships to the location asked for, taxed for its state', async () => {
    const { cartService, orderService, profile, organization, partner, california } = await anOrderingWorld();
    await cartService.add(profile.id, 'GLV-NIT-M-100', 2);
    const order = await orderService.placeOrder({ partner, profile, organization, shippingLocationId: california.id });
    expect(order.shippingAddress).toEqual({
      locationId: california.id,
      locationName: 'Smile Dental San Jose',
      line1: '1 Market St',
      city: 'San Jose',
      state: 'California',
      zip: '95113',
    });
    // Stripe Tax's rate for the address (the test's table: 8.625 %): 24.98 × 8.625% = 2.154525 -> 2.15; plus 9.95 shipping.
    expect([order.subtotalCents, order.taxCents, order.shippingCents, order.totalCents]).toEqual([
      2498, 215, 995, 3708,
    ]);
  });

  it("keeps the order's prices when the catalog changes later", async () => {
    const { cartService, orderService, catalog, profile, organization, partner } = await anOrderingWorld();
    await cartService.add(profile.id, 'GLV-NIT-M-100', 1);
    const order = await orderService.placeOrder({ partner, profile, organization });
    const gloves = (await catalog.get(['GLV-NIT-M-100' as ProductId])).get('GLV-NIT-M-100' as ProductId)!;
    await catalog.upsertMany([{ ...gloves, priceCents: 9999, name: 'Renamed' }]);
    expect(order.items[0]).toMatchObject({ unitPriceCents: 1249, name: 'Nitrile Exam Gloves, Powder-Free, Medium' });
  });

  it('refuses an empty cart, and writes nothing', async () => {
    const { orderService, orders, profile, organization, partner } = await anOrderingWorld();
    await expect(orderService.placeOrder({ partner, profile, organization })).rejects.toThrow(EmptyCart);
    expect(orders.orders.size).toBe(0);
    expect(orders.events).toEqual([]);
  });

  it('places one order when the same cart is submitted twice at once', async () => {
    const { cartService, orderService, orders, profile, organization, partner } = await anOrderingWorld();
    await cartService.add(profile.id, 'GLV-NIT-M-100', 2);

    const results = await Promise.allSettled([
      orderService.placeOrder({ partner, profile, organization }),
      orderService.placeOrder({ partner, profile, organization }),
    ]);

    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: expect.any(ConcurrentModification) });
    expect(orders.orders.size).toBe(1);
    expect(orders.events).toHaveLength(1);
  });

  it('places nothing when the cart changes between pricing and writing', async () => {
    const { cartService, orderService, orders, carts, profile, organization, partner } = await anOrderingWorld();
    await cartService.add(profile.id, 'GLV-NIT-M-100', 2);
    const read = carts.get.bind(carts);
    carts.get = async (id) => {
      carts.get = read;
      const cart = await read(id);
      await cartService.changeQuantity(profile.id, 'GLV-NIT-M-100', 5);
      return cart;
    };

    await expect(orderService.placeOrder({ partner, profile, organization })).rejects.toThrow(ConcurrentModification);
    expect(orders.orders.size).toBe(0);
    expect((await cartService.view(profile.id)).lines).toMatchObject([{ quantity: 5 }]);
  });

  it('orders explicit items without reading or emptying the cart', async () => {
    const { cartService, orderService, profile, organization, partner } = await anOrderingWorld();
    await cartService.add(profile.id, 'PPR-LTR-5000', 1);

    const order = await orderService.placeOrder({
      partner,
      profile,
      organization,
      items: [{ productId: 'GLV-NIT-M-100' as ProductId, quantity: 3 }],
    });

    expect(order.items).toMatchObject([{ productId: 'GLV-NIT-M-100', quantity: 3 }]);
    expect((await cartService.view(profile.id)).lines).toMatchObject([
      { product: { productId: 'PPR-LTR-5000' }, quantity: 1 },
    ]);
  });

  it('refuses a cart holding products no longer sold, naming them, and keeps the cart', async () => {
    const { cartService, orderService, catalog, orders, profile, organization, partner } = await anOrderingWorld();
    await cartService.add(profile.id, 'GLV-NIT-M-100', 1);
    await cartService.add(profile.id, 'SPR-DIS-24OZ', 1);
    const spray = (await catalog.get(['SPR-DIS-24OZ' as ProductId])).get('SPR-DIS-24OZ' as ProductId)!;
    await catalog.upsertMany([{ ...spray, active: false }]);
    const placing = orderService.placeOrder({ partner, profile, organization });
    await expect(placing).rejects.toThrow(ProductUnavailable);
    await expect(placing).rejects.toMatchObject({ productIds: ['SPR-DIS-24OZ'] });
    expect(orders.orders.size).toBe(0);
    expect((await cartService.view(profile.id)).lines).toHaveLength(1);
    expect((await cartService.view(profile.id)).unavailable).toHaveLength(1);
  });

  it('ships only to an active location of the organization', async () => {
    const world = await anOrderingWorld();
    const { cartService, orderService, orders, profile, organization, partner, california, defaultLocation } = world;
    await cartService.add(profile.id, 'GLV-NIT-M-100', 1);
    const withLocations = (locations: typeof organization.locations) => ({ ...organization, locations });

    const unknown = orderService.placeOrder({ partner, profile, organization, shippingLocationId: randomUUID() });
    await expect(unknown).rejects.toThrow(ShippingLocationUnavailable);
    const inactive = withLocations([defaultLocation, { ...california, isActive: false }]);
    await expect(
      orderService.placeOrder({ partner, profile, organization: inactive, shippingLocationId: california.id }),
    ).rejects.toThrow(ShippingLocationUnavailable);
    const noDefault = withLocations([{ ...defaultLocation, isDefault: false }, california]);
    await expect(orderService.placeOrder({ partner, profile, organization: noDefault })).rejects.toThrow(
      'no active default shipping location',
    );
    const inactiveDefault = withLocations([{ ...defaultLocation, isActive: false }, california]);
    await expect(orderService.placeOrder({ partner, profile, organization: inactiveDefault })).rejects.toThrow(
      ShippingLocationUnavailable,
    );
    const otherOrganizations = anOrganization(partner.id);
    await expect(
      orderService.placeOrder({
        partner,
        profile,
        organization,
        shippingLocationId: otherOrganizations.defaultLocation.id,
      }),
    ).rejects.toThrow(ShippingLocationUnavailable);
    expect(orders.orders.size).toBe(0);
  });

  it("refuses a profile outside the organization and another partner's organization", async () => {
    const { cartService, orderService, profile, organization, partner } = await anOrderingWorld();
    await cartService.add(profile.id, 'GLV-NIT-M-100', 1);
    const sibling = anOrganization(partner.id);
    await expect(orderService.placeOrder({ partner, profile, organization: sibling.organization })).rejects.toThrow(
      Forbidden,
    );
    await expect(
      orderService.placeOrder({ partner: { id: randomUUID() as PartnerId }, profile, organization }),
    ).rejects.toThrow(Forbidden);
  });
});

describe('changing an order', () => {
  async function aPlacedOrder() {
    const world = await anOrderingWorld();
    await world.cartService.add(world.profile.id, 'GLV-NIT-M-100', 2);
    const order = await world.orderService.placeOrder(world);
    return { ...world, order, partnerScope: { partnerId: world.partner.id } };
  }

  it('writes the changed order with its event, within the partner or the organization', async () => {
    const { orderService, orders, order, partnerScope, organization, clock } = await aPlacedOrder();
    clock.advance(60_000);
    const confirmed = await orderService.transition(order.id, 'confirm', {}, partnerScope);
    expect(confirmed).toMatchObject({ status: 'confirmed', sequence: 2, confirmedAt: clock.now().toISOString() });
    const cancelled = await orderService.transition(
      order.id,
      'cancel',
      { reason: 'No longer needed' },
      { ...partnerScope, organizationId: organization.organization.id },
    );
    expect(cancelled).toMatchObject({ status: 'cancelled', sequence: 3, cancellation: { reason: 'No longer needed' } });
    expect(await orders.get(order.id)).toEqual(cancelled);
    expect(orders.events.map((event) => event.event)).toEqual(['order.created', 'order.confirmed', 'order.cancelled']);
  });

  it('refuses a change the status does not allow, and writes nothing', async () => {
    const { orderService, orders, order, partnerScope } = await aPlacedOrder();
    const ship = {
      tracking_number: 'T1',
      carrier: 'UPS',
      tracking_url: 'https://ups.com/t/T1',
      estimated_delivery: '2036-11-25T00:00:00Z',
    };
    await expect(orderService.transition(order.id, 'ship', ship, partnerScope)).rejects.toThrow(InvalidOrderTransition);
    await expect(orderService.transition(order.id, 'refund', {}, partnerScope)).rejects.toThrow(InvalidOrderTransition);
    expect(await orders.get(order.id)).toEqual(order);
    expect(orders.events).toHaveLength(1);
  });

  it('validates the input before anything else', async () => {
    const { orderService, order, partnerScope } = await aPlacedOrder();
    await expect(orderService.transition(order.id, 'ship', { carrier: 'UPS' }, partnerScope)).rejects.toThrow(
      ValidationFailed,
    );
    await expect(orderService.transition(order.id, 'explode', {}, partnerScope)).rejects.toThrow(ValidationFailed);
  });

  it("answers Forbidden for another partner's order and not found for another organization's or an unknown one", async () => {
    const { orderService, orders, order, partnerScope } = await aPlacedOrder();
    await expect(
      orderService.transition(order.id, 'confirm', {}, { partnerId: randomUUID() as PartnerId }),
    ).rejects.toThrow(Forbidden);
    await expect(
      orderService.transition(
        order.id,
        'confirm',
        {},
        { ...partnerScope, organizationId: randomUUID() as OrganizationId },
      ),
    ).rejects.toThrow(OrderNotFound);
    await expect(orderService.transition(randomUUID(), 'confirm', {}, partnerScope)).rejects.toThrow(OrderNotFound);
    await expect(orderService.get('not-an-order-id', partnerScope)).rejects.toThrow(OrderNotFound);
    expect(orders.events).toHaveLength(1);
  });

  it('re-reads and re-applies a change that lost a race, and refuses it if the winner made it invalid', async () => {
    const { orderService, orders, order, partnerScope } = await aPlacedOrder();
    let racing = true;
    orders.beforeTransition = async () => {
      if (!racing) return;
      racing = false;
      await orderService.transition(order.id, 'cancel', { reason: 'Changed our mind' }, partnerScope);
    };
    await expect(orderService.transition(order.id, 'confirm', {}, partnerScope)).rejects.toThrow(
      InvalidOrderTransition,
    );
    expect((await orders.get(order.id))?.status).toBe('cancelled');
    expect(orders.events.map((event) => event.event)).toEqual(['order.created', 'order.cancelled']);
  });

  it('succeeds on a later try when the winner left the change valid', async () => {
    const { orders, carts, catalog, clock, order, partnerScope } = await aPlacedOrder();
    const service = new OrderService({ orders, carts, catalog, clock, maxAttempts: 2 });
    let lost = 0;
    const stored = await orders.get(order.id);
    orders.beforeTransition = () => {
      // Another writer changed something that leaves the order pending (a bumped sequence), once.
      if (lost++ === 0 && stored) orders.orders.set(order.id, { ...stored, sequence: stored.sequence + 1 });
    };
    const confirmed = await service.transition(order.id, 'confirm', {}, partnerScope);
    expect(confirmed.sequence).toBe(3);
    expect(lost).toBe(2);
  });

  it('gives up with ConcurrentModification after losing every try', async () => {
    const { orders, carts, catalog, clock, order, partnerScope } = await aPlacedOrder();
    const service = new OrderService({ orders, carts, catalog, clock, maxAttempts: 3 });
    let tries = 0;
    orders.beforeTransition = () => {
      tries += 1;
      const stored = orders.orders.get(order.id)!;
      orders.orders.set(order.id, { ...stored, sequence: stored.sequence + 1 });
    };
    await expect(service.transition(order.id, 'confirm', {}, partnerScope)).rejects.toThrow(ConcurrentModification);
    expect(tries).toBe(3);
    expect(orders.events).toHaveLength(1);
  });
});

describe('listing orders', () => {
  it("lists an organization's orders newest first, a page at a time", async () => {
    const world = await anOrderingWorld();
    const { cartService, orderService, profile, organization, partner, clock } = world;
    const placed = [];
    for (let index = 0; index < 5; index += 1) {
      await cartService.add(profile.id, 'GLV-NIT-M-100', index + 1);
      placed.push(await orderService.placeOrder(world));
      clock.advance(1000);
    }
    const scope = { partnerId: partner.id, organizationId: organization.organization.id };
    const first = await orderService.listForOrganization(organization.organization, scope, { limit: 2 });
    const second = await orderService.listForOrganization(organization.organization, scope, {
      limit: 2,
      cursor: first.nextCursor!,
    });
    const third = await orderService.listForOrganization(organization.organization, scope, {
      limit: 2,
      cursor: second.nextCursor!,
    });
    expect([...first.orders, ...second.orders, ...third.orders].map((order) => order.id)).toEqual(
      placed.reverse().map((order) => order.id),
    );
    expect(third.nextCursor).toBeUndefined();

    const other = anOrganization(partner.id);
    expect(
      (await orderService.listForOrganization(other.organization.organization, { partnerId: partner.id })).orders,
    ).toEqual([]);
    await expect(
      orderService.listForOrganization(organization.organization, { partnerId: randomUUID() as PartnerId }),
    ).rejects.toThrow(Forbidden);
    await expect(
      orderService.listForOrganization(organization.organization, {
        partnerId: partner.id,
        organizationId: other.organization.organization.id,
      }),
    ).rejects.toThrow(Forbidden);
    await expect(orderService.listForOrganization(organization.organization, scope, { limit: 101 })).rejects.toThrow(
      ValidationFailed,
    );
    await expect(
      orderService.listForOrganization(organization.organization, scope, { cursor: 'garbage' }),
    ).rejects.toThrow(ValidationFailed);
  });
});
