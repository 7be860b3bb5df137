/**
 * The service as the benchmark runs it: the stand-ins in memory, the local stack on a
 * free port with its queue pollers off (the dispatcher benchmark drives the consumer
 * itself), and a pool of partners with organizations and profiles, provisioned through
 * the real setup use case.
 */
import { randomUUID } from 'node:crypto';
import type { PartnerId } from '../functions/domain/partners/partner';
import { powertoolsMetrics } from '../functions/adapters/observability/powertools-metrics';
import { jsonLinesLogger } from '../functions/domain/logger';
import { METRICS_NAMESPACE } from '../functions/resources/resource-definitions';
import { SetupRequest } from '../functions/domain/organizations/setup-request';
import { type LocalStack, startLocalStack } from '../lib/local-runtime/local-stack';
import { type StandIns, startStandIns } from '../lib/local-runtime/stand-ins';
import { openLocalLog } from '../lib/local-runtime/local-log';
import { join } from 'node:path';
import { inParallel } from './util';

export interface BenchPartner {
  readonly partnerId: PartnerId;
  readonly apiKey: string;
}

/** An existing organization with one profile, owned by `partner`. */
export interface BenchOrganization {
  readonly partner: BenchPartner;
  readonly internalOrgId: string;
  readonly profileId: string;
}

export interface BenchStack {
  readonly standIns: StandIns;
  readonly stack: LocalStack;
  readonly resourcePrefix: string;
  readonly partners: readonly BenchPartner[];
  /** Organizations the load runs use (handshake profiles, setup of a further user). */
  readonly organizations: readonly BenchOrganization[];
  /** Fresh organizations of the same shape, for the capacity measurement (half service, half baseline). */
  readonly capacityOrganizations: readonly BenchOrganization[];
  close(): Promise<void>;
}

export interface BenchStackOptions {
  /** Enough partners that no one exceeds 100 setups or 300 handshakes a minute. */
  readonly partners: number;
  readonly organizationsPerPartner: number;
  readonly capacityOrganizations: number;
  /**
   * Run the stack as `npm start` does (bin/local.ts): data kept in `dataDir` (DynamoDB Local on
   * disk, the stream's position), queue and stream pollers on, every log and EMF metrics line
   * appended to a file there. Absent: in memory, pollers off, lines built and dropped.
   */
  readonly asNpmStart?: { readonly dataDir: string };
}

/** The one location every organization starts with; setup requests for existing organizations repeat it. */
export const MAIN_LOCATION = {
  internalShippingLocationId: 'loc-main',
  name: 'Main office',
  address: { line1: '100 Congress Ave', city: 'Austin', province: 'TX', postalCode: '78701' },
  isDefault: true,
};

export const userFields = (id: string) => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: `ada.${id}@acme.example.com`,
});

export async function startBenchStack(options: BenchStackOptions): Promise<BenchStack> {
  const dataDir = options.asNpmStart?.dataDir;
  const standIns = await startStandIns(dataDir ? { dataDir } : {});
  const resourcePrefix = `bench${randomUUID().slice(0, 6)}`;
  const localLog = dataDir ? openLocalLog(join(dataDir, 'logs', 'service.jsonl')) : undefined;
  let stack: LocalStack;
  try {
    stack = await startLocalStack({
      standIns,
      resourcePrefix,
      port: 0,
      queuePollers: dataDir !== undefined,
      ...(dataDir ? { dataDir } : {}),
      // The real JSON-lines logger and EMF metrics (every line is still built and serialized), writing nowhere unless as npm start.
      logger: localLog?.logger ?? jsonLinesLogger(() => undefined),
      metrics: powertoolsMetrics({
        namespace: METRICS_NAMESPACE,
        service: resourcePrefix,
        write: localLog?.append ?? (() => undefined),
      }),
    });
  } catch (error) {
    await standIns.close();
    await localLog?.close();
    throw error;
  }
  const { deps } = stack;

  const partners = await inParallel(
    Array.from({ length: options.partners }, (_, i) => i),
    8,
    async (i) => {
      const created = await deps.partnerAdmin.createPartner({
        name: `Bench Partner ${i}`,
        alertEmail: `ops${i}@partner.example.com`,
      });
      return { partnerId: created.partnerId, apiKey: created.apiKey };
    },
  );

  const organization = async (partner: BenchPartner): Promise<BenchOrganization> => {
    const id = randomUUID().slice(0, 8);
    const result = await deps.functions.setup.organizationSetup.setup(
      partner.partnerId,
      SetupRequest.parse({
        internalOrgId: `org-${id}`,
        organizationName: 'Acme Dental',
        internalUserId: `user-${id}`,
        user: userFields(id),
        shippingLocations: [MAIN_LOCATION],
      }),
    );
    return { partner, internalOrgId: result.organization.internalOrgId, profileId: result.profile.id };
  };
  const owners = (count: number) =>
    Array.from({ length: count }, (_, i) => partners[i % partners.length] as BenchPartner);
  const organizations = await inParallel(owners(options.partners * options.organizationsPerPartner), 8, organization);
  const capacityOrganizations = await inParallel(owners(options.capacityOrganizations), 8, organization);

  return {
    standIns,
    stack,
    resourcePrefix,
    partners,
    organizations,
    capacityOrganizations,
    close: async () => {
      await stack.close();
      await standIns.close();
      await localLog?.close();
    },
  };
}
