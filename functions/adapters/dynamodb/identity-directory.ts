import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { IdentityDirectory, IdentityUser } from '../../domain/identity/identity-user';
import type { UserId } from '../../domain/organizations/organization';

export const identityKeys = {
  user: (userId: string) => ({ pk: `USER#${userId}`, sk: '#USER' }),
};

/** The identity users table; users are written by the organization repository's setup transactions. */
export class DynamoIdentityDirectory implements IdentityDirectory {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async getUser(userId: UserId): Promise<IdentityUser | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: identityKeys.user(userId) }));
    if (!Item) return undefined;
    const { pk: _pk, sk: _sk, ...user } = Item;
    return user as IdentityUser;
  }
}
