import { describe, expect, it } from 'vitest';
import {
  ApprovalNotPending,
  ApprovalRequired,
  EmbedAccessDenied,
  EmptyCart,
  ProfileNotFound,
  RequestForgeryRefused,
  SelfApprovalForbidden,
  ValidationFailed,
} from '../../functions/domain/errors';
import { apiOutcome, hostOutcome, moduleOutcome } from '../../functions/error-outcomes';
import { apiRoute } from '../../functions/routes';
import { modulePaths } from '../../functions/embed-host/module/module-paths';

const setup = apiRoute('setup').errors;
const handshake = apiRoute('handshake').errors;
const orders = apiRoute('order-list').errors;
const places = modulePaths('0f6c2f4e-0000-4000-8000-000000000000');

describe('what each failure becomes', () => {
  it('an empty cart is 400 EMPTY_CART on the API and a 409 page in the module', () => {
    expect(apiOutcome(new EmptyCart(), orders)).toMatchObject({ status: 400, body: { code: 'EMPTY_CART' } });
    expect(moduleOutcome(new EmptyCart(), places)).toMatchObject({ status: 409, title: 'Your cart is empty' });
  });

  it('takes the shape of the route’s row: the general body, or the handshake’s own', () => {
    const missing = new ProfileNotFound('No such profile');
    expect(apiOutcome(missing, orders).body).toEqual({
      error: 'Not Found',
      message: 'No such profile',
      code: 'PROFILE_NOT_FOUND',
      details: [],
    });
    expect(apiOutcome(missing, handshake).body).toEqual({ error: 'Profile not found', details: 'No such profile' });
    expect(apiOutcome(new ValidationFailed([]), handshake)).toMatchObject({
      status: 400,
      body: { error: 'Invalid request body' },
    });
  });

  it('answers anything unknown with the route’s 500 body, never the failure’s message', () => {
    const secret = new Error('connect ECONNREFUSED 10.0.0.7 with sk_live_abc');
    expect(apiOutcome(secret, setup)).toEqual({
      status: 500,
      body: {
        error: 'Internal Server Error',
        message: 'Setup failed; retry with exponential backoff',
        code: 'SETUP_ERROR',
        details: [],
      },
    });
    expect(apiOutcome(secret, orders).body).toMatchObject({ code: 'INTERNAL_ERROR' });
    expect(apiOutcome(secret, handshake).body).toEqual({
      error: 'Failed to create authentication session',
      details: 'The session could not be created; retry with exponential backoff',
    });
    // A failure with no answer in the route's shape is the route's 500 too.
    expect(apiOutcome(new EmptyCart(), handshake).status).toBe(500);
    expect(JSON.stringify(apiOutcome(secret, orders))).not.toContain('ECONNREFUSED');
  });

  it('leaves failures that are not the module’s to the embed host, and never says which forgery check refused', () => {
    expect(moduleOutcome(new Error('boom'), places)).toBeUndefined();
    expect(moduleOutcome(new RequestForgeryRefused('wrong-token'), places)?.message).not.toContain('token');
  });

  it('tells the second of two deciders what the first did, and sends an order above the limit back to checkout', () => {
    const id = '7d0c3a8e-0000-4000-8000-000000000000';
    expect(moduleOutcome(new ApprovalNotPending(id, 'approved', 'Grace Hopper'), places)).toMatchObject({
      status: 409,
      title: 'Already approved',
      message: expect.stringContaining('Grace Hopper approved this request first'),
      links: [{ href: places.approval(id), primary: true }],
    });
    expect(apiOutcome(new ApprovalNotPending(id, 'withdrawn'), orders)).toMatchObject({
      status: 409,
      body: { code: 'APPROVAL_NOT_PENDING', data: { approval_request_id: id, status: 'withdrawn' } },
    });
    expect(moduleOutcome(new SelfApprovalForbidden(id), places)).toMatchObject({
      status: 403,
      title: 'This is your own request',
    });
    expect(moduleOutcome(new ApprovalRequired(12345, 5000), places)).toMatchObject({
      status: 409,
      message: expect.stringContaining('$123.45'),
      links: [{ href: places.checkout }],
    });
    expect(apiOutcome(new ApprovalRequired(12345, 5000), orders).body).toMatchObject({
      code: 'APPROVAL_REQUIRED',
      data: { total: 123.45, order_limit: 50 },
    });
  });

  it('gives the embed host its own notices: one 401 for any unusable link or session, ending only a session, else its 500', () => {
    expect(hostOutcome(new EmbedAccessDenied('session', 'expired'))).toEqual({
      status: 401,
      page: 'session-ended',
      clearSession: true,
    });
    for (const refused of ['link', 'foreign-origin'] as const) {
      expect(hostOutcome(new EmbedAccessDenied(refused, 'no'))).toEqual({
        status: 401,
        page: 'link-unusable',
        clearSession: false,
      });
    }
    expect(hostOutcome(new Error('DynamoDB is down'))).toEqual({
      status: 500,
      page: 'unavailable',
      clearSession: false,
    });
    // A module failure is the module's page, never the host's notice.
    expect(moduleOutcome(new EmbedAccessDenied('session', 'expired'), places)).toBeUndefined();
  });
});
