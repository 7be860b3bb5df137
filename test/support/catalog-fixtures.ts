/** Catalog products for tests: a pack of gauze at $30 unless the test says otherwise. */
import type { Product, ProductId } from '../../functions/domain/catalog/product';
import type { Cents } from '../../functions/domain/money';

/** Pictures are not what these tests are about: every product names the same stored one. */
const PICTURE = `${'0'.repeat(64)}.svg`;

export const aProduct = (productId: string, overrides: Partial<Omit<Product, 'productId'>> = {}): Product => ({
  productId: productId as ProductId,
  name: 'Gauze Sponges',
  description: '4x4',
  category: 'Clinical',
  priceCents: 3000 as Cents,
  unit: 'pack of 200',
  active: true,
  image: PICTURE,
  ...overrides,
});
