import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws/dynamodb-client';
import { DynamoIdentityDirectory } from '../adapters/dynamodb/identity-directory';
import { DynamoOrganizationRepository } from '../adapters/dynamodb/organization-repository';
import { DynamoPartnerRepository } from '../adapters/dynamodb/partner-repository';
import { DynamoSessionRepository } from '../adapters/dynamodb/session-repository';
import type { PartnerRepository } from '../domain/partners/partner-repository';
import { EmbeddedSessions } from '../domain/sessions/embedded-sessions';
import { type BaseDependencies, createBase, tablesOf } from './base';
import { type CommerceDependencies, composeCommerce } from './commerce';
import { lambdaRoot } from './lambda-root';

export interface EmbedDependencies extends BaseDependencies, CommerceDependencies {
  /** For the partner's allowed frame ancestors. */
  readonly partners: PartnerRepository;
  readonly embeddedSessions: EmbeddedSessions;
}

export function composeEmbed(base: BaseDependencies, db: DynamoDBDocumentClient): EmbedDependencies {
  const table = tablesOf(base.config);
  return {
    ...base,
    ...composeCommerce(base, db),
    partners: new DynamoPartnerRepository(db, table('partners')),
    embeddedSessions: new EmbeddedSessions(
      new DynamoOrganizationRepository(db, table('organizations'), table('identityUsers')),
      new DynamoIdentityDirectory(db, table('identityUsers')),
      new DynamoSessionRepository(db, table('sessions')),
      base.clock,
    ),
  };
}

export const embedFromEnvironment = lambdaRoot((config) => composeEmbed(createBase(config), createDocumentClient()));
