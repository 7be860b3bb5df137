import { GetObjectCommand, NoSuchKey, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  contentTypeOf,
  type ProductImageKey,
  type ProductImageStore,
  type StoredProductImage,
} from '../domain/catalog/product-image';

/** Where the pictures live in the bucket: one prefix, so the bucket can hold other things later. */
const objectKey = (key: ProductImageKey): string => `products/${key}`;

/** Product pictures in the stack's private bucket (fauxqs's S3 locally). */
export class S3ProductImageStore implements ProductImageStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async put(key: ProductImageKey, bytes: Uint8Array): Promise<void> {
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: objectKey(key),
        Body: bytes,
        ContentType: contentTypeOf(key),
        CacheControl: 'public, max-age=31536000, immutable',
      }),
    );
  }

  async get(key: ProductImageKey): Promise<StoredProductImage | undefined> {
    try {
      const object = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: objectKey(key) }));
      if (!object.Body) return undefined;
      return { bytes: await object.Body.transformToByteArray() };
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
  }
}
