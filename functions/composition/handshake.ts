import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws/dynamodb-client';
import { Handshake } from '../domain/sessions/handshake';
import { type ApiDependencies, composeApiAccess } from './api-access';
import { type BaseDependencies, createBase } from './base';
import { lambdaRoot } from './lambda-root';
import { DynamoRepositories } from './repositories';

export interface HandshakeDependencies extends ApiDependencies {
  readonly handshake: Handshake;
}

export function composeHandshake(base: BaseDependencies, db: DynamoDBDocumentClient): HandshakeDependencies {
  const repositories = new DynamoRepositories(base.config, db);
  return {
    ...composeApiAccess(base, repositories),
    handshake: new Handshake(repositories.organizations(), repositories.sessions(), base.clock),
  };
}

export const handshakeFromEnvironment = lambdaRoot((config) => composeHandshake(createBase(config), createDocumentClient()));
