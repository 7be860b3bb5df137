/**
 * Example approval requests for the partner API document: one request at each outcome,
 * consistent with each other and with the example order (the approved request placed
 * it), so a reader can follow one request through the reference. Each must validate
 * against `ApprovalRequestBody` (test/api-docs checks).
 */
import { EXAMPLE_ORDER_ID } from '../orders/order-examples';
import type { ApprovalRequestBody } from './response';

export const EXAMPLE_APPROVAL_REQUEST_ID = '3d9a7c1e-8f2b-4a65-b0d4-6e1f2a3b4c5d';
const SUBMITTED_AT = '2035-12-31T16:00:00.000Z';
const DECIDED_AT = '2036-01-01T00:00:00.000Z';

export const PENDING_APPROVAL_REQUEST: ApprovalRequestBody = {
  id: EXAMPLE_APPROVAL_REQUEST_ID,
  object: 'approval_request',
  status: 'pending',
  partner_org_id: 'acme-1',
  internal_user_id: 'u-1',
  user_email: 'ada@acme.test',
  po_number: 'PO-2036-0042',
  notes: 'Deliver to the back entrance, please.',
  items: [
    { product_id: 'GLV-NIT-M-100', name: 'Nitrile Exam Gloves, Medium', unit: 'box of 100', quantity: 2, price: 12.49 },
  ],
  subtotal: 24.98,
  tax: 1.56,
  shipping: 9.95,
  total: 36.49,
  shipping_address: { line1: '1 Main St', line2: 'Suite 100', city: 'Austin', state: 'Texas', zip: '78701' },
  created_at: SUBMITTED_AT,
  expires_at: '2036-01-07T16:00:00.000Z',
  decided_at: null,
  decided_by: null,
  limit_reason: 'order_limit',
  reason: null,
  comment: null,
  order_id: null,
};

const APPROVER = { internal_user_id: 'u-2', email: 'grace@acme.test' };

export const APPROVED_APPROVAL_REQUEST: ApprovalRequestBody = {
  ...PENDING_APPROVAL_REQUEST,
  status: 'approved',
  decided_at: DECIDED_AT,
  decided_by: APPROVER,
  comment: 'Approved for the flu season.',
  order_id: EXAMPLE_ORDER_ID,
};

export const REJECTED_APPROVAL_REQUEST: ApprovalRequestBody = {
  ...PENDING_APPROVAL_REQUEST,
  status: 'rejected',
  decided_at: DECIDED_AT,
  decided_by: APPROVER,
  reason: 'We have gloves in stock; order them next month.',
};

export const EXPIRED_APPROVAL_REQUEST: ApprovalRequestBody = {
  ...PENDING_APPROVAL_REQUEST,
  status: 'expired',
  decided_at: PENDING_APPROVAL_REQUEST.expires_at,
};
