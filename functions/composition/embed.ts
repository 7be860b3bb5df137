import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws/dynamodb-client';
import type { PartnerRepository } from '../domain/partners/partner-repository';
import { EmbeddedSessions } from '../domain/sessions/embedded-sessions';
import { bundledEmbedBrowserScripts, type EmbedBrowserScripts } from '../http/embed-browser-scripts';
import { type BaseDependencies, createBase } from './base';
import { type CommerceDependencies, composeCommerce } from './commerce';
import { lambdaRoot } from './lambda-root';
import { DynamoRepositories } from './repositories';

export interface EmbedDependencies extends BaseDependencies, CommerceDependencies {
  /** For the partner's allowed frame ancestors. */
  readonly partners: PartnerRepository;
  readonly embeddedSessions: EmbeddedSessions;
  /** The SDK and the module bridge: compiled into the Lambda bundle, built by the local runtime. */
  readonly browserScripts: EmbedBrowserScripts | undefined;
}

export function composeEmbed(base: BaseDependencies, db: DynamoDBDocumentClient, browserScripts = bundledEmbedBrowserScripts()): EmbedDependencies {
  const repositories = new DynamoRepositories(base.config, db);
  return {
    ...base,
    ...composeCommerce(base, repositories),
    partners: repositories.partners(),
    embeddedSessions: new EmbeddedSessions(repositories.organizations(), repositories.identity(), repositories.sessions(), base.clock, {
      idleMs: base.config.EMBED_SESSION_IDLE_S * 1000,
    }),
    browserScripts,
  };
}

export const embedFromEnvironment = lambdaRoot((config) => composeEmbed(createBase(config), createDocumentClient()));
