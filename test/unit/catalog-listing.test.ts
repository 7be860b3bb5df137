import { describe, expect, it } from 'vitest';
import { toProductRecord } from '../../functions/domain/catalog/product';
import { anOrderingWorld } from '../support/order-fixtures';

describe('catalog listing', () => {
  it('lists active products by category name, then name', async () => {
    const { catalog } = await anOrderingWorld();
    const products = await catalog.listActive();
    expect(products.every((product) => product.active)).toBe(true);
    expect(products.map((product) => product.productId)).not.toContain('ABT-TIP-3W-250');
    expect(products[0]?.category).toBe('Breakroom');
    expect(products.at(-1)?.category).toBe('Office Supplies');
    const gloves = products.filter((product) => product.category === 'Gloves & PPE').map((product) => product.name);
    expect(gloves).toEqual([...gloves].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('filters by category and by every word of a search, in any case', async () => {
    const { catalog } = await anOrderingWorld();
    expect((await catalog.listActive({ category: 'Breakroom' })).map((product) => product.category)).toEqual(
      Array(8).fill('Breakroom'),
    );
    expect(await catalog.listActive({ category: 'breakroom' })).toEqual([]);
    expect((await catalog.listActive({ search: 'NITRILE large' })).map((product) => product.productId)).toEqual([
      'GLV-NIT-L-100',
    ]);
    expect((await catalog.listActive({ search: 'glv-nit' })).map((product) => product.productId)).toHaveLength(3);
    expect(await catalog.listActive({ category: 'Office Supplies', search: 'nitrile' })).toEqual([]);
    expect(await catalog.listActive({ search: '   ' })).toHaveLength(39);
  });

  it('shows products to operators in dollars, with their category name', async () => {
    const { catalog } = await anOrderingWorld();
    const [first] = await catalog.listActive({ search: 'GLV-NIT-M-100' });
    expect(toProductRecord(first!)).toMatchObject({
      product_id: 'GLV-NIT-M-100',
      price: 12.49,
      category: 'Gloves & PPE',
    });
  });
});
