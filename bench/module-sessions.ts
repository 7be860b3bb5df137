/**
 * Live embedded sessions for the module page workload, opened as a user's browser opens
 * them: a handshake token for the profile, redeemed once by the embed host's use case.
 */
import type { BenchOrganization, BenchStack } from './bench-stack';
import { inParallel } from './util';
import type { BenchSession } from './workloads';

export function openModuleSessions(
  bench: BenchStack,
  organizations: readonly BenchOrganization[],
): Promise<BenchSession[]> {
  const { handshake } = bench.stack.deps.functions.handshake;
  const { embeddedSessions } = bench.stack.deps.functions.embed;
  return inParallel(organizations, 8, async ({ partner, profileId }) => {
    const issued = await handshake.open(partner.partnerId, { by: 'profile_id', profileId });
    const opened = await embeddedSessions.redeem(partner.partnerId, issued.sessionKey);
    return { partner, cookieValue: opened.cookieValue };
  });
}
