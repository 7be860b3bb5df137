// Generated from docs/openapi.json by `npm run openapi`; do not edit.

export interface SetupRequest {
  internalOrgId: string;
  organizationName: string;
  internalUserId: string;
  user: {
    firstName: string;
    lastName: string;
    email: string;
    phoneNumber?: string;
    role?: "buyer" | "approver";
    orderLimit?: number;
    monthlyLimit?: number;
  };
  userAddress?: {
    line1: string;
    line2?: string;
    city: string;
    province: string;
    postalCode: string;
    country?: string;
  };
  shippingLocations?: Array<{
    internalShippingLocationId: string;
    name: string;
    nickname?: string;
    address: {
      line1: string;
      line2?: string;
      city: string;
      province: string;
      postalCode: string;
      country?: string;
    };
    contact?: {
      name?: string;
      phone?: string;
      email?: string;
    };
    isDefault?: boolean;
    deliveryInstructions?: string;
  }>;
  billingAddress?: {
    line1: string;
    line2?: string;
    city: string;
    province: string;
    postalCode: string;
    country?: string;
  };
  organizationEmail?: string;
  organizationPhone?: string;
  timeZone?: string;
  paymentTerms?: "net15" | "net30" | "net60";
  billingEmail?: string;
  taxExempt?: boolean;
}

export interface SetupResponse {
  success: true;
  data: {
    organization: {
      id: string;
      name: string;
      internalOrgId: string;
      paymentCustomerId: string;
      paymentTerms: "net15" | "net30" | "net60";
    };
    profile: {
      id: string;
      partner: string;
      organization: string;
      internal_user_id: string;
      user: string;
      first_name: string;
      last_name: string;
      email: string;
      phone_number?: string;
      created_at: string;
    };
    shippingLocations: Array<{
      id: string;
      name: string;
      nickname?: string;
      internalShippingLocationId: string;
      address: {
        line1: string;
        line2?: string;
        city: string;
        province: string;
        postalCode: string;
        country: string;
      };
      isDefault: boolean;
      isActive: boolean;
    }>;
    isNewOrganization: boolean;
  };
}

