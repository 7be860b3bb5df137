import { ArnFormat, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { webhookSecretName } from '../../../functions/resources/resource-definitions';
import type { EnvironmentConfig } from '../../../functions/resources/stages';

export interface SecretsProps {
  readonly config: EnvironmentConfig;
}

/** The stage's secrets: the Stripe key the stack owns and the per-partner webhook signing secrets the operator CLI creates. */
export class Secrets extends Construct {
  /** Placeholder value at creation; operators put the real (sandbox: test-mode) key. */
  readonly stripeSecret: Secret;
  private readonly config: EnvironmentConfig;

  constructor(scope: Construct, id: string, { config }: SecretsProps) {
    super(scope, id);
    this.config = config;
    this.stripeSecret = new Secret(this, 'StripeSecretKey', {
      secretName: config.stripeSecretName,
      description: `Stripe secret key for ${config.stage}; the generated value is a placeholder operators replace`,
      generateSecretString: { passwordLength: 32, excludePunctuation: true },
      removalPolicy: config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
  }

  /** Read access to every partner's webhook signing secret of this stage, and nothing else in Secrets Manager. */
  grantWebhookSecretsRead(grantee: IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'],
        resources: [
          Stack.of(this).formatArn({
            service: 'secretsmanager',
            resource: 'secret',
            resourceName: webhookSecretName(this.config.resourcePrefix, '*'),
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        ],
      }),
    );
  }
}
