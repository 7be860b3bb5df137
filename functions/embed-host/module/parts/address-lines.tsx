import type { VNode } from 'preact';
import type { Address } from '../../../domain/addresses/address';

/** An address as its lines, one under the other. */
export const AddressLines = ({
  address,
}: {
  address: Pick<Address, 'line1' | 'line2' | 'city' | 'province' | 'postalCode'>;
}): VNode => (
  <>
    {[address.line1, address.line2, `${address.city}, ${address.province} ${address.postalCode}`]
      .filter((part): part is string => Boolean(part))
      .map((part, i) => (
        <>
          {i > 0 && <br />}
          {part}
        </>
      ))}
  </>
);
