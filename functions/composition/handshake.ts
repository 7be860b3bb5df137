import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws/dynamodb-client';
import { DynamoIdentityDirectory } from '../adapters/dynamodb/identity-directory';
import { DynamoOrganizationRepository } from '../adapters/dynamodb/organization-repository';
import { DynamoSessionRepository } from '../adapters/dynamodb/session-repository';
import { Handshake } from '../domain/sessions/handshake';
import { type ApiDependencies, composeApiAccess } from './api-access';
import { type BaseDependencies, createBase, tablesOf } from './base';
import { lambdaRoot } from './lambda-root';

export interface HandshakeDependencies extends ApiDependencies {
  readonly handshake: Handshake;
}

export function composeHandshake(base: BaseDependencies, db: DynamoDBDocumentClient): HandshakeDependencies {
  const table = tablesOf(base.config);
  return {
    ...composeApiAccess(base, db),
    handshake: new Handshake(
      new DynamoOrganizationRepository(db, table('organizations'), table('identityUsers')),
      new DynamoIdentityDirectory(db, table('identityUsers')),
      new DynamoSessionRepository(db, table('sessions')),
      base.clock,
    ),
  };
}

export const handshakeFromEnvironment = lambdaRoot((config) => composeHandshake(createBase(config), createDocumentClient()));
