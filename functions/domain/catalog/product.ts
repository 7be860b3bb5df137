/**
 * A catalog product. Partners and operators see it in snake_case with a dollar `price`
 * (`ProductRecord`: import files, the partner API); inside it is camelCase with integer
 * cents (`Product`).
 */
// zod/mini: the module and the partner API parse and print products on their hot paths.
import * as z from 'zod/mini';
import { documented } from '../documented-rules';
import { type Cents, fromCents, parseCents } from '../money';
import { requiredField, requiredText, rule } from '../validation';
import { CategoryName } from './categories';

export type ProductId = string & { readonly __brand: 'ProductId' };

/**
 * SKU: 1-64 of letters (either case), digits, `-`, `_`, `.`. Matched exactly: `abc-1` and
 * `ABC-1` are two products, as partners' own systems name them.
 */
// `.` and `..` alone are no ids: as a path segment (a product's page) they would mean a directory.
const PRODUCT_ID = /^(?!\.\.?$)[A-Za-z0-9._-]{1,64}$/;
const SKU_CHARACTERS = /^[A-Za-z0-9._-]*$/;

export const isProductId = (value: string): value is ProductId => PRODUCT_ID.test(value);

/** The most one unit may cost; anything above is a typo (cents typed as dollars). */
const MAX_PRICE_CENTS: Cents = 10_000_000;

export const ProductIdInput = documented(
  z.pipe(
    requiredText(64).check(
      // Blank and length are reported on their own (REQUIRED, TOO_LONG).
      z.refine((value: string) => SKU_CHARACTERS.test(value) && value !== '.' && value !== '..', {
        message: 'must be 1-64 characters of letters, digits, "-", "_" or "." (not "." or ".." alone)',
        params: { code: 'INVALID_FORMAT' },
      }),
    ),
    z.transform((value: string) => value as ProductId),
  ),
  {
    pattern: PRODUCT_ID.source,
    description:
      'A SKU: 1-64 of letters (either case, matched exactly), digits, `-`, `_`, `.`, not `.` or `..` alone. The server trims surrounding whitespace; the document does not allow it.',
  },
);

const PriceInput = z.pipe(
  z.number({ error: requiredField }).check(
    // `z.positive()` would report "must be at least 0" for a zero price.
    z.refine((value: number) => value > 0, { message: 'must be greater than 0', params: { code: 'TOO_SMALL' } }),
    z.lte(fromCents(MAX_PRICE_CENTS)),
    z.refine(
      (value: number) => parseCents(value) !== undefined,
      rule('INVALID_AMOUNT', 'must be a USD amount with at most two decimals'),
    ),
  ),
  z.transform((value: number): Cents => parseCents(value) as Cents),
);

/** One product as an import file row and as the partner API shows it. Unknown fields are refused: they are typos. */
const ProductRecord = z.strictObject(
  {
    product_id: ProductIdInput,
    name: requiredText(),
    description: requiredText(2000),
    category: CategoryName,
    price: PriceInput,
    unit: requiredText(64),
    active: z.boolean({ error: requiredField }),
    /**
     * In an import file, the picture's path relative to the file (the importer stores it and
     * puts its key here); as the catalog lists it, that key (`ProductImageKey`).
     */
    image: requiredText(512),
    /** The product's own Stripe product tax code, when its taxability differs from its category's (product-tax-codes.ts). */
    tax_code: z.optional(
      z
        .string()
        .check(z.regex(/^txcd_\d{8}$/, rule('INVALID_TAX_CODE', 'must be a Stripe tax code (txcd_ and 8 digits)'))),
    ),
  },
  { error: requiredField },
);

export const ProductInput = z.pipe(
  ProductRecord,
  z.transform((record): Product => ({
    productId: record.product_id,
    name: record.name,
    description: record.description,
    category: record.category,
    priceCents: record.price,
    unit: record.unit,
    active: record.active,
    image: record.image,
    ...(record.tax_code === undefined ? {} : { taxCode: record.tax_code }),
  })),
);

/** A product as written (price in dollars), e.g. a row of an import file or the seed catalog. */
export type ProductRecordInput = z.input<typeof ProductRecord>;

export interface Product {
  readonly productId: ProductId;
  readonly name: string;
  readonly description: string;
  /** A name people read ("Gloves & PPE"), defined by the import: categories are data. */
  readonly category: string;
  readonly priceCents: Cents;
  /** What one of `quantity` is, e.g. "box of 100". */
  readonly unit: string;
  /** Inactive products stay readable (orders name them) but cannot be added to a cart. */
  readonly active: boolean;
  /**
   * The picture: its key in the product image store (`<sha256>.<ext>`, product-image.ts).
   * Straight out of `parseCatalogImport` it is still the import row's file path, until the
   * importer (catalog-image-import.ts) has stored the file.
   */
  readonly image: string;
  /** Its own Stripe product tax code; its category's when absent (domain/tax/product-tax-codes.ts). */
  readonly taxCode?: string;
}

/** The edge form of a product (snake_case, dollars), as partners and operators see it. */
export const toProductRecord = (product: Product) => ({
  product_id: product.productId,
  name: product.name,
  description: product.description,
  category: product.category,
  price: fromCents(product.priceCents),
  unit: product.unit,
  active: product.active,
  image: product.image,
  ...(product.taxCode === undefined ? {} : { tax_code: product.taxCode }),
});