export interface SetupBadRequestError {
  error: "Validation Error";
  message: string;
  code: "VALIDATION_ERROR" | "IDEMPOTENCY_KEY_REUSED";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface UnauthorizedError {
  error: "Unauthorized";
  message: string;
  code: "UNAUTHORIZED";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface ForbiddenError {
  error: "Forbidden";
  message: string;
  code: "FORBIDDEN";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export type SetupConflictError = {
  error: "Conflict";
  message: string;
  code: "USER_ALREADY_EXISTS";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
  data: {
    profileId: string;
    email: string;
  };
} | {
  error: "Conflict";
  message: string;
  code: "IDEMPOTENCY_KEY_IN_USE";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
};

export interface RateLimitExceededError {
  error: "Too Many Requests";
  message: string;
  code: "RATE_LIMIT_EXCEEDED";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
  retry_after: number;
}

export interface SetupFailedError {
  error: "Internal Server Error";
  message: string;
  code: "SETUP_ERROR";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface HandshakeRequest {
  internal_user_id?: string;
  profile_id?: string;
  internal_org_id?: string;
}

export interface HandshakeResponse {
  success: true;
  session_key: string;
  iframe_embed_url: string;
  expires_at: string;
  profile: {
    id: string;
    first_name: string;
    last_name: string;
    email: string;
  };
}

export type HandshakeBadRequestError = {
  error: "Invalid request body";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
} | {
  error: "Profile not set up for authentication";
  details: string;
};

export interface ProfileNotFoundError {
  error: "Profile not found";
  details: string;
}

export interface HandshakeFailedError {
  error: "Failed to create authentication session";
  details: string;
}

export interface OrganizationResponse {
  success: true;
  data: {
    organization: {
      id: string;
      name: string;
      internalOrgId: string;
      paymentCustomerId: string;
      paymentTerms: "net15" | "net30" | "net60";
      billingEmail: string | null;
      organizationEmail: string | null;
      organizationPhone: string | null;
      billingAddress: {
        line1: string;
        line2?: string;
        city: string;
        province: string;
        postalCode: string;
        country: string;
      } | null;
      timeZone: string | null;
      taxExempt: boolean;
      createdAt: string;
    };
  };
}

export interface OrganizationNotFoundError {
  error: "Not Found";
  message: string;
  code: "ORGANIZATION_NOT_FOUND";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface InternalError {
  error: "Internal Server Error";
  message: string;
  code: "INTERNAL_ERROR";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface OrganizationUpdateRequest {
  organizationName?: string;
  organizationEmail?: string | null;
  organizationPhone?: string | null;
  billingAddress?: {
    line1: string;
    line2?: string;
    city: string;
    province: string;
    postalCode: string;
    country?: string;
  } | null;
  billingEmail?: string | null;
  paymentTerms?: "net15" | "net30" | "net60";
  timeZone?: string | null;
  taxExempt?: boolean;
}

export interface OrganizationChangeBadRequestError {
  error: "Validation Error";
  message: string;
  code: "VALIDATION_ERROR" | "IDEMPOTENCY_KEY_REUSED";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface IdempotencyKeyInUseError {
  error: "Conflict";
  message: string;
  code: "IDEMPOTENCY_KEY_IN_USE";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface StripeUnavailableError {
  error: "Service Unavailable";
  message: string;
  code: "STRIPE_UNAVAILABLE";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface OrganizationUserResponse {
  success: true;
  data: {
    profile: {
      id: string;
      partner: string;
      organization: string;
      internal_user_id: string;
      user: string;
      first_name: string;
      last_name: string;
      email: string;
      phone_number?: string;
      created_at: string;
      role: "buyer" | "approver";
      orderLimit: number | null;
      monthlyLimit: number | null;
      active: boolean;
    };
  };
}

export interface OrganizationUserNotFoundError {
  error: "Not Found";
  message: string;
  code: "ORGANIZATION_NOT_FOUND" | "PROFILE_NOT_FOUND";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface OrganizationUserUpdateRequest {
  user?: {
    firstName?: string;
    lastName?: string;
    email?: string;
    phoneNumber?: string | null;
  };
  role?: "buyer" | "approver";
  orderLimit?: number | null;
  monthlyLimit?: number | null;
  active?: boolean;
}

export interface ShippingLocationCreateRequest {
  internalShippingLocationId: string;
  name: string;
  nickname?: string;
  address: {
    line1: string;
    line2?: string;
    city: string;
    province: string;
    postalCode: string;
    country?: string;
  };
  contact?: {
    name?: string;
    phone?: string;
    email?: string;
  };
  isDefault?: boolean;
  deliveryInstructions?: string;
}

export interface ShippingLocationResponse {
  success: true;
  data: {
    shippingLocation: {
      id: string;
      name: string;
      nickname?: string;
      internalShippingLocationId: string;
      address: {
        line1: string;
        line2?: string;
        city: string;
        province: string;
        postalCode: string;
        country: string;
      };
      isDefault: boolean;
      isActive: boolean;
    };
  };
}

export interface ShippingLocationNotFoundError {
  error: "Not Found";
  message: string;
  code: "ORGANIZATION_NOT_FOUND" | "SHIPPING_LOCATION_NOT_FOUND";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface ShippingLocationCreateConflictError {
  error: "Conflict";
  message: string;
  code: "SHIPPING_LOCATION_ALREADY_EXISTS" | "IDEMPOTENCY_KEY_IN_USE";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface ShippingLocationUpdateRequest {
  name?: string;
  nickname?: string | null;
  address?: {
    line1: string;
    line2?: string;
    city: string;
    province: string;
    postalCode: string;
    country?: string;
  };
  contact?: {
    name?: string;
    phone?: string;
    email?: string;
  } | null;
  deliveryInstructions?: string | null;
  isDefault?: boolean;
  isActive?: boolean;
}

export interface ShippingLocationUpdateConflictError {
  error: "Conflict";
  message: string;
  code: "DEFAULT_LOCATION_INACTIVE" | "IDEMPOTENCY_KEY_IN_USE";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface CatalogProductList {
  data: Array<{
    product_id: string;
    name: string;
    description: string;
    category: string;
    price: number;
    unit: string;
    image_url: string;
  }>;
  has_more: boolean;
}

export interface OrderList {
  data: Array<{
    id: string;
    status: "pending" | "confirmed" | "shipped" | "delivered" | "cancelled" | "refunded";
    partner_org_id: string;
    internal_user_id: string;
    user_email: string;
    approved_by?: {
      internal_user_id: string;
      email: string;
    };
    po_number: string | null;
    notes: string | null;
    items: Array<{
      product_id: string;
      name: string;
      unit: string;
      quantity: number;
      price: number;
    }>;
    subtotal: number;
    tax: number;
    shipping: number;
    total: number;
    payment_method: "invoice";
    shipping_address: {
      line1: string;
      line2?: string;
      city: string;
      state: string;
      zip: string;
    };
    created_at: string;
    updated_at: string;
    status_history: Array<{
      status: "pending" | "confirmed" | "shipped" | "delivered" | "cancelled" | "refunded";
      at: string;
    }>;
    confirmed_at?: string;
    tracking_number?: string;
    carrier?: string;
    tracking_url?: string;
    estimated_delivery?: string;
    shipped_at?: string;
    delivered_at?: string;
    signature?: string;
    cancelled_at?: string;
    cancellation_reason?: string;
    refund_amount?: number;
    refunded_at?: string;
    refund_reason?: string;
    amount_refunded?: number;
    refunds?: Array<{
      amount: number;
      refunded_at: string;
      reason?: string;
    }>;
  }>;
  has_more: boolean;
}

export interface ValidationError {
  error: "Validation Error";
  message: string;
  code: "VALIDATION_ERROR";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface Order {
  id: string;
  status: "pending" | "confirmed" | "shipped" | "delivered" | "cancelled" | "refunded";
  partner_org_id: string;
  internal_user_id: string;
  user_email: string;
  approved_by?: {
    internal_user_id: string;
    email: string;
  };
  po_number: string | null;
  notes: string | null;
  items: Array<{
    product_id: string;
    name: string;
    unit: string;
    quantity: number;
    price: number;
  }>;
  subtotal: number;
  tax: number;
  shipping: number;
  total: number;
  payment_method: "invoice";
  shipping_address: {
    line1: string;
    line2?: string;
    city: string;
    state: string;
    zip: string;
  };
  created_at: string;
  updated_at: string;
  status_history: Array<{
    status: "pending" | "confirmed" | "shipped" | "delivered" | "cancelled" | "refunded";
    at: string;
  }>;
  confirmed_at?: string;
  tracking_number?: string;
  carrier?: string;
  tracking_url?: string;
  estimated_delivery?: string;
  shipped_at?: string;
  delivered_at?: string;
  signature?: string;
  cancelled_at?: string;
  cancellation_reason?: string;
  refund_amount?: number;
  refunded_at?: string;
  refund_reason?: string;
  amount_refunded?: number;
  refunds?: Array<{
    amount: number;
    refunded_at: string;
    reason?: string;
  }>;
  invoice: {
    object: "invoice";
    id: string;
    order_id: string;
    partner_org_id: string;
    number: string;
    status: "open" | "paid" | "overdue" | "void" | "uncollectible";
    po_number: string | null;
    subtotal: number | null;
    tax: number | null;
    shipping: number | null;
    total: number;
    amount_due: number;
    amount_paid: number;
    amount_credited: number;
    lines: Array<{
      description: string;
      sku: string;
      quantity: number;
      unit_amount: number;
      amount: number;
    }> | null;
    due_date: string;
    paid_at: string | null;
    hosted_invoice_url: string;
    invoice_pdf: string;
    credit_notes: Array<{
      id: string;
      number: string | null;
      amount: number;
      created: string;
      reason: string | null;
      pdf: string | null;
    }>;
    created: string;
  } | null;
}

export interface OrderNotFoundError {
  error: "Not Found";
  message: string;
  code: "ORDER_NOT_FOUND";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface InvoiceList {
  data: Array<{
    object: "invoice";
    id: string;
    order_id: string;
    partner_org_id: string;
    number: string;
    status: "open" | "paid" | "overdue" | "void" | "uncollectible";
    po_number: string | null;
    subtotal: number | null;
    tax: number | null;
    shipping: number | null;
    total: number;
    amount_due: number;
    amount_paid: number;
    amount_credited: number;
    lines: Array<{
      description: string;
      sku: string;
      quantity: number;
      unit_amount: number;
      amount: number;
    }> | null;
    due_date: string;
    paid_at: string | null;
    hosted_invoice_url: string;
    invoice_pdf: string;
    credit_notes: Array<{
      id: string;
      number: string | null;
      amount: number;
      created: string;
      reason: string | null;
      pdf: string | null;
    }>;
    created: string;
  }>;
  has_more: boolean;
}

export interface Invoice {
  object: "invoice";
  id: string;
  order_id: string;
  partner_org_id: string;
  number: string;
  status: "open" | "paid" | "overdue" | "void" | "uncollectible";
  po_number: string | null;
  subtotal: number | null;
  tax: number | null;
  shipping: number | null;
  total: number;
  amount_due: number;
  amount_paid: number;
  amount_credited: number;
  lines: Array<{
    description: string;
    sku: string;
    quantity: number;
    unit_amount: number;
    amount: number;
  }> | null;
  due_date: string;
  paid_at: string | null;
  hosted_invoice_url: string;
  invoice_pdf: string;
  credit_notes: Array<{
    id: string;
    number: string | null;
    amount: number;
    created: string;
    reason: string | null;
    pdf: string | null;
  }>;
  created: string;
}

export interface InvoiceNotFoundError {
  error: "Not Found";
  message: string;
  code: "INVOICE_NOT_FOUND";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface SandboxOrderRequest {
  internal_user_id?: string;
  profile_id?: string;
  internal_org_id?: string;
  items: Array<{
    product_id: string;
    quantity: number;
  }>;
  internal_shipping_location_id?: string;
  po_number?: string;
  notes?: string;
}

export interface OrderChange {
  success: true;
  order: {
    id: string;
    status: "pending" | "confirmed" | "shipped" | "delivered" | "cancelled" | "refunded";
    partner_org_id: string;
    internal_user_id: string;
    user_email: string;
    approved_by?: {
      internal_user_id: string;
      email: string;
    };
    po_number: string | null;
    notes: string | null;
    items: Array<{
      product_id: string;
      name: string;
      unit: string;
      quantity: number;
      price: number;
    }>;
    subtotal: number;
    tax: number;
    shipping: number;
    total: number;
    payment_method: "invoice";
    shipping_address: {
      line1: string;
      line2?: string;
      city: string;
      state: string;
      zip: string;
    };
    created_at: string;
    updated_at: string;
    status_history: Array<{
      status: "pending" | "confirmed" | "shipped" | "delivered" | "cancelled" | "refunded";
      at: string;
    }>;
    confirmed_at?: string;
    tracking_number?: string;
    carrier?: string;
    tracking_url?: string;
    estimated_delivery?: string;
    shipped_at?: string;
    delivered_at?: string;
    signature?: string;
    cancelled_at?: string;
    cancellation_reason?: string;
    refund_amount?: number;
    refunded_at?: string;
    refund_reason?: string;
    amount_refunded?: number;
    refunds?: Array<{
      amount: number;
      refunded_at: string;
      reason?: string;
    }>;
  };
}

export interface ApprovalRequestChange {
  success: true;
  approval_request: {
    id: string;
    object: "approval_request";
    status: "pending" | "approved" | "rejected" | "expired" | "withdrawn";
    partner_org_id: string;
    internal_user_id: string;
    user_email: string;
    po_number: string | null;
    notes: string | null;
    items: Array<{
      product_id: string;
      name: string;
      unit: string;
      quantity: number;
      price: number;
    }>;
    subtotal: number;
    tax: number;
    shipping: number;
    total: number;
    shipping_address: {
      line1: string;
      line2?: string;
      city: string;
      state: string;
      zip: string;
    };
    created_at: string;
    expires_at: string;
    decided_at: string | null;
    decided_by: {
      internal_user_id: string;
      email: string;
    } | null;
    limit_reason: "order_limit" | "monthly_limit";
    reason: string | null;
    comment: string | null;
    order_id: string | null;
    resubmitted_from: string | null;
  };
}

export interface SandboxOrderBadRequestError {
  error: "Validation Error";
  message: string;
  code: "VALIDATION_ERROR" | "PRODUCT_UNAVAILABLE" | "SHIPPING_LOCATION_UNAVAILABLE" | "PROFILE_NOT_LINKED";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface OrderingProfileNotFoundError {
  error: "Not Found";
  message: string;
  code: "PROFILE_NOT_FOUND";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface SalesTaxUnavailableError {
  error: "Service Unavailable";
  message: string;
  code: "SALES_TAX_UNAVAILABLE";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export type ConfirmOrderRequest = Record<string, never>;

export type OrderTransitionConflictError = {
  error: "Conflict";
  message: string;
  code: "INVALID_ORDER_TRANSITION";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
  data: {
    order_id: string;
    status: "pending" | "confirmed" | "shipped" | "delivered" | "cancelled" | "refunded";
    requested_status: "pending" | "confirmed" | "shipped" | "delivered" | "cancelled" | "refunded";
  };
} | {
  error: "Conflict";
  message: string;
  code: "CONCURRENT_MODIFICATION";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
};

export interface ShipOrderRequest {
  tracking_number?: string;
  carrier?: string;
  tracking_url?: string;
  estimated_delivery?: string;
}

export interface DeliverOrderRequest {
  signature?: string;
}

export interface CancelOrderRequest {
  reason?: string;
}

export interface RefundOrderRequest {
  amount?: number;
  reason?: string;
}

export interface ApprovalRequestList {
  data: Array<{
    id: string;
    object: "approval_request";
    status: "pending" | "approved" | "rejected" | "expired" | "withdrawn";
    partner_org_id: string;
    internal_user_id: string;
    user_email: string;
    po_number: string | null;
    notes: string | null;
    items: Array<{
      product_id: string;
      name: string;
      unit: string;
      quantity: number;
      price: number;
    }>;
    subtotal: number;
    tax: number;
    shipping: number;
    total: number;
    shipping_address: {
      line1: string;
      line2?: string;
      city: string;
      state: string;
      zip: string;
    };
    created_at: string;
    expires_at: string;
    decided_at: string | null;
    decided_by: {
      internal_user_id: string;
      email: string;
    } | null;
    limit_reason: "order_limit" | "monthly_limit";
    reason: string | null;
    comment: string | null;
    order_id: string | null;
    resubmitted_from: string | null;
  }>;
  has_more: boolean;
}

export interface ApprovalRequest {
  id: string;
  object: "approval_request";
  status: "pending" | "approved" | "rejected" | "expired" | "withdrawn";
  partner_org_id: string;
  internal_user_id: string;
  user_email: string;
  po_number: string | null;
  notes: string | null;
  items: Array<{
    product_id: string;
    name: string;
    unit: string;
    quantity: number;
    price: number;
  }>;
  subtotal: number;
  tax: number;
  shipping: number;
  total: number;
  shipping_address: {
    line1: string;
    line2?: string;
    city: string;
    state: string;
    zip: string;
  };
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  decided_by: {
    internal_user_id: string;
    email: string;
  } | null;
  limit_reason: "order_limit" | "monthly_limit";
  reason: string | null;
  comment: string | null;
  order_id: string | null;
  resubmitted_from: string | null;
}

export interface ApprovalRequestNotFoundError {
  error: "Not Found";
  message: string;
  code: "APPROVAL_REQUEST_NOT_FOUND";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface SpendReport {
  object: "spend_report";
  internal_org_id: string;
  month: string;
  time_zone: string;
  order_count: number;
  total: number;
  complete: boolean;
  users: Array<{
    internal_user_id: string;
    name: string;
    total: number;
    order_limit: number | null;
    monthly_limit: number | null;
    remaining: number | null;
  }>;
  locations: Array<{
    internal_shipping_location_id: string;
    name: string;
    total: number;
  }>;
  categories: Array<{
    category: string;
    total: number;
  }>;
}

export interface Statement {
  object: "statement";
  internal_org_id: string;
  time_zone: string;
  as_of: string;
  total_due: number;
  overdue: {
    days_1_30: number;
    days_31_60: number;
    days_61_90: number;
    over_90: number;
  };
  invoices: Array<{
    object: "invoice";
    id: string;
    order_id: string;
    partner_org_id: string;
    number: string;
    status: "open" | "paid" | "overdue" | "void" | "uncollectible";
    po_number: string | null;
    subtotal: number | null;
    tax: number | null;
    shipping: number | null;
    total: number;
    amount_due: number;
    amount_paid: number;
    amount_credited: number;
    lines: Array<{
      description: string;
      sku: string;
      quantity: number;
      unit_amount: number;
      amount: number;
    }> | null;
    due_date: string;
    paid_at: string | null;
    hosted_invoice_url: string;
    invoice_pdf: string;
    credit_notes: Array<{
      id: string;
      number: string | null;
      amount: number;
      created: string;
      reason: string | null;
      pdf: string | null;
    }>;
    created: string;
  }>;
}

export interface SandboxApproveRequest {
  internal_user_id: string;
  comment?: string;
}

export interface SandboxDecisionBadRequestError {
  error: "Validation Error";
  message: string;
  code: "VALIDATION_ERROR" | "IDEMPOTENCY_KEY_REUSED" | "PROFILE_NOT_LINKED";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface SandboxDecisionForbiddenError {
  error: "Forbidden";
  message: string;
  code: "FORBIDDEN" | "APPROVAL_FORBIDDEN" | "SELF_APPROVAL_FORBIDDEN";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface SandboxDecisionNotFoundError {
  error: "Not Found";
  message: string;
  code: "APPROVAL_REQUEST_NOT_FOUND" | "PROFILE_NOT_FOUND";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export type ApproveConflictError = {
  error: "Conflict";
  message: string;
  code: "APPROVAL_NOT_PENDING";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
  data: {
    approval_request_id: string;
    status: "approved" | "rejected" | "expired" | "withdrawn";
  };
} | {
  error: "Conflict";
  message: string;
  code: "APPROVAL_CANNOT_BE_PLACED";
  details: Array<{
    code: "SHIPPING_LOCATION_UNAVAILABLE" | "REQUESTER_INACTIVE";
    message: string;
    path: string[];
  }>;
} | {
  error: "Conflict";
  message: string;
  code: "IDEMPOTENCY_KEY_IN_USE";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
} | {
  error: "Conflict";
  message: string;
  code: "CONCURRENT_MODIFICATION";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
};

export interface SandboxRejectRequest {
  internal_user_id: string;
  reason: string;
}

export type RejectConflictError = {
  error: "Conflict";
  message: string;
  code: "APPROVAL_NOT_PENDING";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
  data: {
    approval_request_id: string;
    status: "approved" | "rejected" | "expired" | "withdrawn";
  };
} | {
  error: "Conflict";
  message: string;
  code: "IDEMPOTENCY_KEY_IN_USE";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
} | {
  error: "Conflict";
  message: string;
  code: "CONCURRENT_MODIFICATION";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
};

export type SandboxInvoiceActionRequest = Record<string, never>;

export interface SandboxInvoiceAccepted {
  invoice_id: string;
  action: "pay" | "overdue";
  message: string;
}

export interface SandboxInvoiceBadRequestError {
  error: "Validation Error";
  message: string;
  code: "VALIDATION_ERROR" | "IDEMPOTENCY_KEY_REUSED";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface SandboxInvoiceConflictError {
  error: "Conflict";
  message: string;
  code: "INVOICE_NOT_OPEN" | "INVOICE_NOT_AT_STRIPE" | "IDEMPOTENCY_KEY_IN_USE";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface SandboxInvoiceUnsupportedError {
  error: "Not Implemented";
  message: string;
  code: "NOT_SUPPORTED_BY_PROVIDER";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface WebhookTestRequest {
  event: "order.created" | "order.confirmed" | "order.shipped" | "order.delivered" | "order.cancelled" | "order.refunded" | "approval.requested" | "approval.decided" | "invoice.issued" | "invoice.paid" | "invoice.overdue" | "invoice.credited";
}

export interface WebhookTestResponse {
  delivery_id: string;
}

export interface WebhookTestBadRequestError {
  error: "Validation Error";
  message: string;
  code: "VALIDATION_ERROR";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface WebhookTestConflictError {
  error: "Conflict";
  message: string;
  code: "WEBHOOK_ENDPOINT_NOT_CONFIGURED" | "WEBHOOK_EVENT_NOT_SUBSCRIBED";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface WebhookDeliveryList {
  data: Array<{
    id: string;
    event: "order.created" | "order.confirmed" | "order.shipped" | "order.delivered" | "order.cancelled" | "order.refunded" | "approval.requested" | "approval.decided" | "invoice.issued" | "invoice.paid" | "invoice.overdue" | "invoice.credited";
    order_id?: string;
    status: "pending" | "delivered" | "failed" | "cancelled";
    round: number;
    created_at: string;
    updated_at: string;
    next_attempt_at?: string;
    held_since?: string;
    last_attempt?: {
      attempted_at: string;
      round: number;
      attempt: number;
      succeeded: boolean;
      status_code?: number;
      error?: string;
      latency_ms: number;
    };
  }>;
  has_more: boolean;
}

export interface WebhookDelivery {
  id: string;
  event: "order.created" | "order.confirmed" | "order.shipped" | "order.delivered" | "order.cancelled" | "order.refunded" | "approval.requested" | "approval.decided" | "invoice.issued" | "invoice.paid" | "invoice.overdue" | "invoice.credited";
  order_id?: string;
  status: "pending" | "delivered" | "failed" | "cancelled";
  round: number;
  created_at: string;
  updated_at: string;
  next_attempt_at?: string;
  held_since?: string;
  last_attempt?: {
    attempted_at: string;
    round: number;
    attempt: number;
    succeeded: boolean;
    status_code?: number;
    error?: string;
    latency_ms: number;
  };
  attempts: Array<{
    attempted_at: string;
    round: number;
    attempt: number;
    succeeded: boolean;
    status_code?: number;
    error?: string;
    latency_ms: number;
  }>;
  body: string;
}

export interface DeliveryNotFoundError {
  error: "Not Found";
  message: string;
  code: "DELIVERY_NOT_FOUND";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface WebhookDeliveryRetryConflictError {
  error: "Conflict";
  message: string;
  code: "DELIVERY_IN_FLIGHT" | "WEBHOOK_ENDPOINT_NOT_CONFIGURED";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface WebhookEndpoint {
  url: string;
  events: Array<"order.created" | "order.confirmed" | "order.shipped" | "order.delivered" | "order.cancelled" | "order.refunded" | "approval.requested" | "approval.decided" | "invoice.issued" | "invoice.paid" | "invoice.overdue" | "invoice.credited">;
  status: "active" | "paused" | "disabled" | "circuit_open";
  status_reason?: string;
  status_since: string;
  circuit?: {
    state: "open" | "half_open" | "closed";
    since?: string;
  };
  failing_since?: string;
  throughput: {
    concurrency: number;
    max_concurrency: number;
    latency_baseline_ms?: number;
    slow_after_ms: number;
    max_rate_per_second?: number;
  };
  secret_rotated_at: string;
  created_at: string;
  updated_at: string;
}

export interface WebhookEndpointNotConfiguredError {
  error: "Not Found";
  message: string;
  code: "WEBHOOK_ENDPOINT_NOT_CONFIGURED";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface StripeEvent {
  id: string;
  object: "event";
  type: string;
  created: number;
  data: {
    object: Record<string, never>;
  };
}

export interface StripeEventReceived {
  received: true;
  outcome: "applied" | "duplicate" | "unchanged" | "ignored";
}

export interface StripeEventRefusedError {
  error: "Validation Error";
  message: string;
  code: "VALIDATION_ERROR";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface InvoiceNotRecordedYetError {
  error: "Service Unavailable";
  message: string;
  code: "INVOICE_NOT_RECORDED_YET";
  details: Array<{
    code: string;
    message: string;
    path: string[];
  }>;
}

export interface OrderCreatedEvent {
  event: "order.created";
  timestamp: string;
  data: {
    order_id: string;
    partner_org_id: string;
    internal_user_id?: string;
    sequence?: number;
    previous_status?: "pending" | "confirmed" | "shipped" | "delivered" | "cancelled" | "refunded" | null;
    po_number?: string | null;
    notes?: string | null;
    test?: true;
    user_email: string;
    approved_by?: {
      internal_user_id: string;
      email: string;
    };
    status: "pending";
    items: Array<{
      product_id: string;
      name: string;
      quantity: number;
      price: number;
    }>;
    subtotal: number;
    tax: number;
    shipping: number;
    total: number;
    payment_method: string;
    shipping_address: {
      line1: string;
      city: string;
      state: string;
      zip: string;
    };
    invoice: {
      object: "invoice";
      id: string;
      order_id: string;
      partner_org_id: string;
      number: string;
      status: "open" | "paid" | "overdue" | "void" | "uncollectible";
      po_number: string | null;
      subtotal: number | null;
      tax: number | null;
      shipping: number | null;
      total: number;
      amount_due: number;
      amount_paid: number;
      amount_credited: number;
      lines: Array<{
        description: string;
        sku: string;
        quantity: number;
        unit_amount: number;
        amount: number;
      }> | null;
      due_date: string;
      paid_at: string | null;
      hosted_invoice_url: string;
      invoice_pdf: string;
      credit_notes: Array<{
        id: string;
        number: string | null;
        amount: number;
        created: string;
        reason: string | null;
        pdf: string | null;
      }>;
      created: string;
    } | null;
  };
}

export interface OrderConfirmedEvent {
  event: "order.confirmed";
  timestamp: string;
  data: {
    order_id: string;
    partner_org_id: string;
    internal_user_id?: string;
    sequence?: number;
    previous_status?: "pending" | "confirmed" | "shipped" | "delivered" | "cancelled" | "refunded" | null;
    po_number?: string | null;
    notes?: string | null;
    test?: true;
    status: "confirmed";
    confirmed_at: string;
    invoice: {
      object: "invoice";
      id: string;
      order_id: string;
      partner_org_id: string;
      number: string;
      status: "open" | "paid" | "overdue" | "void" | "uncollectible";
      po_number: string | null;
      subtotal: number | null;
      tax: number | null;
      shipping: number | null;
      total: number;
      amount_due: number;
      amount_paid: number;
      amount_credited: number;
      lines: Array<{
        description: string;
        sku: string;
        quantity: number;
        unit_amount: number;
        amount: number;
      }> | null;
      due_date: string;
      paid_at: string | null;
      hosted_invoice_url: string;
      invoice_pdf: string;
      credit_notes: Array<{
        id: string;
        number: string | null;
        amount: number;
        created: string;
        reason: string | null;
        pdf: string | null;
      }>;
      created: string;
    } | null;
  };
}

export interface OrderShippedEvent {
  event: "order.shipped";
  timestamp: string;
  data: {
    order_id: string;
    partner_org_id: string;
    internal_user_id?: string;
    sequence?: number;
    previous_status?: "pending" | "confirmed" | "shipped" | "delivered" | "cancelled" | "refunded" | null;
    po_number?: string | null;
    notes?: string | null;
    test?: true;
    status: "shipped";
    tracking_number: string;
    carrier: string;
    tracking_url: string;
    estimated_delivery: string;
    shipped_at: string;
    items?: Array<{
      product_id: string;
      name: string;
      quantity: number;
      price: number;
    }>;
    total?: number;
    shipping_address?: {
      line1: string;
      city: string;
      state: string;
      zip: string;
    };
    invoice: {
      object: "invoice";
      id: string;
      order_id: string;
      partner_org_id: string;
      number: string;
      status: "open" | "paid" | "overdue" | "void" | "uncollectible";
      po_number: string | null;
      subtotal: number | null;
      tax: number | null;
      shipping: number | null;
      total: number;
      amount_due: number;
      amount_paid: number;
      amount_credited: number;
      lines: Array<{
        description: string;
        sku: string;
        quantity: number;
        unit_amount: number;
        amount: number;
      }> | null;
      due_date: string;
      paid_at: string | null;
      hosted_invoice_url: string;
      invoice_pdf: string;
      credit_notes: Array<{
        id: string;
        number: string | null;
        amount: number;
        created: string;
        reason: string | null;
        pdf: string | null;
      }>;
      created: string;
    } | null;
  };
}

export interface OrderDeliveredEvent {
  event: "order.delivered";
  timestamp: string;
  data: {
    order_id: string;
    partner_org_id: string;
    internal_user_id?: string;
    sequence?: number;
    previous_status?: "pending" | "confirmed" | "shipped" | "delivered" | "cancelled" | "refunded" | null;
    po_number?: string | null;
    notes?: string | null;
    test?: true;
    status: "delivered";
    delivered_at: string;
    signature: string;
    invoice: {
      object: "invoice";
      id: string;
      order_id: string;
      partner_org_id: string;
      number: string;
      status: "open" | "paid" | "overdue" | "void" | "uncollectible";
      po_number: string | null;
      subtotal: number | null;
      tax: number | null;
      shipping: number | null;
      total: number;
      amount_due: number;
      amount_paid: number;
      amount_credited: number;
      lines: Array<{
        description: string;
        sku: string;
        quantity: number;
        unit_amount: number;
        amount: number;
      }> | null;
      due_date: string;
      paid_at: string | null;
      hosted_invoice_url: string;
      invoice_pdf: string;
      credit_notes: Array<{
        id: string;
        number: string | null;
        amount: number;
        created: string;
        reason: string | null;
        pdf: string | null;
      }>;
      created: string;
    } | null;
  };
}

export interface OrderCancelledEvent {
  event: "order.cancelled";
  timestamp: string;
  data: {
    order_id: string;
    partner_org_id: string;
    internal_user_id?: string;
    sequence?: number;
    previous_status?: "pending" | "confirmed" | "shipped" | "delivered" | "cancelled" | "refunded" | null;
    po_number?: string | null;
    notes?: string | null;
    test?: true;
    status: "cancelled";
    cancelled_at: string;
    reason?: string;
    invoice: {
      object: "invoice";
      id: string;
      order_id: string;
      partner_org_id: string;
      number: string;
      status: "open" | "paid" | "overdue" | "void" | "uncollectible";
      po_number: string | null;
      subtotal: number | null;
      tax: number | null;
      shipping: number | null;
      total: number;
      amount_due: number;
      amount_paid: number;
      amount_credited: number;
      lines: Array<{
        description: string;
        sku: string;
        quantity: number;
        unit_amount: number;
        amount: number;
      }> | null;
      due_date: string;
      paid_at: string | null;
      hosted_invoice_url: string;
      invoice_pdf: string;
      credit_notes: Array<{
        id: string;
        number: string | null;
        amount: number;
        created: string;
        reason: string | null;
        pdf: string | null;
      }>;
      created: string;
    } | null;
  };
}

export interface OrderRefundedEvent {
  event: "order.refunded";
  timestamp: string;
  data: {
    order_id: string;
    partner_org_id: string;
    internal_user_id?: string;
    sequence?: number;
    previous_status?: "pending" | "confirmed" | "shipped" | "delivered" | "cancelled" | "refunded" | null;
    po_number?: string | null;
    notes?: string | null;
    test?: true;
    status: "refunded" | "delivered";
    refunded_at: string;
    refund_amount?: number;
    amount_refunded?: number;
    reason?: string;
    invoice: {
      object: "invoice";
      id: string;
      order_id: string;
      partner_org_id: string;
      number: string;
      status: "open" | "paid" | "overdue" | "void" | "uncollectible";
      po_number: string | null;
      subtotal: number | null;
      tax: number | null;
      shipping: number | null;
      total: number;
      amount_due: number;
      amount_paid: number;
      amount_credited: number;
      lines: Array<{
        description: string;
        sku: string;
        quantity: number;
        unit_amount: number;
        amount: number;
      }> | null;
      due_date: string;
      paid_at: string | null;
      hosted_invoice_url: string;
      invoice_pdf: string;
      credit_notes: Array<{
        id: string;
        number: string | null;
        amount: number;
        created: string;
        reason: string | null;
        pdf: string | null;
      }>;
      created: string;
    } | null;
  };
}

export interface ApprovalRequestedEvent {
  event: "approval.requested";
  timestamp: string;
  data: {
    approval_request_id: string;
    partner_org_id: string;
    test?: true;
    internal_user_id: string;
    user_email: string;
    items: Array<{
      product_id: string;
      name: string;
      quantity: number;
      price: number;
    }>;
    subtotal: number;
    tax: number;
    shipping: number;
    total: number;
    po_number: string | null;
    notes: string | null;
    limit_reason: "order_limit" | "monthly_limit";
    resubmitted_from: string | null;
    created_at: string;
    expires_at: string;
  };
}

export interface ApprovalDecidedEvent {
  event: "approval.decided";
  timestamp: string;
  data: {
    approval_request_id: string;
    partner_org_id: string;
    test?: true;
    decision: "approved" | "rejected" | "expired" | "withdrawn";
    decided_by?: {
      internal_user_id: string;
      email: string;
    };
    order_id?: string;
    reason?: string;
    comment?: string;
    decided_at: string;
  };
}

export interface InvoiceIssuedEvent {
  event: "invoice.issued";
  timestamp: string;
  data: {
    invoice: {
      object: "invoice";
      id: string;
      order_id: string;
      partner_org_id: string;
      number: string;
      status: "open" | "paid" | "overdue" | "void" | "uncollectible";
      po_number: string | null;
      subtotal: number | null;
      tax: number | null;
      shipping: number | null;
      total: number;
      amount_due: number;
      amount_paid: number;
      amount_credited: number;
      lines: Array<{
        description: string;
        sku: string;
        quantity: number;
        unit_amount: number;
        amount: number;
      }> | null;
      due_date: string;
      paid_at: string | null;
      hosted_invoice_url: string;
      invoice_pdf: string;
      credit_notes: Array<{
        id: string;
        number: string | null;
        amount: number;
        created: string;
        reason: string | null;
        pdf: string | null;
      }>;
      created: string;
    };
    order_id: string;
    partner_org_id: string;
    test?: true;
    issued_at: string;
  };
}

export interface InvoicePaidEvent {
  event: "invoice.paid";
  timestamp: string;
  data: {
    invoice: {
      object: "invoice";
      id: string;
      order_id: string;
      partner_org_id: string;
      number: string;
      status: "open" | "paid" | "overdue" | "void" | "uncollectible";
      po_number: string | null;
      subtotal: number | null;
      tax: number | null;
      shipping: number | null;
      total: number;
      amount_due: number;
      amount_paid: number;
      amount_credited: number;
      lines: Array<{
        description: string;
        sku: string;
        quantity: number;
        unit_amount: number;
        amount: number;
      }> | null;
      due_date: string;
      paid_at: string | null;
      hosted_invoice_url: string;
      invoice_pdf: string;
      credit_notes: Array<{
        id: string;
        number: string | null;
        amount: number;
        created: string;
        reason: string | null;
        pdf: string | null;
      }>;
      created: string;
    };
    order_id: string;
    partner_org_id: string;
    test?: true;
    paid_at: string;
  };
}

export interface InvoiceOverdueEvent {
  event: "invoice.overdue";
  timestamp: string;
  data: {
    invoice: {
      object: "invoice";
      id: string;
      order_id: string;
      partner_org_id: string;
      number: string;
      status: "open" | "paid" | "overdue" | "void" | "uncollectible";
      po_number: string | null;
      subtotal: number | null;
      tax: number | null;
      shipping: number | null;
      total: number;
      amount_due: number;
      amount_paid: number;
      amount_credited: number;
      lines: Array<{
        description: string;
        sku: string;
        quantity: number;
        unit_amount: number;
        amount: number;
      }> | null;
      due_date: string;
      paid_at: string | null;
      hosted_invoice_url: string;
      invoice_pdf: string;
      credit_notes: Array<{
        id: string;
        number: string | null;
        amount: number;
        created: string;
        reason: string | null;
        pdf: string | null;
      }>;
      created: string;
    };
    order_id: string;
    partner_org_id: string;
    test?: true;
    overdue_at: string;
  };
}

export interface InvoiceCreditedEvent {
  event: "invoice.credited";
  timestamp: string;
  data: {
    invoice: {
      object: "invoice";
      id: string;
      order_id: string;
      partner_org_id: string;
      number: string;
      status: "open" | "paid" | "overdue" | "void" | "uncollectible";
      po_number: string | null;
      subtotal: number | null;
      tax: number | null;
      shipping: number | null;
      total: number;
      amount_due: number;
      amount_paid: number;
      amount_credited: number;
      lines: Array<{
        description: string;
        sku: string;
        quantity: number;
        unit_amount: number;
        amount: number;
      }> | null;
      due_date: string;
      paid_at: string | null;
      hosted_invoice_url: string;
      invoice_pdf: string;
      credit_notes: Array<{
        id: string;
        number: string | null;
        amount: number;
        created: string;
        reason: string | null;
        pdf: string | null;
      }>;
      created: string;
    };
    order_id: string;
    partner_org_id: string;
    test?: true;
    credit_note: {
      id: string;
      amount: number;
      created_at: string;
    };
  };
}

/** Every order webhook body, told apart by `event`. */
export type OrderEvent = OrderCreatedEvent | OrderConfirmedEvent | OrderShippedEvent | OrderDeliveredEvent | OrderCancelledEvent | OrderRefundedEvent;

export type OrderEventKind = OrderEvent['event'];

/** Every approval webhook body, told apart by `event` (sent only to endpoints subscribed to the approval kinds). */
export type ApprovalEvent = ApprovalRequestedEvent | ApprovalDecidedEvent;

export type ApprovalEventKind = ApprovalEvent['event'];

/** Every invoice webhook body, told apart by `event` (sent only to endpoints subscribed to the invoice kinds). */
export type InvoiceEvent = InvoiceIssuedEvent | InvoicePaidEvent | InvoiceOverdueEvent | InvoiceCreditedEvent;

export type InvoiceEventKind = InvoiceEvent['event'];

/** Every webhook body, told apart by `event`: what `webhooks.constructEvent` returns. */
export type WebhookEvent = OrderEvent | ApprovalEvent | InvoiceEvent;

export type WebhookEventKind = WebhookEvent['event'];
