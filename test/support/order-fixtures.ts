import { randomUUID } from 'node:crypto';
import type { Address } from '../../functions/domain/addresses/address';
import { parseCatalogImport } from '../../functions/domain/catalog/catalog-import';
import { SEED_CATALOG } from '../../functions/domain/catalog/seed-catalog';
import { CartService } from '../../functions/domain/orders/cart-service';
import { OrderService } from '../../functions/domain/orders/order-service';
import type {
  OrganizationAggregate,
  OrganizationId,
  Profile,
  ProfileId,
  ShippingLocation,
  ShippingLocationId,
} from '../../functions/domain/organizations/organization';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { InMemoryCartRepository, InMemoryCatalogRepository, InMemoryOrderRepository } from './in-memory-orders';
import { ManualClock } from './manual-clock';
import { RateTableSalesTax } from './fakes/rate-table-sales-tax';
import { SalesTaxQuotes } from '../../functions/domain/tax/sales-tax-quotes';

const address = (overrides: Partial<Address> = {}): Address => ({
  line1: '100 Main St',
  city: 'Portland',
  province: 'Oregon',
  postalCode: '97201',
  country: 'United States',
  ...overrides,
});

const aLocation = (organizationId: OrganizationId, overrides: Partial<ShippingLocation> = {}): ShippingLocation => ({
  id: randomUUID() as ShippingLocationId,
  organizationId,
  internalShippingLocationId: `loc-${randomUUID().slice(0, 8)}`,
  name: 'Main office',
  address: address(),
  isDefault: false,
  isActive: true,
  createdAt: '2036-01-01T00:00:00.000Z',
  ...overrides,
});

/** A partner's organization with one user and two locations: the default in Oregon (no sales tax), another in California. */
export function anOrganization(partnerId: PartnerId = randomUUID() as PartnerId) {
  const organizationId = randomUUID() as OrganizationId;
  const internalOrgId = `org-${randomUUID().slice(0, 8)}`;
  const profile: Profile = {
    id: randomUUID() as ProfileId,
    partnerId,
    organizationId,
    internalOrgId,
    internalUserId: 'u-1',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@smile-dental.test',
    createdAt: '2036-01-01T00:00:00.000Z',
  };
  const defaultLocation = aLocation(organizationId, {
    name: 'Smile Dental Portland',
    address: address({ line2: 'Suite 200' }),
    isDefault: true,
  });
  const california = aLocation(organizationId, {
    name: 'Smile Dental San Jose',
    address: address({ line1: '1 Market St', city: 'San Jose', province: 'California', postalCode: '95113' }),
  });
  const aggregate: OrganizationAggregate = {
    organization: {
      id: organizationId,
      partnerId,
      internalOrgId,
      name: 'Smile Dental',
      paymentCustomerId: 'cus_test',
      createdAt: '2036-01-01T00:00:00.000Z',
    },
    profiles: [profile],
    locations: [defaultLocation, california],
  };
  return { partner: { id: partnerId }, profile, organization: aggregate, defaultLocation, california };
}

/** Services over in-memory ports, the seed catalog loaded, a test clock. */
export async function anOrderingWorld() {
  const clock = new ManualClock();
  const catalog = new InMemoryCatalogRepository();
  const carts = new InMemoryCartRepository();
  const orders = new InMemoryOrderRepository(carts);
  const seed = parseCatalogImport(SEED_CATALOG);
  if (!seed.ok) throw new Error('the seed catalog is invalid');
  await catalog.upsertMany(seed.products);
  const cartService = new CartService({ carts, catalog, clock });
  const taxProvider = new RateTableSalesTax();
  const salesTax = new SalesTaxQuotes({ provider: taxProvider, memory: carts, clock });
  const orderService = new OrderService({ orders, carts, catalog, clock, salesTax });
  return { clock, catalog, carts, orders, cartService, orderService, taxProvider, salesTax, ...anOrganization() };
}
