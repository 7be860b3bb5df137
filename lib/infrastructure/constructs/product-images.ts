import { RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct, type IConstruct } from 'constructs';
import { productImagesBucketName } from '../../../functions/resources/resource-definitions';
import type { EnvironmentConfig } from '../../../functions/resources/stages';

export interface ProductImagesProps {
  readonly config: EnvironmentConfig;
}

/**
 * The stage's product pictures: a private, encrypted, SSL-only bucket. Browsers never
 * reach it; the embed function reads it and serves each picture from the embed origin
 * (docs/module.md), and the operator CLI's catalog import writes it.
 */
export class ProductImages extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, { config }: ProductImagesProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      bucketName: productImagesBucketName(config.resourcePrefix),
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions::AwsSolutions-S1',
      reason:
        'Catalog pictures, written only by the operator CLI and read only by the embed function (whose requests the embed API access log records); nothing in it is confidential',
    });
  }

  /** `s3:GetObject` on the pictures and nothing else: the embed function serves them. */
  grantReadPictures(grantee: IGrantable & IConstruct): void {
    const pictures = this.bucket.arnForObjects('products/*');
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['s3:GetObject'], resources: [pictures] }),
    );
    const bucketLogicalId = Stack.of(this).resolve((this.bucket.node.defaultChild as CfnBucket).logicalId) as string;
    Validations.of(grantee).acknowledge({
      id: `AwsSolutions::AwsSolutions-IAM5[Resource::<${bucketLogicalId}.Arn>/products/*]`,
      reason:
        "Pictures are stored under content keys the import makes; the wildcard covers only the products/ prefix of this stage's picture bucket, read-only",
    });
  }
}
