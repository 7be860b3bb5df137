import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws/dynamodb-client';
import { Handshake } from '../domain/sessions/handshake';
import { type ApiDependencies, composeApiAccess } from './api-access';
import { type BaseDependencies, createLambdaBase } from './base';
import { lambdaRoot } from './lambda-root';
import { type DynamoTables, organizationRepository, sessionRepository } from './repositories';

export interface HandshakeDependencies extends ApiDependencies {
  readonly handshake: Handshake;
}

export function composeHandshake(base: BaseDependencies, db: DynamoDBDocumentClient): HandshakeDependencies {
  const tables: DynamoTables = { config: base.config, db };
  return {
    ...composeApiAccess(base, tables),
    handshake: new Handshake(organizationRepository(tables), sessionRepository(tables), base.clock, base.metrics),
  };
}

export const handshakeFromEnvironment = lambdaRoot((config) =>
  composeHandshake(createLambdaBase(config), createDocumentClient()),
);
