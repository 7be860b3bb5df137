import { ArnFormat, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct, type IConstruct } from 'constructs';
import { webhookSecretName } from '../../../functions/resources/resource-definitions';
import type { EnvironmentConfig } from '../../../functions/resources/stages';

export interface SecretsProps {
  readonly config: EnvironmentConfig;
}

/** The stage's secrets: the Stripe key the stack owns and the per-partner webhook signing secrets the operator CLI creates. */
export class Secrets extends Construct {
  /** Placeholder value at creation; operators put the real (sandbox: test-mode) key. */
  readonly stripeSecret: Secret;
  /** Stripe's endpoint secret for `POST /v1/stripe/events`: a placeholder until operators put the `whsec_…` Stripe shows. */
  readonly stripeWebhookSecret: Secret;
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
    this.stripeWebhookSecret = new Secret(this, 'StripeWebhookSecret', {
      secretName: config.stripeWebhookSecretName,
      description: `Stripe endpoint secret (whsec_) of POST /v1/stripe/events for ${config.stage}; the generated value is a placeholder operators replace`,
      generateSecretString: { passwordLength: 32, excludePunctuation: true },
      removalPolicy: config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    for (const secret of [this.stripeSecret, this.stripeWebhookSecret]) {
      Validations.of(secret).acknowledge({
        id: 'AwsSolutions::AwsSolutions-SMG4',
        reason:
          'Stripe keys and endpoint secrets are rolled in the Stripe dashboard, not by a Lambda; operators then put the new value (docs/operations.md)',
      });
    }
  }

  /** Read access to every partner's webhook signing secret of this stage, and nothing else in Secrets Manager. */
  grantWebhookSecretsRead(grantee: IGrantable & IConstruct): void {
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
    Validations.of(grantee).acknowledge({
      id: `AwsSolutions::AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:${webhookSecretName(this.config.resourcePrefix, '*')}]`,
      reason:
        "One signing secret per partner, created by the operator CLI after deploy: the wildcard is limited to this stage's webhook-secrets/ path",
    });
  }
}
