import type { PartnerId } from '../../domain/partners/partner';

/**
 * Which endpoints are busy enough for a lag metric of their own (`DeliveryLag` with a
 * `partner` dimension, docs/operations.md): one per endpoint would cost a custom metric per
 * partner, so only an endpoint this dispatcher process delivered `threshold` times within
 * the current minute gets one. Kept per process (a Lambda container lives for many
 * batches): a busy endpoint is seen busy by every container that serves it.
 */
export class EndpointVolume {
  private minute = -1;
  private readonly counts = new Map<PartnerId, number>();

  constructor(private readonly threshold: number) {}

  /** Counts one delivery to the endpoint; true once it reached the threshold this minute. */
  busy(partnerId: PartnerId, at: Date): boolean {
    const minute = Math.floor(at.getTime() / 60_000);
    if (minute !== this.minute) {
      this.minute = minute;
      this.counts.clear();
    }
    const count = (this.counts.get(partnerId) ?? 0) + 1;
    this.counts.set(partnerId, count);
    return count >= this.threshold;
  }
}

/** Deliveries a minute (one a second) from which an endpoint's lag is published on its own. */
export const BUSY_ENDPOINT_DELIVERIES_PER_MINUTE = 60;
