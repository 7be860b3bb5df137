import type * as z from 'zod/mini';
import { ValidationFailed } from '../../domain/errors';
import { toValidationIssues } from '../../domain/validation';

/** zod at the edge: the parsed value, or every problem at once as ValidationFailed. */
export function parseBody<Schema extends z.ZodMiniType>(schema: Schema, body: unknown): z.output<Schema> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issues = toValidationIssues(result.error);
  throw new ValidationFailed(
    issues,
    `The request body is invalid (${issues.length} problem${issues.length === 1 ? '' : 's'}; see details)`,
  );
}
