import { describe, expect, it } from 'vitest';
import {
  ConcurrentModification,
  Forbidden,
  OrganizationAlreadyExists,
  SetupContention,
  UserAlreadyExists,
} from '../../functions/domain/errors';

describe('the error family', () => {
  it('names each failure by a literal that survives minification, as the logs show it', () => {
    expect(new Forbidden('no').name).toBe('Forbidden');
    expect(new ConcurrentModification('changed').name).toBe('ConcurrentModification');
    expect(new SetupContention('lost').name).toBe('SetupContention');
    expect(String(new UserAlreadyExists('p', 'a@example.com'))).toBe(
      'UserAlreadyExists: A profile with this internalUserId already exists in the organization',
    );
  });

  it('keeps the failure it was raised from as its cause', () => {
    const awsFailure = Object.assign(new Error('Transaction cancelled'), { name: 'TransactionCanceledException' });
    const raised = new OrganizationAlreadyExists('acme', { cause: awsFailure });
    expect(raised.cause).toBe(awsFailure);
  });
});
