/**
 * The `stripe` SDK's request bodies: `application/x-www-form-urlencoded` with bracketed
 * keys (`metadata[orderId]=…`, `lines[0][price_data][unit_amount]=…`), read back into
 * nested objects and arrays. Values stay strings, as Stripe receives them.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };

export function parseStripeForm(text: string): Record<string, FormValue> {
  const root: Record<string, FormValue> = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const [head = '', ...rest] = rawKey.split('[').map((part, index) => (index === 0 ? part : part.replace(/]$/, '')));
    const path = [head, ...rest];
    let node: Record<string, FormValue> | FormValue[] = root;
    path.forEach((segment, index) => {
      const last = index === path.length - 1;
      const container = node as Record<string, FormValue>;
      const key = segment === '' && Array.isArray(node) ? String(node.length) : segment;
      if (last) {
        container[key] = value;
        return;
      }
      const nextIsIndex = /^\d*$/.test(path[index + 1] ?? '');
      container[key] ??= nextIsIndex ? [] : {};
      node = container[key] as Record<string, FormValue> | FormValue[];
    });
  }
  return root;
}

export const text = (value: FormValue | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

export const integer = (value: FormValue | undefined): number | undefined => {
  const raw = text(value);
  return raw !== undefined && /^-?\d+$/.test(raw) ? Number(raw) : undefined;
};

export const list = (value: FormValue | undefined): FormValue[] =>
  Array.isArray(value) ? value : typeof value === 'object' ? Object.values(value) : [];

export const record = (value: FormValue | undefined): Record<string, string> => {
  if (typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, inner]) => (typeof inner === 'string' ? [[key, inner]] : [])),
  );
};
