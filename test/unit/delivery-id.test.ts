import { describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { deliveryIdFor } from '../../functions/webhooks/delivery-id';

const PARTNER = '0f6c2b8e-3f5e-4a59-9a43-0d9b3c1e2f10' as PartnerId;
const OTHER_PARTNER = '7d1e0c55-0a57-4c1e-9d36-2f0c1f6e8a11' as PartnerId;

describe('the delivery id a partner receives as webhook-id', () => {
  it('is the same for the same partner and event, so it is known before the fan-out runs', () => {
    expect(deliveryIdFor(PARTNER, 'evt_1')).toBe(deliveryIdFor(PARTNER, 'evt_1'));
  });

  it('differs for another event or another partner', () => {
    const ids = new Set([
      deliveryIdFor(PARTNER, 'evt_1'),
      deliveryIdFor(PARTNER, 'evt_2'),
      deliveryIdFor(OTHER_PARTNER, 'evt_1'),
    ]);
    expect(ids.size).toBe(3);
  });

  it('is a lower-case RFC 9562 version 8 UUID, never equal to a random version 4 id', () => {
    expect(deliveryIdFor(PARTNER, 'evt_1')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
