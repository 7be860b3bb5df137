/**
 * The Stripe product tax code of each catalog category (docs/billing.md, "Product tax
 * codes"). Categories are data (catalog/categories.ts), so a category missing here is
 * taxed as general tangible goods, the code Stripe applies the standard rate to; a
 * product whose taxability differs from its category's (a nontaxable item, a specific
 * medical code) carries its own `tax_code` in the catalog file, which wins.
 */
const GENERAL_TANGIBLE_GOODS = 'txcd_99999999';
/** Stripe's code for a separately stated shipping charge. */
export const SHIPPING_TAX_CODE = 'txcd_92010001';

const CATEGORY_TAX_CODES: Readonly<Record<string, string>> = {
  'Gloves & PPE': GENERAL_TANGIBLE_GOODS,
  'Clinical Disposables': GENERAL_TANGIBLE_GOODS,
  'Cleaning & Disinfection': GENERAL_TANGIBLE_GOODS,
  'Office Supplies': GENERAL_TANGIBLE_GOODS,
  Breakroom: GENERAL_TANGIBLE_GOODS,
};

/** A product's tax code: its own, else its category's, else general tangible goods. */
export const productTaxCode = (product: { readonly category: string; readonly taxCode?: string }): string =>
  product.taxCode ??
  (Object.hasOwn(CATEGORY_TAX_CODES, product.category) ? CATEGORY_TAX_CODES[product.category] : undefined) ??
  GENERAL_TANGIBLE_GOODS;
